/**
 * The settings that differ where no window binds (src/solver/windowless.ts, params.ts): decided in
 * one place for the local search's neighbours and the ruin's size (the wider ruin only where windows
 * do not bind, SolveOptions.widerRuin); the ruin removes about its c̄ (SISR's average), more for a
 * larger one, and a capacity-only solve with the wider ruin passes the independent checker; from
 * FEW_LS_NEIGHBOURS_MIN_STOPS stops on the polish examines only the changed routes' stops.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { solve } from '../../src/solver/index.js';
import { instanceOf, nearestNeighbours } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { LocalSearch, lsNeighboursOf } from '../../src/solver/ls/local-search.js';
import {
  AVG_REMOVED,
  AVG_REMOVED_WITHOUT_WINDOWS,
  LS_NEIGHBOURS,
  LS_NEIGHBOURS_WITHOUT_WINDOWS,
  COOL_LONGER_MIN_STOPS,
  COOL_WORK_FACTOR_WITHOUT_WINDOWS,
  CHANGED_ROUTES_ONLY_WITHOUT_WINDOWS,
  FEW_LS_NEIGHBOURS_MIN_STOPS,
  SWAP_STAR_NEAR_ONLY_MIN_STOPS,
  SWAP_STAR_NEAR_ONLY_WITHOUT_WINDOWS,
  LONGER_COOLING_BY_DEFAULT,
  NEIGHBOURS,
  STRING_SWAPS_BY_DEFAULT,
  WIDER_RUIN_BY_DEFAULT,
} from '../../src/solver/params.js';
import { regretInsertion } from '../../src/solver/regret.js';
import { Rng } from '../../src/solver/rng.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { Ruiner } from '../../src/solver/search/ruin.js';
import { Solution } from '../../src/solver/solution.js';
import {
  changedRoutesOnlyWithoutWindows,
  coolWorkFor,
  stallLimitsFor,
  swapStarNearOnlyWithoutWindows,
  windowSettings,
  windowSettingsOf,
} from '../../src/solver/windowless.js';
import { coolWorkOf } from '../../src/solver/search/accept.js';
import { windowsBind } from '../../src/solver/ls/windows-bind.js';
import { stallLimitsOf } from '../../src/solver/stop/index.js';
import { checkPlan } from '../support/checker.js';
import { expectCheckedPlan } from './local-optimum.js';
import { capacitatedProblem, randomProblem } from '../support/problem-builder.js';

/** Mean stops removed by `ruins` ruins of the regret plan with c̄ = `avgRemoved`; each removal checked on the way. */
function meanRemoved(problem: Problem, avgRemoved: number, ruins: number): number {
  const inst = instanceOf(problem);
  const evaluator = new RouteEvaluator(inst);
  const plan = new Solution(inst, new CostEvaluator(inst, 1));
  regretInsertion(plan, new Inserter(inst, evaluator), evaluator, Infinity);
  const ruiner = new Ruiner(inst, nearestNeighbours(inst, NEIGHBOURS), NEIGHBOURS, new Rng(3), avgRemoved);
  let total = 0;
  for (let i = 0; i < ruins; i++) {
    const sol = plan.clone();
    const removed = ruiner.ruin(sol, evaluator);
    expect(new Set(removed).size).toBe(removed.length);
    for (const s of removed) expect(sol.routeOf[s]).toBe(-1);
    total += removed.length;
  }
  return total / ruins;
}

