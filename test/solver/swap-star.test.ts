/**
 * SWAP* (src/solver/ls/moves/swap-star.ts): every move it finds changes the plan's cost by what
 * the move evaluator predicted (and, on a distance problem without windows, by its own arc
 * estimate), keeps the routes feasible, finds moves the other operators leave at their local
 * optimum, and the plans after it pass the independent checker. Pricing a stop's places on its own
 * row of a symmetric matrix finds the moves pricing them arc by arc finds.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import { instanceOf, type SolverInstance } from '../../src/solver/instance.js';
import { LocalSearch } from '../../src/solver/ls/local-search.js';
import { MoveEvaluator, type RoutePlan } from '../../src/solver/ls/move.js';
import { SwapStar } from '../../src/solver/ls/moves/swap-star.js';
import { windowsBind } from '../../src/solver/ls/windows-bind.js';
import { SwapStarMemo } from '../../src/solver/ls/moves/swap-star-memo.js';
import { granularNeighbours } from '../../src/solver/ls/neighbours.js';
import { Rng } from '../../src/solver/rng.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { Solution } from '../../src/solver/solution.js';
import { checkPlan } from '../support/checker.js';
import { capacitatedProblem, randomProblem } from '../support/problem-builder.js';
import { checkInvariants } from './invariants.js';
import { expectCheckedPlan, expectFeasibleRoutes, polished, totalCost } from './local-optimum.js';

/** Time-windowed random problems, distance and working-time objectives. */
function windowedProblem(seed: number, cost: 'distance' | 'time'): Problem {
  const base = randomProblem(seed, { stops: 60, vehicles: 5, uniformSpeed: true });
  return { ...base, objective: { cost, minimizeRoutes: false, balance: 'none' } };
}

/** The regret plan polished by the local search without SWAP*: a local optimum of the other operators. */
interface Applied {
  predicted: number;
  estimate: number;
  actual: number;
}

/** A planned route's vehicle and pieces (the arrays past `count` hold earlier plans' leftovers). */
function planPieces(plan: RoutePlan): number[] {
  const pieces = [plan.vehicle];
  for (let i = 0; i < plan.count; i++) pieces.push(plan.kind[i]!, plan.src[i]!, plan.from[i]!, plan.to[i]!);
  return pieces;
}

/** SWAP* over every pair of routes until none improves (checked against a SWAP* with no cache); answers each applied move's figures. */
function swapStarToOptimum(sol: Solution, inst: SolverInstance, evaluator: RouteEvaluator): Applied[] {
  const moves = new MoveEvaluator(inst, evaluator);
  // Where windows bind, insertion places are priced by the segment summaries, as LocalSearch does.
  const byWindows = windowsBind(inst);
  // On a symmetric distance the places are priced on the stop's own row (priceOnRow); the fresh one below prices them arc by arc.
  const swapStar = new SwapStar(inst, byWindows, moves.symmetric);
  const applied: Applied[] = [];
  for (let improved = true; improved;) {
    improved = false;
    for (let r1 = 0; r1 < inst.nVehicles; r1++) {
      for (let r2 = r1 + 1; r2 < inst.nVehicles; r2++) {
        moves.prepare(sol, r1);
        moves.prepare(sol, r2);
        const found = swapStar.find(sol, moves, r1, r2);
        // The kept insertion positions (insertion-cache.ts) of routes changed by earlier moves
        // are priced again: a SWAP* with nothing kept, pricing each place arc by arc, finds the same move.
        const fresh = new SwapStar(inst, byWindows);
        const freshMoves = new MoveEvaluator(inst, evaluator);
        freshMoves.prepare(sol, r1);
        freshMoves.prepare(sol, r2);
        expect(fresh.find(sol, freshMoves, r1, r2)).toBe(found);
        if (found === 0) continue;
        expect(fresh.estimate).toBe(swapStar.estimate);
        expect(freshMoves.plans.map(planPieces)).toEqual(moves.plans.map(planPieces));
        const predicted = moves.delta(sol, 2);
        const before = totalCost(sol);
        const served = sol.servedPriority;
        expect(moves.apply(sol, 2, evaluator), 'a move SWAP* found was refused by the exact evaluator').toBe(true);
        expect(sol.servedPriority).toBe(served);
        applied.push({ predicted, estimate: swapStar.estimate, actual: totalCost(sol) - before });
        improved = true;
      }
    }
  }
  return applied;
}

