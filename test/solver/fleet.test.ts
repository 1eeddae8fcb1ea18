/**
 * The fleet minimisation (src/solver/search/fleet.ts): from a plan serving every stop it hands back
 * a plan serving every stop with fewer routes, which passes the independent checker, leaves its
 * start plan as it was and is the same for the same seed; it hands back nothing from a plan that
 * leaves out a stop it could serve; it applies where windows bind from FLEET_MIN_STOPS stops on unless switched
 * off; a search with it gives a checked plan serving every stop; and a decomposition's warm-up
 * runs it as FLEET_IN_SPLIT_WARMUP says, its epochs only when asked.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import { buildPlan } from '../../src/output/plan.js';
import { inlineRunner, type ImproveRunner } from '../../src/solver/decompose/runner.js';
import { solveBySplitting } from '../../src/solver/decompose/search.js';
import { improvePlan, type PlainImproveOptions } from '../../src/solver/improve.js';
import { solve } from '../../src/solver/index.js';
import { planOfRoutes, searchKitOf, type SearchKit } from '../../src/solver/kit.js';
import { FLEET_IN_SPLIT_WARMUP, FLEET_MIN_STOPS } from '../../src/solver/params.js';
import { Rng } from '../../src/solver/rng.js';
import { FleetMinimiser, fleetMinimisationApplies, type FleetOutcome } from '../../src/solver/search/fleet.js';
import { Ruiner } from '../../src/solver/search/ruin.js';
import { WorkMeter } from '../../src/solver/search/work.js';
import type { Solution } from '../../src/solver/solution.js';
import { aloneReason } from '../../src/solver/unserved.js';
import { checkPlan } from '../support/checker.js';
import { ineligibleOf, tightWindowsSolomonText } from './helpers.js';
import { expectCheckedPlan, sequencesOf } from './local-optimum.js';

/** A plan of `problem` after a few search iterations: more routes than it needs. */
async function startOf(kit: SearchKit, problem: Problem): Promise<Solution> {
  const outcome = await improvePlan(problem, null, { timeLimitMs: 600_000, seed: 3, maxIterations: 2, fleetMinimisation: false });
  return planOfRoutes(kit, outcome.routes);
}

function minimise(kit: SearchKit, start: Solution, seed: number, iterations: number): FleetOutcome {
  const { inst, inserter, evaluator, near } = kit;
  const rng = new Rng(seed);
  const eligible = Array.from({ length: inst.nStops }, (_, s) => s).filter((s) => aloneReason(inst, evaluator, s) === null);
  const ruiner = new Ruiner(inst, near.neighbours, near.k, rng, 10);
  const budget = { work: Infinity, iterations, deadline: Infinity, clock: () => performance.now() };
  return new FleetMinimiser(inst, inserter, evaluator, near, eligible, ruiner, rng).run(
    start,
    budget,
    new WorkMeter(evaluator, inserter, null),
  );
}

describe('fleet minimisation (search/fleet.ts)', () => {
  const problem = loadBenchmarkText(tightWindowsSolomonText(200, 5), 'solomon', 'generated');

  it('serves every stop with fewer routes, passes the checker, leaves its start alone, and repeats for a seed', async () => {
    const kit = searchKitOf(problem);
    const start = await startOf(kit, problem);
    const ineligible = ineligibleOf(kit);
    expect(start.unservedStops()).toEqual(ineligible);
    const before = sequencesOf(start);
    const outcome = minimise(kit, start, 1, 3000);
    expect(sequencesOf(start)).toBe(before);
    const plan = outcome.plan!;
    expect(plan).not.toBeNull();
    expect(outcome.routesRemoved).toBeGreaterThan(0);
    // A ruin may empty one more route, which then stays empty: at least one route fewer per success.
    expect(plan.routesUsed()).toBeLessThanOrEqual(start.routesUsed() - outcome.routesRemoved);
    expect(plan.unservedStops()).toEqual(ineligible);
    expectCheckedPlan(problem, plan);
    const again = minimise(searchKitOf(problem), start, 1, 3000);
    expect(sequencesOf(again.plan!)).toBe(sequencesOf(plan));
  }, 120_000);

  it('hands back nothing from a plan that leaves out a stop it could serve', async () => {
    const kit = searchKitOf(problem);
    const start = await startOf(kit, problem);
    const left = start.routeOf.findIndex((v) => v >= 0);
    expect(start.refreshRoute(start.detach(left), kit.evaluator)).toBe(true);
    expect(start.unservedStops()).toEqual([left, ...ineligibleOf(kit)].sort((a, b) => a - b));
    const outcome = minimise(kit, start, 1, 500);
    expect(outcome.plan).toBeNull();
    expect(outcome.iterations).toBe(0);
  }, 120_000);

  it('applies where windows bind from FLEET_MIN_STOPS stops on, unless switched off', () => {
    const large = searchKitOf(loadBenchmarkText(tightWindowsSolomonText(FLEET_MIN_STOPS, 7), 'solomon', 'generated')).inst;
    const small = searchKitOf(problem).inst;
    expect(fleetMinimisationApplies(small, true)).toBe(false);
    expect(fleetMinimisationApplies(large, true)).toBe(true);
    expect(fleetMinimisationApplies(large, false)).toBe(false);
  });

  it('a search with it on 1,000 stops gives a checked plan serving every stop that can be, the same for the same seed', async () => {
    const large = loadBenchmarkText(tightWindowsSolomonText(FLEET_MIN_STOPS, 7), 'solomon', 'generated');
    const options = { timeLimitMs: 600_000, seed: 2, maxIterations: 30, fleetMinimisation: true };
    const first = await solve(large, options);
    expect(first.stats.iterations).toBe(30);
    const plan = JSON.parse(JSON.stringify(buildPlan(large, first)));
    expect(checkPlan(large, plan)).toEqual([]);
    const ineligible = ineligibleOf(searchKitOf(large));
    expect(first.unserved.map((u) => u.stop)).toEqual(ineligible);
    const second = await solve(large, options);
    expect(JSON.stringify(second.routes)).toBe(JSON.stringify(first.routes));
  }, 180_000);
});

describe("a decomposition's warm-up", () => {
  it('runs the fleet minimisation as FLEET_IN_SPLIT_WARMUP says, the epochs as the options say, and the plan passes the checker', async () => {
    const problem = loadBenchmarkText(tightWindowsSolomonText(FLEET_MIN_STOPS, 9), 'solomon', 'generated');
    const inner = inlineRunner();
    const calls: Array<{ warmStart: boolean; options: PlainImproveOptions }> = [];
    const runner: ImproveRunner = {
      abort: () => {},
      run: (index, part, initial, options, onProgress) => {
        calls.push({ warmStart: initial !== null, options });
        return inner.run(index, part, initial, options, onProgress);
      },
    };
    const result = await solveBySplitting(problem, { timeLimitMs: 120_000, seed: 2, maxIterations: 40, split: true }, 2, runner);
    expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, result))))).toEqual([]);
    for (const c of calls) expect(c.options.fleetMinimisation).toBe(c.warmStart ? undefined : FLEET_IN_SPLIT_WARMUP);
    expect(calls.filter((c) => c.warmStart).length).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
