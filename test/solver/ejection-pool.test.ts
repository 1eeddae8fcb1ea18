/**
 * Route minimisation by an ejection pool (src/solver/search/ejection-pool.ts) and the second
 * trajectory it starts (src/solver/fewer-routes.ts): the pool hands back a plan serving every stop
 * it could serve with one route fewer, each of its plans passing the independent checker, the same
 * for the same seed; a solve with the lever keeps the smaller fleet's plan only when it ends better,
 * so its objective is never worse than without; the rounds run only where a small windowed search
 * stopped by itself, and only while a search as long as the main one fits in the limit's work.
 */
import { describe, expect, it } from 'vitest';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import { buildPlan } from '../../src/output/plan.js';
import { compareObjective } from '../../src/solver/cost.js';
import { fewerRoutesApplies, searchWithFewerRoutes } from '../../src/solver/fewer-routes.js';
import { improvePlan } from '../../src/solver/improve.js';
import { solveOnce } from '../../src/solver/index.js';
import { planOfRoutes, searchKitOf } from '../../src/solver/kit.js';
import { EJECTION_POOL_MAX_STOPS } from '../../src/solver/params.js';
import { Rng } from '../../src/solver/rng.js';
import { EjectionPool } from '../../src/solver/search/ejection-pool.js';
import { insertableStops } from '../../src/solver/search/search.js';
import { WorkMeter } from '../../src/solver/search/work.js';
import type { Solution } from '../../src/solver/solution.js';
import { checkPlan } from '../support/checker.js';
import { ineligibleOf, tightWindowsSolomonText } from './helpers.js';
import { expectCheckedPlan, sequencesOf } from './local-optimum.js';

const problem = loadBenchmarkText(tightWindowsSolomonText(60, 11), 'solomon', 'generated');

/** The pool run once on the first plan of `problem` (seed 1), with the given seed. */
async function oneRouteFewer(seed: number): Promise<{ start: Solution; plan: Solution | null }> {
  const kit = searchKitOf(problem);
  const first = await improvePlan(problem, null, { timeLimitMs: 600_000, seed: 1, maxIterations: 0 });
  const start = planOfRoutes(kit, first.routes);
  const pool = new EjectionPool(kit.inst, kit.inserter, kit.evaluator, kit.near, insertableStops(kit.inst, kit.evaluator), new Rng(seed));
  const budget = { work: 1e9, deadline: Infinity, clock: () => performance.now() };
  return { start, plan: pool.withOneRouteFewer(start, budget, new WorkMeter(kit.evaluator, kit.inserter, null)) };
}

describe('ejection pool (search/ejection-pool.ts, fewer-routes.ts)', () => {
  it('serves every stop it could with one route fewer, its plan checked and the same for a seed', async () => {
    const { start, plan } = await oneRouteFewer(3);
    expect(plan).not.toBeNull();
    expect(plan!.routesUsed()).toBe(start.routesUsed() - 1);
    expect(plan!.unservedStops()).toEqual(ineligibleOf(searchKitOf(problem)));
    expectCheckedPlan(problem, plan!);
    const again = await oneRouteFewer(3);
    expect(sequencesOf(again.plan!)).toBe(sequencesOf(plan!));
  }, 120_000);

  it('keeps the smaller fleet only when its plan ends better: never worse than without the lever', async () => {
    const options = { timeLimitMs: 600_000, seed: 2, maxIterations: 300 };
    const withPool = await solveOnce(problem, { ...options, ejectionPool: true });
    const without = await solveOnce(problem, { ...options, ejectionPool: false });
    expect(compareObjective(withPool.objective, without.objective, false)).toBeLessThanOrEqual(0);
    expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, withPool.result))))).toEqual([]);
    const again = await solveOnce(problem, { ...options, ejectionPool: true });
    expect(again.objective).toEqual(withPool.objective);
  }, 120_000);

  it('starts no round when a search as long as the main one would not fit in the work of the limit', async () => {
    const kit = searchKitOf(problem);
    const first = await improvePlan(problem, null, { timeLimitMs: 600_000, seed: 1, maxIterations: 0 });
    const start = planOfRoutes(kit, first.routes);
    const started = performance.now();
    const limits = { started, deadline: started + 10_000, workSpanMs: 10_000, seed: 1, maxIterations: 50 };
    const tooLong = await searchWithFewerRoutes(problem, kit, start, { ...limits, mainWork: 1e12 }, undefined);
    expect(tooLong.iterations).toBe(0);
    expect(tooLong.best).toBe(start);
    const short = await searchWithFewerRoutes(problem, kit, start, { ...limits, mainWork: 0 }, undefined);
    expect(short.iterations).toBeGreaterThan(0);
  }, 120_000);

  it('applies where a windowed search up to EJECTION_POOL_MAX_STOPS stops stopped by itself, when on', () => {
    const small = searchKitOf(problem);
    const large = searchKitOf(loadBenchmarkText(tightWindowsSolomonText(EJECTION_POOL_MAX_STOPS + 4, 7), 'solomon', 'generated'));
    expect(fewerRoutesApplies(small, true, 'no_improvement')).toBe(true);
    expect(fewerRoutesApplies(small, true, 'iterations')).toBe(true);
    expect(fewerRoutesApplies(small, true, 'time')).toBe(false);
    expect(fewerRoutesApplies(small, false, 'no_improvement')).toBe(false);
    expect(fewerRoutesApplies(large, true, 'no_improvement')).toBe(false);
  });
});
