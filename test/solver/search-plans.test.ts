/**
 * The search's plans (search/plans.ts): a ruin and recreate that gives the current plan back is
 * told apart from one that changed it, since the search then skips the polish; and a solve whose
 * iterations often give the current plan back still passes the independent checker and
 * reproduces its plan.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { solve } from '../../src/solver/index.js';
import { instanceOf } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { regretInsertion } from '../../src/solver/regret.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { Plans } from '../../src/solver/search/plans.js';
import { Solution } from '../../src/solver/solution.js';
import { checkPlan } from '../support/checker.js';
import { randomProblem } from '../support/problem-builder.js';

function constructed(problem: Problem): { plans: Plans; evaluator: RouteEvaluator } {
  const inst = instanceOf(problem);
  const evaluator = new RouteEvaluator(inst);
  const sol = new Solution(inst, new CostEvaluator(inst));
  regretInsertion(sol, new Inserter(inst, evaluator), evaluator, Infinity);
  return { plans: new Plans(sol, sol.costs), evaluator };
}

/** Moves stop u to the first other place of its route that keeps the route feasible; false when there is none. */
function movedWithinRoute(plans: Plans, evaluator: RouteEvaluator, u: number): boolean {
  const sol = plans.candidate;
  const v = sol.routeOf[u]!;
  const p = sol.posOf[u]!;
  for (let q = 0; q < sol.len[v]!; q++) {
    if (q === p) continue;
    sol.detach(u);
    if (sol.insert(v, q, u, evaluator)) return true;
    sol.detach(u);
    if (!sol.insert(v, p, u, evaluator)) throw new Error('the stop does not fit back where it was');
  }
  return false;
}

describe('Plans.candidateIsCurrent', () => {
  it('holds while the changed routes hold what the current plan holds, and not once a stop has left its place', () => {
    const { plans, evaluator } = constructed(randomProblem(3, { stops: 30, vehicles: 4, uniformSpeed: true }));
    const { candidate } = plans;
    expect(plans.candidateIsCurrent()).toBe(true);
    const u = candidate.routeOf.findIndex((v) => v >= 0);
    const v = candidate.routeOf[u]!;
    const p = candidate.posOf[u]!;
    // Out and back where it was: the route is touched, its stops are the same.
    candidate.detach(u);
    expect(plans.candidateIsCurrent()).toBe(false);
    expect(candidate.insert(v, p, u, evaluator)).toBe(true);
    expect(candidate.touchedList).toContain(v);
    expect(plans.candidateIsCurrent()).toBe(true);
    // A stop one or more places on in its own route: as many stops, in another order.
    const served = [...candidate.routeOf.keys()].filter((s) => candidate.routeOf[s]! >= 0);
    expect(served.some((s) => movedWithinRoute(plans, evaluator, s))).toBe(true);
    expect(plans.candidateIsCurrent()).toBe(false);
  });
});

describe('a solve with the polish skipped on unchanged candidates', () => {
  it('passes the independent checker and reproduces its plan for a seed', async () => {
    const problem = randomProblem(11, { stops: 40, vehicles: 5, uniformSpeed: true });
    const options = { timeLimitMs: 30_000, seed: 4, maxIterations: 300 };
    const first = buildPlan(problem, await solve(problem, options));
    expect(checkPlan(problem, first)).toEqual([]);
    const second = buildPlan(problem, await solve(problem, options));
    expect(second.routes).toEqual(first.routes);
  });
});
