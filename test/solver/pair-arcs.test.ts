/**
 * The distance filter relocate, or-opt, swap and 2-opt* share (ls/moves/pair-arcs.ts): for every
 * string of 1–3 stops from u and every place next to x, its mask says "shortens" exactly when the
 * arcs the move removes outweigh the arcs it adds, counted one by one on the routes as they are,
 * and so do the verdicts of swap and of both ways of 2-opt*; after moves change the routes, it
 * answers for the routes as they are then, never from the pair's old routes, nor from what it
 * keeps of u (its places and arcs) once u's route changed. And the operators
 * sharing one filter find the same moves as each with its own; a pair the filters refuse for every
 * operator at once (refusesAll: LocalSearch.tryPair skips it) is one each operator refuses without pricing a move,
 * and so is a pair whose verdict for one operator is off (verdicts: tryPair skips that operator).
 */
import { describe, expect, it } from 'vitest';
import { operatorsOf } from '../../src/solver/ls/local-search.js';
import type { MoveEvaluator } from '../../src/solver/ls/move.js';
import { placeBit, PairArcs, twoOptShortens } from '../../src/solver/ls/moves/pair-arcs.js';
import type { Operator } from '../../src/solver/ls/moves/operator.js';
import { RelocateString } from '../../src/solver/ls/moves/relocate.js';
import { Swap } from '../../src/solver/ls/moves/swap.js';
import { TwoOptStar } from '../../src/solver/ls/moves/two-opt.js';
import { Rng } from '../../src/solver/rng.js';
import type { Solution } from '../../src/solver/solution.js';
import { oneDepotDistanceProblem, regretPlanWithMoves } from './helpers.js';
import { expectCheckedPlan } from './local-optimum.js';

/** Round trips (or open routes) of 60 stops on 5 vehicles from one depot, distance as the cost. */
const SIZE = { stops: 60, vehicles: 5 };

/** Location of position p of route r, -1 past the end of an open route; p = -1 is the start. */
function locOf(sol: Solution, r: number, p: number): number {
  const inst = sol.inst;
  if (p < 0) return inst.vStartLoc[r]!;
  if (p >= sol.len[r]!) return inst.vEndLoc[r]!;
  return inst.stopLoc[sol.seq[r]![p]!]!;
}

/** The filter counted arc by arc, place by place: the mask relocate's own loop worked out before the masks were shared. */
function expectedMask(sol: Solution, moves: MoveEvaluator, u: number, x: number, L: number): number {
  const arc = (a: number, b: number): number => (b < 0 ? 0 : sol.inst.dist[a * sol.inst.nLoc + b]!);
  const ru = sol.routeOf[u]!;
  const rx = sol.routeOf[x]!;
  const pu = sol.posOf[u]!;
  const px = sol.posOf[x]!;
  if (pu + L > sol.len[ru]! || (ru === rx && px >= pu && px < pu + L)) return 0;
  const first = locOf(sol, ru, pu);
  const last = locOf(sol, ru, pu + L - 1);
  const saved =
    arc(locOf(sol, ru, pu - 1), first) + arc(last, locOf(sol, ru, pu + L)) - arc(locOf(sol, ru, pu - 1), locOf(sol, ru, pu + L));
  let mask = 0;
  for (let reversed = 0; reversed < (L === 1 || !moves.symmetric ? 1 : 2); reversed++) {
    const [head, tail] = reversed === 1 ? [last, first] : [first, last];
    for (const side of [1, 0]) {
      const tb = side === 1 ? locOf(sol, rx, px) : locOf(sol, rx, px - 1);
      const ta = side === 1 ? locOf(sol, rx, px + 1) : locOf(sol, rx, px);
      if (arc(tb, head) + arc(tail, ta) - arc(tb, ta) - saved < 0) mask |= placeBit(reversed, side);
    }
  }
  return mask;
}

/** Swap's and 2-opt*'s arc tests, arc by arc: [swap, u then x, x then u]. */
function expectedTrades(sol: Solution, u: number, x: number): boolean[] {
  const arc = (a: number, b: number): number => (b < 0 ? 0 : sol.inst.dist[a * sol.inst.nLoc + b]!);
  const ru = sol.routeOf[u]!;
  const rx = sol.routeOf[x]!;
  const pu = sol.posOf[u]!;
  const px = sol.posOf[x]!;
  const [bu, lu, au] = [locOf(sol, ru, pu - 1), locOf(sol, ru, pu), locOf(sol, ru, pu + 1)];
  const [bx, lx, ax] = [locOf(sol, rx, px - 1), locOf(sol, rx, px), locOf(sol, rx, px + 1)];
  const swap = arc(bu, lx) + arc(lx, au) + arc(bx, lu) + arc(lu, ax) - (arc(bu, lu) + arc(lu, au) + arc(bx, lx) + arc(lx, ax));
  const uThenX = arc(lu, lx) + arc(bx, au) - arc(lu, au) - arc(bx, lx);
  const xThenU = arc(lx, lu) + arc(bu, ax) - arc(lx, ax) - arc(bu, lu);
  return [swap < 0, uThenX < 0, xThenU < 0];
}