/** The plan of the solution's routes, checked by the independent checker; every stop stays served. */
describe('SWAP* (ls/moves/swap-star.ts)', () => {
  it('on a capacitated distance problem without windows, each move changes the cost by its arc estimate and by the predicted delta', () => {
    let found = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const problem = capacitatedProblem(seed, { stops: 70, vehicles: 10, capacity: 40 });
      const { inst, sol, evaluator } = polished(problem, seed);
      for (const move of swapStarToOptimum(sol, inst, evaluator)) {
        expect(move.predicted).toBeLessThan(0);
        expect(move.actual).toBeCloseTo(move.predicted, 6);
        expect(move.estimate).toBeCloseTo(move.predicted, 6);
        found++;
      }
      expectFeasibleRoutes(sol, inst, evaluator);
      expectCheckedPlan(problem, sol);
    }
    // The plans were at a local optimum of relocate, swap, 2-opt, 2-opt* and or-opt: SWAP* reaches further.
    expect(found, 'SWAP* found nothing beyond the other operators').toBeGreaterThan(0);
  });

  it('with time windows (distance and working time), each move changes the cost by the predicted delta and the plan passes the checker', () => {
    let found = 0;
    for (const seed of [31, 32, 33, 34]) {
      for (const cost of ['distance', 'time'] as const) {
        const problem = windowedProblem(seed, cost);
        const { inst, sol, evaluator } = polished(problem, seed);
        for (const move of swapStarToOptimum(sol, inst, evaluator)) {
          expect(move.predicted).toBeLessThan(0);
          expect(move.actual).toBeCloseTo(move.predicted, 6);
          found++;
        }
        expectFeasibleRoutes(sol, inst, evaluator);
        expectCheckedPlan(problem, sol);
      }
    }
    expect(found, 'SWAP* found nothing beyond the other operators').toBeGreaterThan(0);
  });

  it('with near-only, prices fewer places and each move it finds improves by the predicted delta; the plans pass the checker', () => {
    let found = 0;
    for (const seed of [1, 2, 3]) {
      const problem = capacitatedProblem(seed, { stops: 90, vehicles: 12, capacity: 40 });
      const { inst, sol, evaluator } = polished(problem, seed);
      const near = granularNeighbours(inst, 15);
      const moves = new MoveEvaluator(inst, evaluator);
      const full = new SwapStar(inst);
      const nearOnly = new SwapStar(inst);
      nearOnly.setNearOnly(near, 15, 15);
      for (let r1 = 0; r1 < inst.nVehicles; r1++) {
        for (let r2 = 0; r2 < inst.nVehicles; r2++) {
          if (sol.len[r1]! === 0 || sol.len[r2]! === 0 || r1 === r2) continue;
          moves.prepare(sol, r1);
          moves.prepare(sol, r2);
          full.find(sol, moves, r1, r2);
          if (nearOnly.find(sol, moves, r1, r2) === 0) continue;
          const predicted = moves.delta(sol, 2);
          const before = totalCost(sol);
          expect(predicted).toBeLessThan(0);
          expect(moves.apply(sol, 2, evaluator)).toBe(true);
          expect(totalCost(sol) - before).toBeCloseTo(predicted, 6);
          found++;
        }
      }
      // Stops without a near neighbour in the other route are not priced into it.
      expect(nearOnly.priced).toBeLessThan(full.priced);
      expectFeasibleRoutes(sol, inst, evaluator);
      expectCheckedPlan(problem, sol);
    }
    expect(found, 'near-only SWAP* found nothing beyond the other operators').toBeGreaterThan(0);
  });

  it('is on by default only where no window leaves out part of the working day', () => {
    const plain = instanceOf(capacitatedProblem(7, { stops: 30, vehicles: 4, capacity: 40 }));
    const windowed = instanceOf(windowedProblem(7, 'distance'));
    expect(windowsBind(plain)).toBe(false);
    expect(windowsBind(windowed)).toBe(true);
    const evaluatorOf = (inst: SolverInstance) => new RouteEvaluator(inst);
    expect(LocalSearch.create(plain, evaluatorOf(plain), new Rng(0))!.swapStar).not.toBeNull();
    expect(LocalSearch.create(windowed, evaluatorOf(windowed), new Rng(0))!.swapStar).toBeNull();
    expect(LocalSearch.create(windowed, evaluatorOf(windowed), new Rng(0), { swapStar: true })!.swapStar).not.toBeNull();
    expect(LocalSearch.create(plain, evaluatorOf(plain), new Rng(0), { swapStar: false })!.swapStar).toBeNull();
  });

  it('solves with SWAP* on and off both pass the checker, and SWAP* on keeps the same seed, same plan', async () => {
    const problem = capacitatedProblem(9, { stops: 90, vehicles: 12, capacity: 40 });
    const options = { timeLimitMs: 60_000, seed: 3, maxIterations: 120 };
    const on = await solve(problem, options);
    const again = await solve(problem, options);
    const off = await solve(problem, { ...options, swapStar: false });
    for (const result of [on, off]) {
      expect(checkInvariants(problem, result)).toEqual([]);
      expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, result))))).toEqual([]);
    }
    const sequences = (r: typeof on) =>
      r.routes.map((route) => [route.vehicle, ...route.visits.map((x) => (x.kind === 'stop' ? x.stop : -1))]);
    expect(sequences(again)).toEqual(sequences(on));
  });
});

