/**
 * The population lever (src/solver/search/population.ts, crossover.ts, restarts.ts): the SREX
 * child is a valid plan (the independent checker), holds each stop at most once, takes routes of
 * parent A and serves every stop that still fits; the elite pool keeps no clones, keeps its
 * cheapest plan and its size; a search with the population restarts from children and gives the
 * same plan for the same seed; random problems with every feature stay feasible with it on.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { improvePlan } from '../../src/solver/improve.js';
import { resultOfRoutes, solve } from '../../src/solver/index.js';
import { planOfRoutes, routesOf, searchKitOf, type SearchKit } from '../../src/solver/kit.js';
import { Rng } from '../../src/solver/rng.js';
import { RouteExchange } from '../../src/solver/search/crossover.js';
import { ElitePool } from '../../src/solver/search/population.js';
import { BLINK_RATE } from '../../src/solver/params.js';
import { Recreator } from '../../src/solver/search/recreate.js';
import { search } from '../../src/solver/search/search.js';
import { Solution } from '../../src/solver/solution.js';
import { aloneReason } from '../../src/solver/unserved.js';
import { checkPlan, findInsertableUnserved } from '../support/checker.js';
import { randomProblem } from '../support/problem-builder.js';
import { checkInvariants } from './invariants.js';

/** A searched plan of `problem` (seeded, iteration-bounded): two seeds give two different parents. */
async function parentOf(kit: SearchKit, problem: Problem, seed: number, iterations = 40): Promise<Solution> {
  const outcome = await improvePlan(problem, null, { timeLimitMs: 600_000, seed, maxIterations: iterations, population: false });
  return planOfRoutes(kit, outcome.routes);
}

/** Problems of the stated violations: each stop at most once, and routeOf/posOf agreeing with the routes. */
function bookkeepingProblems(sol: Solution): string[] {
  const problems: string[] = [];
  const seen = new Int32Array(sol.inst.nStops);
  for (let v = 0; v < sol.inst.nVehicles; v++) {
    for (let i = 0; i < sol.len[v]!; i++) {
      const s = sol.seq[v]![i]!;
      if (++seen[s]! > 1) problems.push(`stop ${s} served twice`);
      if (sol.routeOf[s] !== v || sol.posOf[s] !== i) problems.push(`stop ${s} misplaced in the books`);
    }
  }
  for (let s = 0; s < sol.inst.nStops; s++) if (seen[s] === 0 && sol.routeOf[s] !== -1) problems.push(`stop ${s} booked but not routed`);
  return problems;
}

const sameRoute = (x: Int32Array, y: Int32Array): boolean => x.length > 0 && x.length === y.length && x.every((s, i) => s === y[i]);

describe('SREX crossover (search/crossover.ts)', () => {
  for (const seed of [11, 12, 13, 14, 15, 16]) {
    it(`seed ${seed}: the child is valid, each stop once, with A's routes, and serves what fits`, async () => {
      const problem = randomProblem(seed, { stops: 60, vehicles: 6, allFeatures: seed % 2 === 0 });
      const kit = searchKitOf(problem);
      const { inst, evaluator, costs, inserter, near } = kit;
      const a = await parentOf(kit, problem, 1);
      const b = await parentOf(kit, problem, 2);
      const rng = new Rng(seed);
      const child = new Solution(inst, costs);
      const displaced = new RouteExchange(inst, evaluator, near.neighbours, near.k, rng).cross(child, a, b);
      expect(bookkeepingProblems(child)).toEqual([]);
      for (const s of displaced) expect(child.routeOf[s]).toBe(-1);
      const aRoutes = routesOf(a);
      expect(routesOf(child).some((route) => aRoutes.some((r) => sameRoute(r, route)))).toBe(true);

      const eligible = Array.from({ length: inst.nStops }, (_, s) => s).filter((s) => aloneReason(inst, evaluator, s) === null);
      new Recreator(inst, inserter, evaluator, near.neighbours, near.k, eligible, rng, BLINK_RATE).recreate(child, displaced);
      expect(bookkeepingProblems(child)).toEqual([]);
      for (const s of child.unservedStops()) expect(inserter.bestOverall(child, s), `stop ${s} still fits`).toBe(false);
      const result = resultOfRoutes(problem, routesOf(child), {
        elapsedMs: 0,
        iterations: 0,
        firstPlanMs: 0,
        bestFoundMs: 0,
        seed,
        threads: 1,
        stoppedBy: 'complete',
      });
      const served = result.routes.reduce((n, r) => n + r.visits.filter((x) => x.kind === 'stop').length, 0);
      expect(served).toBe(inst.nStops - child.unservedStops().length);
      const plan = JSON.parse(JSON.stringify(buildPlan(problem, result)));
      expect(checkPlan(problem, plan)).toEqual([]);
    }, 60_000);
  }
});

