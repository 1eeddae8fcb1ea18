/**
 * More blinks on large windowed problems (SolveOptions.moreBlinks; windowless.ts, blinkRate): where
 * windows bind, from MORE_BLINKS_MIN_STOPS stops on, the recreate skips BLINK_RATE_LARGE_WINDOWED of
 * the insertion positions instead of BLINK_RATE, unless switched off; a search with them gives a plan
 * the checker accepts, serving every stop that can be, the same for the same seed, and another plan
 * than without them (the rate reaches the recreate).
 */
import { describe, expect, it } from 'vitest';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import { searchKitOf } from '../../src/solver/kit.js';
import { windowsBind } from '../../src/solver/ls/windows-bind.js';
import { BLINK_RATE, BLINK_RATE_LARGE_WINDOWED, MORE_BLINKS_BY_DEFAULT, MORE_BLINKS_MIN_STOPS } from '../../src/solver/params.js';
import type { SolveOptions } from '../../src/solver/types.js';
import { blinkRate, blinkRateOf } from '../../src/solver/windowless.js';
import { checkPlan } from '../support/checker.js';
import { ineligibleOf, tightWindowsSolomonText } from './helpers.js';

describe('more blinks on large windowed problems (windowless.ts, blinkRate)', () => {
  it('apply where windows bind from MORE_BLINKS_MIN_STOPS stops on, as SolveOptions.moreBlinks says', () => {
    expect(BLINK_RATE_LARGE_WINDOWED).toBeGreaterThan(BLINK_RATE);
    expect(blinkRate(MORE_BLINKS_MIN_STOPS, true)).toBe(MORE_BLINKS_BY_DEFAULT ? BLINK_RATE_LARGE_WINDOWED : BLINK_RATE);
    expect(blinkRate(MORE_BLINKS_MIN_STOPS, true, true)).toBe(BLINK_RATE_LARGE_WINDOWED);
    expect(blinkRate(MORE_BLINKS_MIN_STOPS, true, false)).toBe(BLINK_RATE);
    expect(blinkRate(MORE_BLINKS_MIN_STOPS - 1, true, true)).toBe(BLINK_RATE);
    expect(blinkRate(MORE_BLINKS_MIN_STOPS, false, true)).toBe(BLINK_RATE);
  });

  it('a search with them on 1,000 stops gives a checked plan serving every stop that can be, the same for the same seed, not the plan without them', async () => {
    const large = loadBenchmarkText(tightWindowsSolomonText(MORE_BLINKS_MIN_STOPS, 7), 'solomon', 'generated');
    const kit = searchKitOf(large);
    expect(windowsBind(kit.inst)).toBe(true);
    expect(blinkRateOf(kit.inst, true)).toBe(BLINK_RATE_LARGE_WINDOWED);
    const options: SolveOptions = { timeLimitMs: 600_000, seed: 2, maxIterations: 30, moreBlinks: true };
    const first = await solve(large, options);
    expect(first.stats.iterations).toBe(30);
    expect(checkPlan(large, JSON.parse(JSON.stringify(buildPlan(large, first))))).toEqual([]);
    expect(first.unserved.map((u) => u.stop)).toEqual(ineligibleOf(kit));
    const again = await solve(large, options);
    expect(JSON.stringify(again.routes)).toBe(JSON.stringify(first.routes));
    const without = await solve(large, { ...options, moreBlinks: false });
    expect(checkPlan(large, JSON.parse(JSON.stringify(buildPlan(large, without))))).toEqual([]);
    expect(JSON.stringify(without.routes)).not.toBe(JSON.stringify(first.routes));
  }, 240_000);
});