describe("SWAP*'s memo of route pairs tried in vain (ls/moves/swap-star-memo.ts)", () => {
  it('answers true only for a pair whose two routes are as they were when recorded, in either copy of the plan', () => {
    const problem = capacitatedProblem(11, { stops: 40, vehicles: 6, capacity: 40 });
    const { inst, sol, evaluator } = polished(problem, 11);
    const used = Array.from({ length: inst.nVehicles }, (_, v) => v).filter((v) => sol.len[v]! > 1);
    expect(used.length).toBeGreaterThanOrEqual(3);
    const [r1, r2, r3] = used as [number, number, number];
    const memo = new SwapStarMemo(inst.nVehicles, 10);
    expect(memo.triedInVain(sol, r1, r2)).toBe(false);
    memo.recordInVain(sol, r1, r2);
    expect(memo.triedInVain(sol, r1, r2)).toBe(true);
    // The pair is ordered (SWAP* tries r1's stops into r2 first), and other pairs are not known.
    expect(memo.triedInVain(sol, r2, r1)).toBe(false);
    expect(memo.triedInVain(sol, r1, r3)).toBe(false);
    // A copy with its own stamps (a candidate rolled back) is recognised by its contents.
    const copy = sol.clone();
    copy.copyRoutesFrom(sol, [r1, r2]);
    expect(copy.stamp[r1]).not.toBe(sol.stamp[r1]);
    expect(memo.triedInVain(copy, r1, r2)).toBe(true);
    // Changing one of the routes (its first stop moved to its end) makes the pair unknown.
    const seq = Array.from(copy.seq[r1]!.subarray(0, copy.len[r1]));
    const rotated = Int32Array.from([...seq.slice(1), seq[0]!]);
    copy.assignRoute(r1, rotated, rotated.length);
    expect(copy.refreshRoute(r1, evaluator)).toBe(true);
    expect(memo.triedInVain(copy, r1, r2)).toBe(false);
    expect(memo.triedInVain(sol, r1, r2)).toBe(true);
  });
});
