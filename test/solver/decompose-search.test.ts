/** Several threads on one plan by decomposition (solver/decompose/search.ts): checked plans, never worse, reproducible. */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { compareObjective } from '../../src/solver/cost.js';
import { objectiveOfRoutes, type ImproveOutcome } from '../../src/solver/improve.js';
import { SPLIT_EPOCH_MS, SPLIT_EPOCHS_PER_LIMIT, SPLIT_MIN_STOPS } from '../../src/solver/params.js';
import type { SolveOptions, SolveResult } from '../../src/solver/types.js';
import { solveInThreads } from '../../src/threads/searches.js';
import { inlineRunner, type ImproveRunner } from '../../src/solver/decompose/runner.js';
import { epochMsOf, solveBySplitting, usesSplit } from '../../src/solver/decompose/search.js';
import { workerUrl } from '../../src/threads/worker-url.js';
import { checkPlan, findInsertableUnserved } from '../support/checker.js';
import { randomProblem } from '../support/problem-builder.js';

const unbalanced = (problem: Problem): Problem => ({ ...problem, objective: { ...problem.objective, balance: 'none' } });
const solveInline = (problem: Problem, options: SolveOptions) => solveInThreads(problem, options, { inline: true });
const sequences = (r: SolveResult) =>
  r.routes.map((route) => [route.vehicle, ...route.visits.map((x) => (x.kind === 'stop' ? x.stop : -1))]);
const checked = (problem: Problem, result: SolveResult) => {
  const plan = JSON.parse(JSON.stringify(buildPlan(problem, result)));
  return [...checkPlan(problem, plan), ...findInsertableUnserved(problem, plan).map((s) => `insertable: ${s}`)];
};

/** An inline runner that records every search it runs. */
function recording(): {
  runner: ImproveRunner;
  calls: Array<{ initial: boolean; outcome: ImproveOutcome; stopWhenStalled?: boolean | undefined }>;
} {
  const inner = inlineRunner();
  const calls: Array<{ initial: boolean; outcome: ImproveOutcome; stopWhenStalled?: boolean | undefined }> = [];
  return {
    calls,
    runner: {
      abort: () => {},
      run: async (index, problem, initial, options, onProgress) => {
        const outcome = await inner.run(index, problem, initial, options, onProgress);
        calls.push({ initial: initial !== null, outcome, stopWhenStalled: options.stopWhenStalled });
        return outcome;
      },
    },
  };
}

