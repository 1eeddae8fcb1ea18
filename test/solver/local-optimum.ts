/**
 * What the tests of an extra local-search move (SWAP*, the string swaps) share: a plan at the local
 * optimum of the other moves, the plan's cost, and the checks that the routes stay feasible and the
 * plan passes the independent checker.
 */
import { expect } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { resultOfRoutes } from '../../src/solver/index.js';
import { routesOf } from '../../src/solver/kit.js';
import { instanceOf, type SolverInstance } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { LocalSearch } from '../../src/solver/ls/local-search.js';
import { regretInsertion } from '../../src/solver/regret.js';
import { Rng } from '../../src/solver/rng.js';
import { sequenceLoad } from '../../src/solver/route/capacity.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { Solution } from '../../src/solver/solution.js';
import type { SolveResult } from '../../src/solver/types.js';
import { checkPlan } from '../support/checker.js';
import { checkInvariants } from './invariants.js';

/** The regret plan polished by the local search without SWAP* and the string swaps: a local optimum of the other moves. */
export function polished(problem: Problem, seed: number): { inst: SolverInstance; sol: Solution; evaluator: RouteEvaluator } {
  const inst = instanceOf(problem);
  const evaluator = new RouteEvaluator(inst);
  const sol = new Solution(inst, new CostEvaluator(inst, 1));
  regretInsertion(sol, new Inserter(inst, evaluator), evaluator, Infinity);
  LocalSearch.create(inst, evaluator, new Rng(seed), { swapStar: false, stringSwaps: false })!.run(sol);
  return { inst, sol, evaluator };
}

export function totalCost(sol: Solution): number {
  let cost = 0;
  for (let v = 0; v < sol.inst.nVehicles; v++) cost += sol.rCost[v]!;
  return cost;
}

/** Every route's stops as one string, to compare two plans stop for stop. */
export function sequencesOf(sol: Solution): string {
  return routesOf(sol)
    .map((r) => Array.from(r).join(','))
    .join('|');
}

export function expectFeasibleRoutes(sol: Solution, inst: SolverInstance, evaluator: RouteEvaluator): void {
  for (let v = 0; v < inst.nVehicles; v++) {
    const n = sol.len[v]!;
    if (n === 0) continue;
    const seq = sol.seq[v]!.slice(0, n);
    expect(evaluator.evaluate(v, seq, n, sequenceLoad(inst, seq)), `vehicle ${v}`).not.toBeNull();
  }
}

/**
 * The plan of the solution's routes, checked by the independent checker and the invariants; it
 * leaves no more stops unserved than the solution does. Returns it for further checks.
 */
export function expectCheckedPlan(problem: Problem, sol: Solution): SolveResult {
  const unserved = problem.stops.length - routesOf(sol).reduce((served, route) => served + route.length, 0);
  const result = resultOfRoutes(problem, routesOf(sol), {
    elapsedMs: 0,
    iterations: 0,
    firstPlanMs: 0,
    bestFoundMs: 0,
    seed: 0,
    threads: 1,
    stoppedBy: 'iterations',
  });
  expect(result.unserved.length).toBeLessThanOrEqual(unserved);
  expect(checkInvariants(problem, result)).toEqual([]);
  expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, result))))).toEqual([]);
  return result;
}
