/**
 * Every fix hint is taken at its word on random feature-rich problems with a tight fleet: the
 * problem rebuilt with the hint's one change applied, the stop fits the plan as it stands (a
 * fresh instance of the changed problem says so), and the plan with the stop inserted where it
 * fits passes the independent checker against the changed problem.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { resultOfRoutes, solve } from '../../src/solver/index.js';
import { planOfRoutes, searchKitOf } from '../../src/solver/kit.js';
import { TrialInsertion } from '../../src/solver/trial-insertion.js';
import type { SolveResult, UnservedHint } from '../../src/solver/types.js';
import { explainUnserved } from '../../src/solver/unserved.js';
import { checkPlan } from '../support/checker.js';
import { randomProblem } from '../support/problem-builder.js';
import { stopVisits } from './helpers.js';

/** The problem with the hint's one change made, nothing else. */
function withHint(problem: Problem, s: number, hint: UnservedHint): Problem {
  const stops = [...problem.stops];
  const vehicles = [...problem.vehicles];
  const stop = { ...stops[s]!, windows: stops[s]!.windows.map((w) => ({ ...w })) };
  const vehicle = { ...vehicles[hint.vehicle]!, capacity: vehicles[hint.vehicle]!.capacity.slice() };
  const compatible = problem.compatible.slice();
  switch (hint.kind) {
    case 'window_end_later':
      stop.windows[hint.window!]!.end = hint.value!;
      break;
    case 'window_start_earlier':
      stop.windows[hint.window!]!.start = hint.value!;
      break;
    case 'duration_shorter':
      stop.duration = hint.value!;
      break;
    case 'shift_end_later':
      vehicle.shiftEnd = hint.value!;
      break;
    case 'driver_capacity':
      vehicle.capacity[hint.dimension!] = hint.value!;
      break;
    case 'driver_type':
      vehicle.labels = [...vehicle.labels, hint.label!];
      compatible[hint.vehicle * stops.length + s] = 1;
      break;
  }
  stops[s] = stop;
  vehicles[hint.vehicle] = vehicle;
  return { ...problem, stops, vehicles, compatible };
}

function routesOf(problem: Problem, result: SolveResult): Int32Array[] {
  const routes = problem.vehicles.map(() => new Int32Array(0));
  for (const route of result.routes) routes[route.vehicle] = Int32Array.from(stopVisits(route).map((visit) => visit.stop));
  return routes;
}

describe('fix hints hold on random problems', () => {
  it('each hint applied: the stop fits the plan as it stands, and the plan with it passes the checker', async () => {
    let checked = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const problem = randomProblem(seed, { stops: 50, vehicles: 3, allFeatures: true });
      const result = await solve(problem, { timeLimitMs: 10_000, seed: 0, maxIterations: 30 });
      expect(checkPlan(problem, buildPlan(problem, result))).toEqual([]);
      const routes = routesOf(problem, result);
      for (const { hints = [], ...entry } of result.unserved) {
        expect(hints.length).toBeLessThanOrEqual(3);
        expect(new Set(hints.map((hint) => hint.kind)).size).toBe(hints.length);
        for (const hint of hints) {
          const changed = withHint(problem, entry.stop, hint);
          const kit = searchKitOf(changed);
          const plan = planOfRoutes(kit, routes);
          const again = explainUnserved(plan, kit.evaluator).find((u) => u.stop === entry.stop)!;
          expect(again.message, `${hint.text} (seed ${seed}, stop ${entry.stop})`).toMatch(/fits the plan as it stands/);
          const fit = new TrialInsertion(plan).best(kit.evaluator, hint.vehicle, entry.stop);
          expect(fit, `${hint.text}: fits the route it names`).not.toBeNull();
          const inserted = routes.map((route) => route.slice());
          const route = routes[hint.vehicle]!;
          inserted[hint.vehicle] = Int32Array.from([...route.subarray(0, fit!.pos), entry.stop, ...route.subarray(fit!.pos)]);
          const served = resultOfRoutes(changed, inserted, result.stats);
          expect(checkPlan(changed, buildPlan(changed, served))).toEqual([]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  }, 120_000);
});