describe('decomposition on threads', () => {
  it('searches the parts SPLIT_EPOCH_MS an epoch, or a SPLIT_EPOCHS_PER_LIMIT-th of a longer limit', () => {
    expect(epochMsOf(10_000)).toBe(SPLIT_EPOCH_MS);
    expect(epochMsOf(SPLIT_EPOCH_MS * SPLIT_EPOCHS_PER_LIMIT)).toBe(SPLIT_EPOCH_MS);
    expect(epochMsOf(120_000)).toBe(120_000 / SPLIT_EPOCHS_PER_LIMIT);
    expect(epochMsOf(120_000)).toBe(8000);
    expect(epochMsOf(Infinity)).toBe(SPLIT_EPOCH_MS);
  });

  it('is the default with two threads from SPLIT_MIN_STOPS stops on, never with one thread or balancing', () => {
    const big = unbalanced(randomProblem(601, { stops: SPLIT_MIN_STOPS, vehicles: 4 }));
    const small = unbalanced(randomProblem(602, { stops: SPLIT_MIN_STOPS - 1, vehicles: 4 }));
    expect(usesSplit(big, {}, 2)).toBe(true);
    expect(usesSplit(big, {}, 1)).toBe(false);
    expect(usesSplit(big, { split: false }, 2)).toBe(false);
    expect(usesSplit(small, {}, 2)).toBe(false);
    expect(usesSplit(small, { split: true }, 2)).toBe(true);
    expect(usesSplit({ ...big, objective: { ...big.objective, balance: 'time' } }, { split: true }, 2)).toBe(false);
    expect(usesSplit({ ...big, vehicles: big.vehicles.slice(0, 1) }, { split: true }, 2)).toBe(false);
  });

  const CASES = [
    { seed: 611, stops: 420, vehicles: 30, allFeatures: false },
    // Too few vehicles for every stop, priorities and every feature: unserved stops go to the parts too.
    { seed: 612, stops: 430, vehicles: 24, allFeatures: true },
    { seed: 613, stops: 450, vehicles: 12, allFeatures: true },
  ];
  for (const c of CASES) {
    it(`seed ${c.seed}: ${c.stops} stops, ${c.vehicles} vehicles — the merged plan passes the checker, reproduces, never worse than its start`, async () => {
      const problem = unbalanced(randomProblem(c.seed, { stops: c.stops, vehicles: c.vehicles, allFeatures: c.allFeatures }));
      const options = { timeLimitMs: 120_000, seed: 4, threads: 2, maxIterations: 40 };
      const { runner, calls } = recording();
      const result = await solveBySplitting(problem, options, 2, runner);
      expect(checked(problem, result)).toEqual([]);
      expect(result.stats.threads).toBe(2);
      // Two searches from scratch, then epochs of two parts each.
      const starts = calls.filter((call) => !call.initial).map((call) => call.outcome);
      const parts = calls.filter((call) => call.initial).map((call) => call.outcome);
      expect(starts).toHaveLength(2);
      expect(parts.length).toBeGreaterThanOrEqual(2);
      expect(result.stats.iterations).toBe(calls.reduce((sum, call) => sum + call.outcome.iterations, 0));
      // Never worse than the best plan the decomposition started from.
      const minimize = problem.objective.minimizeRoutes;
      const start = compareObjective(starts[0]!.objective, starts[1]!.objective, minimize) <= 0 ? starts[0]! : starts[1]!;
      const routes = problem.vehicles.map(() => new Int32Array(0));
      for (const route of result.routes)
        routes[route.vehicle] = Int32Array.from(route.visits.flatMap((x) => (x.kind === 'stop' ? [x.stop] : [])));
      expect(compareObjective(objectiveOfRoutes(problem, routes), start.objective, minimize)).toBeLessThanOrEqual(0);
      const again = await solveInline(problem, options);
      expect(sequences(again)).toEqual(sequences(result));
      if (c.allFeatures) expect(result.unserved.length).toBeGreaterThan(0);
    }, 120_000);
  }

  it('under full time (--full-time) no search stops at its stall: the warm-ups run on, as the epochs do', async () => {
    const problem = unbalanced(randomProblem(633, { stops: 60, vehicles: 6, uniformSpeed: true }));
    const stallsOf = async (fullTime: boolean) => {
      const { runner, calls } = recording();
      const result = await solveBySplitting(problem, { timeLimitMs: 400, seed: 2, fullTime }, 2, runner);
      expect(checked(problem, result)).toEqual([]);
      return calls.filter((call) => !call.initial).map((call) => call.stopWhenStalled);
    };
    expect(await stallsOf(false)).toEqual([true, true]);
    expect(await stallsOf(true)).toEqual([false, false]);
  }, 60_000);

  it('a part may hold no used route or no stop: the plan is still whole and checked', async () => {
    // Three threads on three vehicles: parts with an empty vehicle only.
    const problem = unbalanced(randomProblem(631, { stops: 400, vehicles: 3, allFeatures: true }));
    const result = await solveBySplitting(problem, { timeLimitMs: 120_000, seed: 6, threads: 3, maxIterations: 30 }, 3, inlineRunner());
    expect(checked(problem, result)).toEqual([]);
    expect(result.stats.threads).toBe(3);
  }, 120_000);

  it('an abort answers the best plan so far', async () => {
    const problem = unbalanced(randomProblem(632, { stops: 420, vehicles: 30, uniformSpeed: true }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1500);
    const result = await solveInline(problem, { timeLimitMs: 120_000, seed: 7, threads: 2, split: true, signal: controller.signal });
    expect(result.stats.stoppedBy).toBe('aborted');
    expect(result.stats.elapsedMs).toBeLessThan(60_000);
    expect(checked(problem, result)).toEqual([]);
  }, 120_000);

  it.skipIf(workerUrl() === null)(
    'on worker threads it finds the plan it finds inline',
    async () => {
      const problem = unbalanced(randomProblem(621, { stops: 420, vehicles: 20, uniformSpeed: true }));
      const options = { timeLimitMs: 120_000, seed: 5, threads: 2, maxIterations: 40 };
      const inline = await solveInline(problem, options);
      const threaded = await solveInThreads(problem, options);
      expect(sequences(threaded)).toEqual(sequences(inline));
      expect(threaded.stats.iterations).toBe(inline.stats.iterations);
    },
    120_000,
  );
});
