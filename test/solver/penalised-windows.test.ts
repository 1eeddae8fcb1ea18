/**
 * Penalised windows in the polish (search/penalised-polish.ts, SolveOptions.penalisedWindows):
 * where windows bind, the local search may let a route break windows at a penalty a unit of time
 * warp (the segment summaries price it; the evaluator that applies the moves has the windows
 * lifted), and only a plan back within every window reaches the search, its changed routes
 * evaluated again by the problem's own evaluator: a plan still late after the repair is put back
 * as it came. Every plan passes the independent checker, and the same seed gives the same plan.
 */
import { describe, expect, it } from 'vitest';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { solve } from '../../src/solver/index.js';
import { instanceOf, type SolverInstance } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { routesOf } from '../../src/solver/kit.js';
import { MoveEvaluator } from '../../src/solver/ls/move.js';
import { PENALISED_WINDOWS_BY_DEFAULT, TW_EPS } from '../../src/solver/params.js';
import { regretInsertion } from '../../src/solver/regret.js';
import { Rng } from '../../src/solver/rng.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { initialWarpPenaltyOf, PenalisedPolish, penalisesWindows, withWindowsLifted } from '../../src/solver/search/penalised-polish.js';
import { Solution } from '../../src/solver/solution.js';
import { checkPlan } from '../support/checker.js';
import { capacitatedProblem } from '../support/problem-builder.js';
import { stopVisits, tightWindowsSolomonText } from './helpers.js';
import { expectCheckedPlan, expectFeasibleRoutes } from './local-optimum.js';

function windowedProblem(stops: number, seed: number): Problem {
  return loadBenchmarkText(tightWindowsSolomonText(stops, seed), 'solomon', 'generated');
}

function regretPlan(inst: SolverInstance, evaluator: RouteEvaluator): Solution {
  const sol = new Solution(inst, new CostEvaluator(inst, 1));
  regretInsertion(sol, new Inserter(inst, evaluator), evaluator, Infinity);
  return sol;
}

/**
 * Vidal's time warp of vehicle v serving `stops` in order, walked stop by stop apart from the
 * summaries: leaving at its earliest departure, a service that would start after its latest start
 * starts then instead (the clock goes back by the difference, which counts), and so does an
 * arrival at the end after the shift's end.
 */
function timeWarpOf(inst: SolverInstance, v: number, stops: number[]): number {
  const dur = inst.vDur[v]!;
  const N = inst.nLoc;
  let at = inst.vStartLoc[v]!;
  let t = inst.vDepart0[v]!;
  let warp = 0;
  for (const s of stops) {
    const loc = inst.stopLoc[s]!;
    const w = inst.winOffset[s]!;
    let start = Math.max(t + dur[at * N + loc]!, inst.winStart[w]!);
    const latest = inst.winEnd[w]! - inst.stopDur[s]!;
    if (start > latest) {
      warp += start - latest;
      start = latest;
    }
    t = start + inst.stopDur[s]!;
    at = loc;
  }
  const end = inst.vEndLoc[v]!;
  const arrival = end < 0 ? t : t + dur[at * N + end]!;
  return warp + Math.max(0, arrival - inst.vShiftEnd[v]!);
}

function distanceOf(inst: SolverInstance, v: number, stops: number[]): number {
  const places = [inst.vStartLoc[v]!, ...stops.map((s) => inst.stopLoc[s]!), inst.vEndLoc[v]!].filter((loc) => loc >= 0);
  let total = 0;
  for (let i = 1; i < places.length; i++) total += inst.dist[places[i - 1]! * inst.nLoc + places[i]!]!;
  return total;
}