describe('settings where windows do not bind', () => {
  it('are decided in one place for the local search and the ruin', () => {
    const plain = instanceOf(capacitatedProblem(7, { stops: 40, vehicles: 4, capacity: 80 }));
    const windowed = instanceOf(randomProblem(7, { stops: 40, vehicles: 4, uniformSpeed: true }));
    const byDefault = WIDER_RUIN_BY_DEFAULT ? AVG_REMOVED_WITHOUT_WINDOWS : AVG_REMOVED;
    const stringSwaps = STRING_SWAPS_BY_DEFAULT;
    expect(windowSettingsOf(plain)).toEqual({ lsNeighbours: LS_NEIGHBOURS_WITHOUT_WINDOWS, avgRemoved: byDefault, stringSwaps });
    expect(windowSettingsOf(plain, true)).toEqual({
      lsNeighbours: LS_NEIGHBOURS_WITHOUT_WINDOWS,
      avgRemoved: AVG_REMOVED_WITHOUT_WINDOWS,
      stringSwaps,
    });
    expect(windowSettingsOf(plain, false)).toEqual({ lsNeighbours: LS_NEIGHBOURS_WITHOUT_WINDOWS, avgRemoved: AVG_REMOVED, stringSwaps });
    // Windows bind: the wider ruin and the string swaps do not apply.
    expect(windowSettingsOf(windowed, true)).toEqual({ lsNeighbours: LS_NEIGHBOURS, avgRemoved: AVG_REMOVED, stringSwaps: false });
    expect(windowSettings(false, undefined, true).stringSwaps).toBe(true);
    expect(windowSettings(false, undefined, false).stringSwaps).toBe(false);
    expect(windowSettings(true, undefined, true).stringSwaps).toBe(false);
    expect(lsNeighboursOf(plain.nStops, false, false, false)).toBe(windowSettingsOf(plain).lsNeighbours);
  });

  it('cool COOL_WORK_FACTOR_WITHOUT_WINDOWS times as long with the longer cooling, from COOL_LONGER_MIN_STOPS stops on, and only there', () => {
    const large = COOL_LONGER_MIN_STOPS + 20;
    const plain = instanceOf(capacitatedProblem(7, { stops: large, vehicles: 12, capacity: 80 }));
    const small = instanceOf(capacitatedProblem(7, { stops: COOL_LONGER_MIN_STOPS - 10, vehicles: 12, capacity: 80 }));
    const windowed = instanceOf(randomProblem(7, { stops: large, vehicles: 12, uniformSpeed: true }));
    expect(windowsBind(windowed)).toBe(true);
    expect(coolWorkFor(plain, true)).toBe(COOL_WORK_FACTOR_WITHOUT_WINDOWS * coolWorkOf(large));
    expect(coolWorkFor(plain, false)).toBe(coolWorkOf(large));
    expect(coolWorkFor(plain)).toBe(coolWorkFor(plain, LONGER_COOLING_BY_DEFAULT));
    expect(coolWorkFor(small, true)).toBe(coolWorkOf(COOL_LONGER_MIN_STOPS - 10));
    expect(coolWorkFor(windowed, true)).toBe(coolWorkOf(large));
  });

  it('stall COOL_WORK_FACTOR_WITHOUT_WINDOWS times as long where the longer cooling is that long, and only there', () => {
    const large = COOL_LONGER_MIN_STOPS + 20;
    const plain = instanceOf(capacitatedProblem(7, { stops: large, vehicles: 12, capacity: 80 }));
    const small = instanceOf(capacitatedProblem(7, { stops: COOL_LONGER_MIN_STOPS - 10, vehicles: 12, capacity: 80 }));
    const windowed = instanceOf(randomProblem(7, { stops: large, vehicles: 12, uniformSpeed: true }));
    const stall = stallLimitsOf(large);
    expect(stallLimitsFor(plain, true)).toEqual({ ...stall, plateauWork: COOL_WORK_FACTOR_WITHOUT_WINDOWS * stall.plateauWork });
    // The stall keeps its share of the cooling: a longer cooling is longer hot.
    expect(stallLimitsFor(plain, true).plateauWork / coolWorkFor(plain, true)).toBeCloseTo(stall.plateauWork / coolWorkOf(large), 12);
    expect(stallLimitsFor(plain, false)).toEqual(stall);
    expect(stallLimitsFor(plain)).toEqual(stallLimitsFor(plain, LONGER_COOLING_BY_DEFAULT));
    expect(stallLimitsFor(small, true)).toEqual(stallLimitsOf(COOL_LONGER_MIN_STOPS - 10));
    expect(stallLimitsFor(windowed, true)).toEqual(stall);
  });

  it('give a ruin that removes about c̄ stops on average, more for a larger c̄', () => {
    const problem = capacitatedProblem(11, { stops: 150, vehicles: 10, capacity: 80 });
    const small = meanRemoved(problem, 10, 300);
    const large = meanRemoved(problem, 20, 300);
    // SISR draws up to 4c̄/(1 + L) − 1 strings of up to L stops: c̄ on average when routes are long.
    expect(small).toBeGreaterThan(5);
    expect(small).toBeLessThan(15);
    expect(large).toBeGreaterThan(small * 1.4);
    expect(large).toBeLessThan(30);
  });

  it('give a capacity-only solve with the wider ruin whose plan passes the independent checker', async () => {
    const problem = capacitatedProblem(5, { stops: 120, vehicles: 10, capacity: 80 });
    const result = await solve(problem, { timeLimitMs: 20_000, seed: 2, maxIterations: 200, widerRuin: true });
    expect(result.unserved).toEqual([]);
    expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, result))))).toEqual([]);
  });

  it("examine only the changed routes' stops from FEW_LS_NEIGHBOURS_MIN_STOPS stops on (SolveOptions.changedRoutesOnly)", () => {
    expect(changedRoutesOnlyWithoutWindows(FEW_LS_NEIGHBOURS_MIN_STOPS)).toBe(CHANGED_ROUTES_ONLY_WITHOUT_WINDOWS);
    expect(changedRoutesOnlyWithoutWindows(FEW_LS_NEIGHBOURS_MIN_STOPS, true)).toBe(true);
    expect(changedRoutesOnlyWithoutWindows(FEW_LS_NEIGHBOURS_MIN_STOPS, false)).toBe(false);
    expect(changedRoutesOnlyWithoutWindows(FEW_LS_NEIGHBOURS_MIN_STOPS - 1, true)).toBe(false);
  });

  it('have SWAP* trade a stop only into routes near it from SWAP_STAR_NEAR_ONLY_MIN_STOPS stops on (SolveOptions.swapStarNearOnly)', () => {
    expect(swapStarNearOnlyWithoutWindows(SWAP_STAR_NEAR_ONLY_MIN_STOPS)).toBe(SWAP_STAR_NEAR_ONLY_WITHOUT_WINDOWS);
    expect(swapStarNearOnlyWithoutWindows(SWAP_STAR_NEAR_ONLY_MIN_STOPS, true)).toBe(true);
    expect(swapStarNearOnlyWithoutWindows(SWAP_STAR_NEAR_ONLY_MIN_STOPS, false)).toBe(false);
    expect(swapStarNearOnlyWithoutWindows(SWAP_STAR_NEAR_ONLY_MIN_STOPS - 1, true)).toBe(false);
  });

  it("with only the changed routes' stops, a polish after one route changed tries fewer pairs, and its plan passes the checker", () => {
    const problem = capacitatedProblem(13, { stops: FEW_LS_NEIGHBOURS_MIN_STOPS, vehicles: 70, capacity: 100 });
    const inst = instanceOf(problem);
    expect(windowsBind(inst)).toBe(false);
    const evaluator = new RouteEvaluator(inst);
    const start = new Solution(inst, new CostEvaluator(inst, 1));
    regretInsertion(start, new Inserter(inst, evaluator), evaluator, Infinity);
    const pairsAfterChange = (changedRoutesOnly: boolean): { pairs: number; plan: Solution } => {
      const sol = start.clone();
      const ls = LocalSearch.create(inst, evaluator, new Rng(4), { changedRoutesOnly })!;
      ls.run(sol);
      // One route changes (its first stop moved to its end), as after a ruin and recreate.
      const r = Array.from({ length: inst.nVehicles }, (_, v) => v).find((v) => sol.len[v]! > 3)!;
      const seq = Array.from(sol.seq[r]!.subarray(0, sol.len[r]));
      const rotated = Int32Array.from([...seq.slice(1), seq[0]!]);
      sol.assignRoute(r, rotated, rotated.length);
      expect(sol.refreshRoute(r, evaluator)).toBe(true);
      const before = ls.pairsTried;
      ls.run(sol);
      return { pairs: ls.pairsTried - before, plan: sol };
    };
    const only = pairsAfterChange(true);
    const all = pairsAfterChange(false);
    expect(only.pairs).toBeGreaterThan(0);
    expect(only.pairs).toBeLessThan(all.pairs);
    for (const { plan } of [only, all]) {
      expect(plan.unservedStops()).toEqual([]);
      expectCheckedPlan(problem, plan);
    }
  });
});