describe('the distance filter shared by relocate and or-opt', () => {
  for (const openRoutes of [false, true]) {
    it(`answers, for each string and place, what the arcs answer one by one, also after moves change the routes${openRoutes ? ' (open routes)' : ''}`, () => {
      let passing = 0;
      let applied = 0;
      for (const seed of [11, 12, 13]) {
        const { sol, moves, evaluator } = regretPlanWithMoves(oneDepotDistanceProblem(seed, SIZE, openRoutes));
        expect(moves.distanceFilter).toBe(true);
        const arcs = new PairArcs();
        const relocate = new RelocateString(1, arcs);
        const rng = new Rng(seed);
        for (let trial = 0; trial < 4000; trial++) {
          const u = rng.int(sol.inst.nStops);
          const x = rng.int(sol.inst.nStops);
          if (u === x || sol.routeOf[u]! < 0 || sol.routeOf[x]! < 0) continue;
          moves.prepare(sol, sol.routeOf[u]!);
          moves.prepare(sol, sol.routeOf[x]!);
          // Lengths in a random order: whichever asks first, the others read the same masks.
          for (const L of rng.next() < 0.5 ? [1, 2, 3] : [3, 1, 2]) {
            const mask = arcs.passing(sol, moves, u, x, L);
            expect(mask, `seed ${seed} u ${u} x ${x} length ${L}`).toBe(expectedMask(sol, moves, u, x, L));
            if (mask !== 0) passing++;
          }
          const trades = [
            arcs.swapShortens(sol, moves, u, x),
            arcs.crossShortens(sol, moves, u, x, true),
            arcs.crossShortens(sol, moves, u, x, false),
          ];
          expect(trades, `seed ${seed} u ${u} x ${x} swap, 2-opt*`).toEqual(expectedTrades(sol, u, x));
          if (trades.some((t) => t)) passing++;
          // Change the pair's routes now and then, so that the next look at a pair must see its new routes.
          const count = relocate.find(sol, moves, u, x);
          if (count === 0 || !moves.apply(sol, count, evaluator)) continue;
          applied++;
          // The same pair in its changed routes (u moved next to x).
          moves.prepare(sol, sol.routeOf[u]!);
          moves.prepare(sol, sol.routeOf[x]!);
          for (const L of [2, 1, 3]) expect(arcs.passing(sol, moves, u, x, L)).toBe(expectedMask(sol, moves, u, x, L));
          expect(arcs.swapShortens(sol, moves, u, x)).toBe(expectedTrades(sol, u, x)[0]);
        }
      }
      expect(passing).toBeGreaterThan(100);
      expect(applied).toBeGreaterThan(10);
    });
  }

  it('answers for the routes as they are when u is tried with each of its neighbours in turn, what is kept of u and all', () => {
    // The local search's order: one u with its nearest stops, then the next u; what depends on u
    // alone is kept between pairs while u's route keeps its stamp.
    let applied = 0;
    for (const seed of [31, 32]) {
      const { sol, moves, evaluator } = regretPlanWithMoves(oneDepotDistanceProblem(seed, SIZE));
      const arcs = new PairArcs();
      const operators: Operator[] = [new RelocateString(1, arcs), new Swap(arcs), new TwoOptStar(arcs), new RelocateString(2, arcs)];
      const n = sol.inst.nStops;
      const nearest = (u: number): number[] =>
        Array.from({ length: n }, (_, x) => x)
          .filter((x) => x !== u)
          .sort(
            (a, b) =>
              sol.inst.dist[sol.inst.stopLoc[u]! * sol.inst.nLoc + sol.inst.stopLoc[a]!]! -
              sol.inst.dist[sol.inst.stopLoc[u]! * sol.inst.nLoc + sol.inst.stopLoc[b]!]!,
          )
          .slice(0, 10);
      for (let round = 0; round < 3; round++) {
        for (let u = 0; u < n; u++) {
          for (const x of nearest(u)) {
            if (sol.routeOf[u]! < 0 || sol.routeOf[x]! < 0) continue;
            moves.prepare(sol, sol.routeOf[u]!);
            moves.prepare(sol, sol.routeOf[x]!);
            for (const L of [1, 2, 3])
              expect(arcs.passing(sol, moves, u, x, L), `seed ${seed} u ${u} x ${x} length ${L}`).toBe(expectedMask(sol, moves, u, x, L));
            const trades = [
              arcs.swapShortens(sol, moves, u, x),
              arcs.crossShortens(sol, moves, u, x, true),
              arcs.crossShortens(sol, moves, u, x, false),
            ];
            expect(trades, `seed ${seed} u ${u} x ${x} swap, 2-opt*`).toEqual(expectedTrades(sol, u, x));
            // Apply what the operators find, as the local search does, so that the next pairs meet changed routes.
            for (const op of operators) {
              const count = op.find(sol, moves, u, x);
              if (count > 0 && moves.apply(sol, count, evaluator)) {
                applied++;
                break;
              }
            }
          }
        }
      }
    }
    expect(applied).toBeGreaterThan(10);
  });

  for (const openRoutes of [false, true]) {
    it(`a pair refused for every operator at once is one each operator refuses without pricing a move${openRoutes ? ' (open routes)' : ''}`, () => {
      let refused = 0;
      let tried = 0;
      for (const seed of [41, 42]) {
        const { sol, moves, evaluator } = regretPlanWithMoves(oneDepotDistanceProblem(seed, SIZE, openRoutes));
        // The local search's operators, in its order, and the filter they share.
        const { list: operators, filter } = operatorsOf(false, false);
        const arcs = filter!;
        const rng = new Rng(seed);
        for (let trial = 0; trial < 3000; trial++) {
          const pair = randomServedPair(sol, rng);
          if (pair === null) continue;
          const [u, x] = pair;
          tried++;
          const ru = sol.routeOf[u]!;
          const rx = sol.routeOf[x]!;
          if (!arcs.refusesAll(sol, moves, u, x)) continue;
          refused++;
          moves.prepare(sol, ru);
          moves.prepare(sol, rx);
          const priced = moves.priced;
          for (const op of operators) expect(op.find(sol, moves, u, x), `${op.name} seed ${seed} u ${u} x ${x}`).toBe(0);
          expect(moves.priced).toBe(priced);
          // Now and then change the routes, so that later pairs meet routes moves have changed.
          for (const op of [operators[0]!, operators[3]!]) {
            const v = rng.int(sol.inst.nStops);
            const y = sameRouteStop(sol, v, rng);
            if (y < 0 || sol.routeOf[v]! < 0) continue;
            moves.prepare(sol, sol.routeOf[v]!);
            const count = op.find(sol, moves, v, y);
            if (count > 0) moves.apply(sol, count, evaluator);
          }
        }
      }
      expect(refused).toBeGreaterThan(tried / 4);
      expect(refused).toBeLessThan(tried);
    });
  }

  for (const openRoutes of [false, true]) {
    it(`an operator whose filter verdict is off refuses the pair without pricing a move${openRoutes ? ' (open routes)' : ''}`, () => {
      let skipped = 0;
      let applied = 0;
      for (const seed of [51, 52]) {
        const problem = oneDepotDistanceProblem(seed, SIZE, openRoutes);
        const { sol, moves, evaluator } = regretPlanWithMoves(problem);
        // The local search's operators, in its order, and the filter whose verdicts it reads (LocalSearch.tryPair).
        const { list: operators, filter } = operatorsOf(false, false);
        const arcs = filter!;
        const rng = new Rng(seed);
        for (let trial = 0; trial < 3000; trial++) {
          const pair = randomServedPair(sol, rng);
          if (pair === null) continue;
          const [u, x] = pair;
          moves.prepare(sol, sol.routeOf[u]!);
          moves.prepare(sol, sol.routeOf[x]!);
          const passed = arcs.verdicts(sol, moves, u, x);
          for (const op of operators) {
            if ((passed & op.filterVerdict) !== 0) continue;
            skipped++;
            const priced = moves.priced;
            expect(op.find(sol, moves, u, x), `${op.name} seed ${seed} u ${u} x ${x}`).toBe(0);
            expect(moves.priced).toBe(priced);
          }
          // Apply what the operators the verdicts let through find, as the local search does.
          for (const op of operators) {
            if ((passed & op.filterVerdict) === 0) continue;
            const count = op.find(sol, moves, u, x);
            if (count > 0 && moves.apply(sol, count, evaluator)) {
              applied++;
              break;
            }
          }
        }
        expectCheckedPlan(problem, sol);
      }
      expect(skipped).toBeGreaterThan(1000);
      expect(applied).toBeGreaterThan(10);
    });
  }

  it('the operators sharing relocate’s filter find the moves each finds with a filter of its own', () => {
    for (const seed of [21, 22]) {
      const { sol, moves } = regretPlanWithMoves(oneDepotDistanceProblem(seed, SIZE));
      const arcs = new PairArcs();
      // In the local search's order (operatorsOf): relocate first, or-opt last.
      const shared: Operator[] = [
        new RelocateString(1, arcs),
        new Swap(arcs),
        new TwoOptStar(arcs),
        new RelocateString(2, arcs),
        new RelocateString(3, arcs),
      ];
      const alone: Operator[] = [new RelocateString(1), new Swap(), new TwoOptStar(), new RelocateString(2), new RelocateString(3)];
      const rng = new Rng(seed);
      const found = new Array<number>(shared.length).fill(0);
      for (let trial = 0; trial < 3000; trial++) {
        const u = rng.int(sol.inst.nStops);
        const x = rng.int(sol.inst.nStops);
        if (u === x || sol.routeOf[u]! < 0 || sol.routeOf[x]! < 0) continue;
        moves.prepare(sol, sol.routeOf[u]!);
        moves.prepare(sol, sol.routeOf[x]!);
        for (let i = 0; i < shared.length; i++) {
          const a = shared[i]!.find(sol, moves, u, x);
          const planA = a > 0 ? JSON.stringify(moves.plans.slice(0, a)) : '';
          const b = alone[i]!.find(sol, moves, u, x);
          const planB = b > 0 ? JSON.stringify(moves.plans.slice(0, b)) : '';
          expect(b, `${shared[i]!.name} u ${u} x ${x}`).toBe(a);
          expect(planB).toBe(planA);
          if (a > 0) found[i]!++;
        }
      }
      // Random pairs of a regret plan: relocate and or-opt find moves, 2-opt* seldom (the verdicts are checked arc by arc above).
      expect(found[0]! + found[3]! + found[4]!).toBeGreaterThan(0);
    }
  });
});

