/**
 * A decomposition part's local search reads its neighbour rules from the whole problem's stop count
 * (decompose/search.ts, partsPolishRuleStops; params.ts, PARTS_POLISH_AS_WHOLE): every epoch's
 * search gets it, the warm-up's searches of the whole need none, the rule reaches a part's search
 * (its plan differs from the part's own rule's) and the merged plan passes the independent checker.
 */
import { describe, expect, it } from 'vitest';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import { buildPlan } from '../../src/output/plan.js';
import { improvePlan, type PlainImproveOptions } from '../../src/solver/improve.js';
import { inlineRunner, type ImproveRunner } from '../../src/solver/decompose/runner.js';
import { partsPolishRuleStops, solveBySplitting } from '../../src/solver/decompose/search.js';
import { FEW_LS_NEIGHBOURS_MIN_STOPS, PARTS_POLISH_AS_WHOLE } from '../../src/solver/params.js';
import { checkPlan } from '../support/checker.js';
import { tightWindowsSolomonText } from './helpers.js';

/** An inline runner that records the options of every search it runs, and whether it had a start plan. */
function recording(): { runner: ImproveRunner; calls: Array<{ warmStart: boolean; options: PlainImproveOptions }> } {
  const inner = inlineRunner();
  const calls: Array<{ warmStart: boolean; options: PlainImproveOptions }> = [];
  return {
    calls,
    runner: {
      abort: () => {},
      run: (index, problem, initial, options, onProgress) => {
        calls.push({ warmStart: initial !== null, options });
        return inner.run(index, problem, initial, options, onProgress);
      },
    },
  };
}

/** Stop sequences of routes, one string. */
const sequencesOf = (routes: readonly Int32Array[]): string => routes.map((r) => Array.from(r).join(',')).join('|');

describe("a decomposition part's local search", () => {
  it("reads the whole problem's stop count in every epoch, and the merged plan passes the checker", async () => {
    const problem = loadBenchmarkText(tightWindowsSolomonText(FEW_LS_NEIGHBOURS_MIN_STOPS, 11), 'solomon', 'generated');
    const { runner, calls } = recording();
    const result = await solveBySplitting(problem, { timeLimitMs: 120_000, seed: 2, maxIterations: 40, split: true }, 2, runner);
    expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, result))))).toEqual([]);
    const epochs = calls.filter((c) => c.warmStart);
    expect(epochs.length).toBeGreaterThanOrEqual(2);
    for (const c of epochs) expect(c.options.lsRuleStops).toBe(PARTS_POLISH_AS_WHOLE ? FEW_LS_NEIGHBOURS_MIN_STOPS : undefined);
    for (const c of calls.filter((call) => !call.warmStart)) expect(c.options.lsRuleStops).toBeUndefined();
    expect(partsPolishRuleStops(problem)).toBe(PARTS_POLISH_AS_WHOLE ? problem.stops.length : undefined);
  }, 120_000);

  it("searches a part otherwise under the whole's rule than under its own", async () => {
    // A part's size: below FEW_LS_NEIGHBOURS_MIN_STOPS, where the part's own rule differs from the whole's.
    const part = loadBenchmarkText(tightWindowsSolomonText(FEW_LS_NEIGHBOURS_MIN_STOPS / 2, 13), 'solomon', 'generated');
    const options = { timeLimitMs: 120_000, seed: 4, maxIterations: 30 };
    const own = await improvePlan(part, null, options);
    const whole = await improvePlan(part, null, { ...options, lsRuleStops: FEW_LS_NEIGHBOURS_MIN_STOPS });
    expect(sequencesOf(whole.routes)).not.toBe(sequencesOf(own.routes));
    expect(whole.iterations).toBe(30);
  }, 120_000);
});
