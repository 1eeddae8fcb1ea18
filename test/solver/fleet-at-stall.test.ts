/**
 * The fleet minimisation at the stall (src/solver/search/fleet-at-stall.ts): on a small windowed
 * problem whose search stalls with a route it can save, the phase hands on a plan serving every
 * stop with fewer routes and the search goes on from it; the search's plan passes the independent
 * checker, serves every stop that can be served, and is the same for the same seed. With the lever
 * off no route is taken out; it does not apply above FLEET_AT_STALL_MAX_STOPS stops or without windows.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import { improvePlan } from '../../src/solver/improve.js';
import { planOfRoutes, searchKitOf } from '../../src/solver/kit.js';
import { FLEET_AT_STALL_MAX_STOPS } from '../../src/solver/params.js';
import { fleetAtStallApplies } from '../../src/solver/search/fleet-at-stall.js';
import { search, type SearchOutcome } from '../../src/solver/search/search.js';
import { stallLimitsOf } from '../../src/solver/stop/index.js';
import { coolWorkFor } from '../../src/solver/windowless.js';
import { ineligibleOf, tightWindowsSolomonText } from './helpers.js';
import { expectCheckedPlan, sequencesOf } from './local-optimum.js';

/**
 * A search of `problem` from a first plan that stops by itself on its stall, cooling by work as a
 * solve that may stop by itself does (index.ts), so that a seed gives one plan.
 */
async function stalledSearch(problem: Problem, fleetAtStall: boolean): Promise<SearchOutcome> {
  const kit = searchKitOf(problem);
  const first = await improvePlan(problem, null, { timeLimitMs: 600_000, seed: 1, maxIterations: 0 });
  const started = performance.now();
  const limits = {
    started,
    deadline: started + 600_000,
    seed: 4,
    ...stallLimitsOf(kit.inst.nStops),
    coolWork: coolWorkFor(kit.inst),
    fleetAtStall,
  };
  return search(planOfRoutes(kit, first.routes), kit.inserter, kit.evaluator, kit.near, limits);
}

describe('fleet minimisation at the stall (search/fleet-at-stall.ts)', () => {
  const problem = loadBenchmarkText(tightWindowsSolomonText(60, 11), 'solomon', 'generated');

  it('goes on from a plan with fewer routes serving every stop; the plan is checked and repeats for a seed', async () => {
    const outcome = await stalledSearch(problem, true);
    expect(outcome.stoppedBy).toBe('no_improvement');
    expect(outcome.fleetAtStallRoutes).toBeGreaterThan(0);
    expectCheckedPlan(problem, outcome.best);
    expect(outcome.best.unservedStops()).toEqual(ineligibleOf(searchKitOf(problem)));
    const again = await stalledSearch(problem, true);
    expect(sequencesOf(again.best)).toBe(sequencesOf(outcome.best));
    expect(again.iterations).toBe(outcome.iterations);
  }, 120_000);

  it('takes out no route with the lever off', async () => {
    const outcome = await stalledSearch(problem, false);
    expect(outcome.stoppedBy).toBe('no_improvement');
    expect(outcome.fleetAtStallRoutes ?? 0).toBe(0);
    expectCheckedPlan(problem, outcome.best);
  }, 120_000);

  it('applies where windows bind up to FLEET_AT_STALL_MAX_STOPS stops, when on', () => {
    const small = searchKitOf(problem).inst;
    const large = searchKitOf(loadBenchmarkText(tightWindowsSolomonText(FLEET_AT_STALL_MAX_STOPS + 4, 7), 'solomon', 'generated')).inst;
    expect(fleetAtStallApplies(small, true)).toBe(true);
    expect(fleetAtStallApplies(small, false)).toBe(false);
    expect(fleetAtStallApplies(large, true)).toBe(false);
  });
});
