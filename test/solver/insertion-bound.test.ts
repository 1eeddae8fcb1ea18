/**
 * The inserter skips positions whose lower bound cannot beat the best found (insertion.ts,
 * detourBound): with working time as the cost, an empty vehicle is bounded by its driving out to
 * the stop and on to its end. Skipping must never lose the best insertion: the inserter's best over
 * every candidate route is checked against every position priced by the exact evaluator.
 */
import { describe, expect, it } from 'vitest';
import { instanceOf } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { Solution } from '../../src/solver/solution.js';
import { randomProblem } from '../support/problem-builder.js';
import { partlyRoutedPlan } from './helpers.js';

/** The best (violations, key) over every candidate route and position, priced by the exact evaluator alone. */
function bruteForce(sol: Solution, inserter: Inserter, evaluator: RouteEvaluator, u: number): { viol: number; key: number } | null {
  const inst = sol.inst;
  const costs = sol.costs;
  const count = inserter.collectCandidates(sol);
  const vehicles = Array.from(inserter.candidates.subarray(0, count));
  let best: { viol: number; key: number } | null = null;
  for (const v of vehicles) {
    if (inst.compatible[v * inst.nStops + u] !== 1) continue;
    const load = new Float64Array(inst.dims);
    for (let k = 0; k < inst.dims; k++) load[k] = sol.load[v * inst.dims + k]! + inst.stopLoad[u * inst.dims + k]!;
    const n = sol.len[v]!;
    for (let p = 0; p <= n; p++) {
      const route = evaluator.evaluateInsertion(v, sol.seq[v]!, n, sol.cache[v]!, p, u, load);
      if (!route) continue;
      const viol = costs.violations(route) - sol.rViol[v]! + costs.stabilityWeight(u, v);
      const key = costs.insertionKey(costs.routeCost(route) - sol.rCost[v]!, costs.insertionBaseKey(n), route);
      if (best === null || viol < best.viol - 1e-9 || (viol <= best.viol + 1e-9 && key < best.key - 1e-9)) best = { viol, key };
    }
  }
  return best;
}

describe('insertion bounds', () => {
  for (const seed of [441, 442, 443, 444, 445, 446]) {
    it(`skipping bounded positions never loses the best insertion (seed ${seed}, working time, many empty vehicles)`, () => {
      const random = randomProblem(seed, { stops: 60, vehicles: 25, allFeatures: seed % 2 === 0 });
      const problem = { ...random, objective: { ...random.objective, cost: 'time' as const } };
      const inst = instanceOf(problem);
      expect(inst.costIsDistance).toBe(false);
      // Half the stops routed, so that used routes and empty vehicles compete for the rest.
      const { sol, inserter, evaluator, routable } = partlyRoutedPlan(inst, (s) => s % 2 === 0);
      let compared = 0;
      for (const u of routable.filter((s) => sol.routeOf[s] === -1)) {
        const expected = bruteForce(sol, inserter, evaluator, u);
        const found = inserter.bestOverall(sol, u);
        expect(found, `stop ${u}`).toBe(expected !== null);
        if (!found || expected === null) continue;
        compared++;
        expect(inserter.viol, `stop ${u}`).toBeCloseTo(expected.viol, 6);
        expect(inserter.key, `stop ${u}`).toBeCloseTo(expected.key, 6);
      }
      expect(compared).toBeGreaterThan(10);
    });
  }
});