describe('2-opt’s distance filter', () => {
  for (const openRoutes of [false, true]) {
    it(`a reversal shortens the route exactly when its two new arcs are shorter than the two it removes, counted arc by arc, from the start to the end${openRoutes ? ' (open routes)' : ''}`, () => {
      let shortens = 0;
      let checked = 0;
      for (const seed of [51, 52]) {
        const { sol, moves } = regretPlanWithMoves(oneDepotDistanceProblem(seed, SIZE, openRoutes));
        const arc = (a: number, b: number): number => (b < 0 ? 0 : sol.inst.dist[a * sol.inst.nLoc + b]!);
        for (let r = 0; r < sol.inst.nVehicles; r++) {
          const n = sol.len[r]!;
          // Every reversal of seq[i+1..j): i from the start (-1), j up to the end (n).
          for (let i = -1; i < n; i++) {
            for (let j = i + 2; j <= n; j++) {
              const change = arc(locOf(sol, r, i), locOf(sol, r, j - 1)) + arc(locOf(sol, r, i + 1), locOf(sol, r, j));
              const removed = arc(locOf(sol, r, i), locOf(sol, r, i + 1)) + arc(locOf(sol, r, j - 1), locOf(sol, r, j));
              expect(twoOptShortens(sol, moves, r, i, j), `seed ${seed} route ${r} (${i}, ${j})`).toBe(change - removed < 0);
              if (change < removed) shortens++;
              checked++;
            }
          }
        }
      }
      expect(shortens).toBeGreaterThan(0);
      expect(shortens).toBeLessThan(checked);
    });
  }
});

/** Another stop of u's route, at random; -1 when u is unserved or alone in its route. */
/**
 * Two served stops drawn at random, half the time in one route (where 2-opt's own filter and swap's
 * next-door rule count too); null when the draw gives no such pair.
 */
function randomServedPair(sol: Solution, rng: Rng): [number, number] | null {
  const u = rng.int(sol.inst.nStops);
  const x = rng.next() < 0.5 ? rng.int(sol.inst.nStops) : sameRouteStop(sol, u, rng);
  return x < 0 || u === x || sol.routeOf[u]! < 0 || sol.routeOf[x]! < 0 ? null : [u, x];
}

function sameRouteStop(sol: Solution, u: number, rng: Rng): number {
  const r = sol.routeOf[u]!;
  if (r < 0 || sol.len[r]! < 2) return -1;
  const p = rng.int(sol.len[r]!);
  const x = sol.seq[r]![p]!;
  return x === u ? -1 : x;
}