describe('elite pool (search/population.ts)', () => {
  it('keeps no clones, keeps the cheapest, and stays within its size', async () => {
    const problem = randomProblem(21, { stops: 50, vehicles: 5 });
    const kit = searchKitOf(problem);
    const pool = new ElitePool(kit.inst, kit.costs, 3);
    const plans = await Promise.all([1, 2, 3, 4, 5, 6].map((seed) => parentOf(kit, problem, seed, 10 * seed)));
    const first = plans[0]!;
    expect(pool.admit(first, kit.costs.objective(first))).toBe(true);
    expect(pool.admit(first, kit.costs.objective(first))).toBe(false);
    expect(pool.size).toBe(1);
    for (const plan of plans) pool.admit(plan, kit.costs.objective(plan));
    expect(pool.size).toBe(3);
    for (let i = 0; i < pool.size; i++) for (let j = i + 1; j < pool.size; j++) expect(pool.distance(i, j)).toBeGreaterThan(0);
    const cheapest = Math.min(...plans.map((p) => kit.costs.objective(p).cost));
    expect(Math.min(...pool.plans().map((p) => kit.costs.objective(p).cost))).toBe(cheapest);
    const [x, y] = pool.pickParents(new Rng(0));
    expect(x).not.toBe(y);
  }, 60_000);

  it('a clone cheaper than its twin takes its place', async () => {
    const problem = randomProblem(22, { stops: 30, vehicles: 3 });
    const kit = searchKitOf(problem);
    const plan = await parentOf(kit, problem, 1);
    const pool = new ElitePool(kit.inst, kit.costs);
    const objective = kit.costs.objective(plan);
    expect(pool.admit(plan, { ...objective, cost: objective.cost + 1 })).toBe(true);
    expect(pool.admit(plan, objective)).toBe(true);
    expect(pool.size).toBe(1);
  }, 60_000);
});

describe('a search with the population', () => {
  it('restarts from children, and the same seed gives the same plan', async () => {
    const problem = randomProblem(31, { stops: 80, vehicles: 8 });
    const runOnce = async (): Promise<{ routes: string; restarts: number }> => {
      const kit = searchKitOf(problem);
      const start = await parentOf(kit, problem, 5, 1);
      const outcome = await search(start, kit.inserter, kit.evaluator, kit.near, {
        started: performance.now(),
        deadline: Infinity,
        seed: 7,
        maxIterations: 600,
        population: true,
      });
      return { routes: JSON.stringify(routesOf(outcome.best).map((r) => Array.from(r))), restarts: outcome.restarts ?? 0 };
    };
    const first = await runOnce();
    expect(first.restarts).toBeGreaterThan(0);
    expect(await runOnce()).toEqual(first);
  }, 60_000);

  it('solve: the same seed gives the same plan, population on', async () => {
    const problem = randomProblem(32, { stops: 60, vehicles: 6, allFeatures: true });
    const options = { timeLimitMs: 600_000, seed: 4, maxIterations: 400, population: true };
    const one = await solve(problem, options);
    const two = await solve(problem, options);
    expect(JSON.stringify(two.routes)).toBe(JSON.stringify(one.routes));
  }, 60_000);
});

describe('random problems with every feature, population on', () => {
  for (const c of [
    { seed: 401, stops: 25, vehicles: 2 },
    { seed: 402, stops: 50, vehicles: 4 },
    { seed: 403, stops: 80, vehicles: 7 },
    { seed: 404, stops: 120, vehicles: 5 },
  ]) {
    it(`seed ${c.seed}: ${c.stops} stops, ${c.vehicles} vehicles — feasible, nothing insertable`, async () => {
      const problem = randomProblem(c.seed, { stops: c.stops, vehicles: c.vehicles, allFeatures: true });
      const result = await solve(problem, { timeLimitMs: 600_000, seed: c.seed, maxIterations: 400, population: true });
      expect(checkInvariants(problem, result)).toEqual([]);
      const plan = JSON.parse(JSON.stringify(buildPlan(problem, result)));
      expect(checkPlan(problem, plan)).toEqual([]);
      expect(findInsertableUnserved(problem, plan)).toEqual([]);
    }, 60_000);
  }
});
