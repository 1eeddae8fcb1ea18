/**
 * The normalization reproduces the published best-known values: each BKS route file, evaluated
 * with our matrix, windows, capacities and depot return, is feasible and costs exactly the
 * bks.csv value (DIMACS tenths for Solomon/Homberger, CVRPLIB integers for X).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { truncatedTenths } from '../../src/input/benchmark/euclidean.js';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import {
  benchmarksAvailable,
  benchmarksRoot,
  listInstances,
  parseSolutionFile,
  readBks,
  type BenchmarkSet,
  type InstanceEntry,
} from '../bench/benchmark-data.js';
import { evaluateRoutes } from './route-evaluator.js';

const available = benchmarksAvailable();
if (!available) console.warn(`benchmark data not found at ${benchmarksRoot()}: BKS reproduction tests skipped`);

function reproduce(set: BenchmarkSet, entry: InstanceEntry) {
  const problem = loadBenchmarkText(readFileSync(entry.path, 'utf8'), entry.format, entry.name);
  const solution = parseSolutionFile(readFileSync(entry.solutionPath!, 'utf8'));
  const bks = readBks(set).get(entry.name);
  const evaluation = evaluateRoutes(problem, solution.routes);
  return { problem, solution, bks, evaluation };
}

/** Every instance that has a BKS route file (all of them, per the data README). */
function instancesToCheck(set: BenchmarkSet): InstanceEntry[] {
  if (!available) return [];
  return listInstances(set).filter((entry) => entry.solutionPath !== null);
}

describe.skipIf(!available)('BKS reproduction', () => {
  it('R101: the DIMACS best-known routes cost exactly 1637.7 (16377 tenths) with 20 routes', () => {
    const entry = listInstances('solomon').find((e) => e.name === 'R101')!;
    const { evaluation, solution } = reproduce('solomon', entry);
    expect(evaluation.violations).toEqual([]);
    expect(evaluation.distance).toBe(16377);
    expect(solution.routes).toHaveLength(20);
  });

  it('the test evaluator catches a broken route (so the reproduction checks can fail)', () => {
    const entry = listInstances('solomon').find((e) => e.name === 'R101')!;
    const { problem, solution } = reproduce('solomon', entry);
    const reversed = solution.routes.map((route, r) => (r === 0 ? [...route].reverse() : route));
    expect(evaluateRoutes(problem, reversed).violations.join('\n')).toMatch(/route 1: customer \d+ cannot finish inside its window/);
    const missing = solution.routes.slice(1);
    expect(evaluateRoutes(problem, missing).violations).toContain('customer 2 is not served');
  });

  it('the matrix equals an independent re-derivation from the raw R101 coordinates', () => {
    const entry = listInstances('solomon').find((e) => e.name === 'R101')!;
    const { problem } = reproduce('solomon', entry);
    const rows = readFileSync(entry.path, 'utf8')
      .split(/\r?\n/)
      .map((line) => line.trim().split(/\s+/).map(Number))
      .filter((cells) => cells.length === 7 && cells.every(Number.isFinite));
    expect(rows).toHaveLength(101);
    for (let i = 0; i < rows.length; i += 7) {
      for (let j = 0; j < rows.length; j += 3) {
        const [dx, dy] = [rows[i]![1]! - rows[j]![1]!, rows[i]![2]! - rows[j]![2]!];
        // BigInt square root of 100·s by bisection: no floating point at all.
        const expected = bigIsqrt(BigInt(100 * (dx * dx + dy * dy)));
        expect(problem.travel.distance[i * problem.travel.size + j]).toBe(Number(expected));
      }
    }
    expect(truncatedTenths({ x: 0, y: 0 }, { x: 1, y: 3 })).toBe(31);
  });

  for (const set of ['solomon', 'homberger-200', 'homberger-400', 'homberger-600', 'homberger-800', 'homberger-1000', 'cvrp-x'] as const) {
    const entries = instancesToCheck(set);
    it(`${set}: ${entries.length} BKS route files are feasible and cost exactly the bks.csv value`, () => {
      expect(entries.length).toBeGreaterThan(0);
      const scale = set === 'cvrp-x' ? 1 : 10;
      const mismatches: string[] = [];
      for (const entry of entries) {
        const { problem, solution, bks, evaluation } = reproduce(set, entry);
        if (bks === undefined) {
          mismatches.push(`${entry.name}: no bks.csv row`);
          continue;
        }
        const expectedUnits = Math.round(bks.distance * scale);
        if (evaluation.violations.length > 0) mismatches.push(`${entry.name}: ${evaluation.violations.slice(0, 3).join('; ')}`);
        if (evaluation.distance !== expectedUnits) mismatches.push(`${entry.name}: cost ${evaluation.distance} ≠ BKS ${expectedUnits}`);
        if (Math.round(solution.cost * scale) !== expectedUnits)
          mismatches.push(`${entry.name}: .sol states ${solution.cost}, bks.csv ${bks.distance}`);
        if (solution.routes.length !== bks.vehicles) mismatches.push(`${entry.name}: ${solution.routes.length} routes ≠ ${bks.vehicles}`);
        if (solution.routes.length > problem.vehicles.length) mismatches.push(`${entry.name}: exceeds the fleet`);
      }
      expect(mismatches).toEqual([]);
    });
  }
});

function bigIsqrt(v: bigint): bigint {
  let lo = 0n;
  let hi = v + 1n;
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (mid * mid <= v) lo = mid;
    else hi = mid;
  }
  return lo;
}