describe('penalised windows in the polish', () => {
  it('applies where windows bind and the cost is the distance, as SolveOptions.penalisedWindows says', () => {
    const windowed = instanceOf(windowedProblem(60, 3));
    const windowless = instanceOf(capacitatedProblem(3, { stops: 120, vehicles: 12, capacity: 80 }));
    expect(penalisesWindows(windowed)).toBe(PENALISED_WINDOWS_BY_DEFAULT);
    expect(penalisesWindows(windowed, true)).toBe(true);
    expect(penalisesWindows(windowed, false)).toBe(false);
    expect(penalisesWindows(windowless, true)).toBe(false);
  });

  it("prices a route's time warp at the penalty instead of refusing it, and its distance as before", () => {
    const inst = instanceOf(windowedProblem(60, 5));
    const evaluator = new RouteEvaluator(inst);
    const sol = regretPlan(inst, evaluator);
    const plain = new MoveEvaluator(inst, evaluator);
    const low = new MoveEvaluator(inst, evaluator);
    const high = new MoveEvaluator(inst, evaluator);
    low.segments.penaliseWarp(2);
    high.segments.penaliseWarp(7);
    let late = 0;
    for (let v = 0; v < inst.nVehicles; v++) {
      const n = sol.len[v]!;
      if (n < 3) continue;
      // The route served backwards: most such routes break a window.
      const reversed = Array.from(sol.seq[v]!.subarray(0, n)).reverse();
      const warp = timeWarpOf(inst, v, reversed);
      const value = (moves: MoveEvaluator): number => {
        moves.prepare(sol, v);
        moves.plans[0].reset(v).reversed(v, 0, n);
        return moves.planValue(sol, moves.plans[0]);
      };
      if (warp <= TW_EPS) continue;
      late++;
      expect(value(plain)).toBe(Infinity);
      expect(value(low)).toBeCloseTo(distanceOf(inst, v, reversed) + 2 * warp, 6);
      expect(value(high)).toBeCloseTo(distanceOf(inst, v, reversed) + 7 * warp, 6);
    }
    expect(late).toBeGreaterThan(2);
  });

  it("lets the distance filters through a move within its routes' time warp's penalty, and nothing more where no route is late", () => {
    const inst = instanceOf(windowedProblem(60, 5));
    const evaluator = new RouteEvaluator(inst);
    const sol = regretPlan(inst, evaluator);
    const moves = new MoveEvaluator(inst, evaluator);
    moves.segments.penaliseWarp(3);
    const [ru, rx] = Array.from({ length: inst.nVehicles }, (_, v) => v).filter((v) => sol.len[v]! >= 3);
    expect(moves.warpRoom(sol, ru!, rx!)).toBe(0);
    // ru served backwards: late by its time warp.
    const backwards = Array.from(sol.seq[ru!]!.subarray(0, sol.len[ru!])).reverse();
    sol.assignRoute(ru!, Int32Array.from(backwards), backwards.length);
    expect(sol.refreshRoute(ru!, new RouteEvaluator(withWindowsLifted(inst)))).toBe(true);
    const warp = timeWarpOf(inst, ru!, backwards);
    expect(warp).toBeGreaterThan(0);
    expect(moves.warpRoom(sol, ru!, ru!)).toBeCloseTo(3 * warp, 6);
    expect(moves.warpRoom(sol, ru!, rx!)).toBeCloseTo(3 * warp, 6);
    expect(new MoveEvaluator(inst, evaluator).warpRoom(sol, ru!, rx!)).toBe(0);
  });

  it('starts at what a unit of travel time costs in distance', () => {
    // Solomon's distances are its travel times.
    expect(initialWarpPenaltyOf(instanceOf(windowedProblem(60, 3)))).toBeGreaterThan(0);
    const inst = instanceOf(windowedProblem(60, 3));
    const doubled = { ...inst, dist: inst.dist.map((d) => 2 * d) };
    expect(initialWarpPenaltyOf(doubled)).toBeCloseTo(2 * initialWarpPenaltyOf(inst), 9);
  });

  it('polishes a plan into one within every window that passes the checker, its routes priced as the problem has them, or puts it back as it came', () => {
    let within = 0;
    for (const seed of [1, 2, 3, 4]) {
      const problem = windowedProblem(80, seed);
      const inst = instanceOf(problem);
      const evaluator = new RouteEvaluator(inst);
      const sol = regretPlan(inst, evaluator);
      const before = routesOf(sol);
      const unserved = sol.unservedStops();
      const polish = PenalisedPolish.when({ windows: true }, inst, evaluator, new Rng(seed), {})!;
      expect(polish.rule).toBe('windows');
      const kept = polish.run(sol, Infinity, null);
      if (kept) within++;
      else expect(routesOf(sol)).toEqual(before);
      expect(sol.unservedStops()).toEqual(unserved);
      expectFeasibleRoutes(sol, inst, evaluator);
      // Every route's figures are the problem's own evaluator's, as the search reads them.
      const fresh = sol.clone();
      for (let v = 0; v < inst.nVehicles; v++) expect(fresh.refreshRoute(v, evaluator)).toBe(true);
      expect(Array.from(sol.rCost)).toEqual(Array.from(fresh.rCost));
      expect(Array.from(sol.rWork)).toEqual(Array.from(fresh.rWork));
      expectCheckedPlan(problem, sol);
    }
    expect(within).toBeGreaterThan(0);
  });

  it('gives a windowed solve whose plan passes the independent checker, the same plan for the same seed', async () => {
    const problem = windowedProblem(100, 9);
    const options = { timeLimitMs: 20_000, seed: 2, maxIterations: 150, penalisedWindows: true };
    const first = await solve(problem, options);
    const again = await solve(problem, options);
    expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, first))))).toEqual([]);
    const sequences = (result: typeof first): number[][] => result.routes.map((route) => stopVisits(route).map((visit) => visit.stop));
    expect(sequences(again)).toEqual(sequences(first));
  });
});
