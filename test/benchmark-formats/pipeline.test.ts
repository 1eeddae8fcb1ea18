/**
 * The bench pipeline on benchmark units: best-known routes, scheduled independently of the
 * solver, pass through buildPlan and the independent checker without findings, and the plan
 * reports the BKS distance in the instance's own units.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import { buildPlan } from '../../src/output/plan.js';
import { checkPlan } from '../support/checker.js';
import { benchmarksAvailable, listInstances, parseSolutionFile, readBks, type BenchmarkSet } from '../bench/benchmark-data.js';
import { routeDistanceFromMatrix } from '../bench/instance-bench.js';
import { scheduleRoutes } from './schedule-routes.js';

const CASES: [BenchmarkSet, string][] = [
  ['solomon', 'R101'],
  ['solomon', 'C201'],
  ['solomon', 'RC105'],
  ['homberger-200', 'R1_2_1'],
  ['homberger-1000', 'RC2_10_5'],
  ['cvrp-x', 'X-n101-k25'],
  ['cvrp-x', 'X-n502-k39'],
];

describe.skipIf(!benchmarksAvailable())('bench pipeline on best-known routes', () => {
  for (const [set, name] of CASES) {
    it(`${name}: buildPlan + checkPlan accept the BKS routes; plan distance = bks.csv`, () => {
      const entry = listInstances(set).find((e) => e.name === name)!;
      const problem = loadBenchmarkText(readFileSync(entry.path, 'utf8'), entry.format, name);
      const routes = parseSolutionFile(readFileSync(entry.solutionPath!, 'utf8')).routes;
      const result = scheduleRoutes(problem, routes);
      const plan = buildPlan(problem, result);
      expect(checkPlan(problem, plan)).toEqual([]);
      const bks = readBks(set).get(name)!;
      expect(plan.summary.distance_m).toBeCloseTo(bks.distance, 6);
      expect(routeDistanceFromMatrix(problem, result) / problem.units.distancePerReported).toBeCloseTo(bks.distance, 6);
      expect(plan.summary.served).toBe(problem.stops.length);
    });
  }

  it('R101 with its first route reversed: the checker reports the broken windows (the pipeline can fail)', () => {
    const entry = listInstances('solomon').find((e) => e.name === 'R101')!;
    const problem = loadBenchmarkText(readFileSync(entry.path, 'utf8'), entry.format, 'R101');
    const routes = parseSolutionFile(readFileSync(entry.solutionPath!, 'utf8')).routes;
    routes[0]!.reverse();
    expect(checkPlan(problem, buildPlan(problem, scheduleRoutes(problem, routes))).length).toBeGreaterThan(0);
  });
});
