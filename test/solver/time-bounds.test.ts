/**
 * The local search's time bounds (ls/time-bounds.ts) refuse only routes that break a window: every
 * route they refuse is refused by the exact evaluator too, on random problems with tight windows,
 * different shift starts and ends, flexible starts and open routes; and they do refuse some. A move
 * within one route they refuse before pricing (MoveEvaluator.mustBeLate) is one the summaries price
 * Infinity, so that the local search finds the same moves.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { instanceOf } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { MoveEvaluator } from '../../src/solver/ls/move.js';
import { regretInsertion } from '../../src/solver/regret.js';
import { Rng } from '../../src/solver/rng.js';
import { sequenceLoad } from '../../src/solver/route/capacity.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { Solution } from '../../src/solver/solution.js';
import { randomProblem } from '../support/problem-builder.js';

interface Setup {
  problem: Problem;
  sol: Solution;
  evaluator: RouteEvaluator;
  moves: MoveEvaluator;
}

function setUp(problem: Problem): Setup {
  const inst = instanceOf(problem);
  const evaluator = new RouteEvaluator(inst);
  const sol = new Solution(inst, new CostEvaluator(inst));
  regretInsertion(sol, new Inserter(inst, evaluator), evaluator, Infinity);
  const moves = new MoveEvaluator(inst, evaluator, true);
  for (let v = 0; v < inst.nVehicles; v++) moves.prepare(sol, v);
  return { problem, sol, evaluator, moves };
}

/** Whether vehicle v may serve `stops` in this order, by the exact evaluator (windows, shift, capacity). */
function exactlyFeasible({ problem, evaluator }: Setup, v: number, stops: number[]): boolean {
  if (stops.length === 0) return true;
  const inst = instanceOf(problem);
  if (stops.some((s) => inst.compatible[v * inst.nStops + s] !== 1)) return false;
  const seq = Int32Array.from(stops);
  return evaluator.evaluate(v, seq, seq.length, sequenceLoad(inst, seq)) !== null;
}

function stopsOf(sol: Solution, v: number): number[] {
  return Array.from(sol.seq[v]!.subarray(0, sol.len[v]));
}

/** Random problems the summaries describe, their windows at most an hour or two wide. */
function problems(sameEnds: boolean): Problem[] {
  return [41, 42, 43, 44, 45].map((seed) => {
    const base = randomProblem(seed, { stops: 60, vehicles: 6, uniformSpeed: true });
    const vehicles = sameEnds
      ? base.vehicles.map((v) => ({ ...v, endLocation: v.startLocation, shiftEnd: base.vehicles[0]!.shiftEnd }))
      : base.vehicles;
    return { ...base, vehicles };
  });
}

describe('time bounds of the local search', () => {
  it('a string of 1–3 stops inserted into another route is refused only when the exact evaluator refuses the route', () => {
    let refused = 0;
    let passed = 0;
    for (const problem of problems(false)) {
      const setup = setUp(problem);
      const { sol, moves } = setup;
      const times = moves.times!;
      expect(times).not.toBeNull();
      const rng = new Rng(7);
      const m = sol.inst.nVehicles;
      for (let trial = 0; trial < 3000; trial++) {
        const a = rng.int(m);
        const b = rng.int(m);
        const length = 1 + rng.int(3);
        if (a === b || sol.len[a]! < length) continue;
        const from = rng.int(sol.len[a]! - length + 1);
        const q = rng.int(sol.len[b]! + 1);
        const reversed = rng.next() < 0.5;
        const string = stopsOf(sol, a).slice(from, from + length);
        if (reversed) string.reverse();
        const route = [...stopsOf(sol, b).slice(0, q), ...string, ...stopsOf(sol, b).slice(q)];
        if (times.mayInsert(sol, b, q, a, from, from + length, reversed)) {
          passed++;
          continue;
        }
        refused++;
        expect(exactlyFeasible(setup, b, route), `vehicle ${b} stops ${route.join(',')}`).toBe(false);
      }
    }
    expect(refused).toBeGreaterThan(100);
    expect(passed).toBeGreaterThan(100);
  });

  it('a stop put in another stop’s place, and exchanged tails where every vehicle ends alike, are refused only when the exact evaluator refuses them', () => {
    let refused = 0;
    for (const sameEnds of [false, true]) {
      for (const problem of problems(sameEnds)) {
        const setup = setUp(problem);
        const { sol, moves } = setup;
        const times = moves.times!;
        expect(times.sameEnds).toBe(sameEnds || instanceOf(problem).nVehicles === 1);
        const rng = new Rng(8);
        const m = sol.inst.nVehicles;
        const n = sol.inst.nStops;
        for (let trial = 0; trial < 3000; trial++) {
          const head = rng.int(m);
          const tail = sameEnds ? rng.int(m) : head;
          const hp = rng.int(sol.len[head]! + 1);
          const tp = tail === head ? Math.min(sol.len[head]!, hp + rng.int(2)) : rng.int(sol.len[tail]! + 1);
          const s = rng.next() < 0.5 ? -1 : rng.int(n);
          if (s >= 0 && sol.routeOf[s]! < 0) continue;
          const route = [...stopsOf(sol, head).slice(0, hp), ...(s >= 0 ? [s] : []), ...stopsOf(sol, tail).slice(tp)];
          if (new Set(route).size !== route.length || times.mayJoin(sol, head, hp, s, tail, tp)) continue;
          refused++;
          expect(exactlyFeasible(setup, head, route), `vehicle ${head} stops ${route.join(',')}`).toBe(false);
        }
      }
    }
    expect(refused).toBeGreaterThan(100);
  });

  it('a move within one route is refused before pricing only where the summaries price it as breaking a rule', () => {
    let refused = 0;
    let passed = 0;
    for (const problem of problems(false)) {
      const { sol, moves } = setUp(problem);
      const rng = new Rng(9);
      const m = sol.inst.nVehicles;
      for (let trial = 0; trial < 3000; trial++) {
        const v = rng.int(m);
        const n = sol.len[v]!;
        if (n < 2) continue;
        planWithin(sol, moves, v, n, rng);
        if (!moves.mustBeLate(sol, moves.plans[0])) {
          passed++;
          continue;
        }
        refused++;
        expect(moves.delta(sol, 1), `vehicle ${v}`).toBe(Infinity);
      }
    }
    expect(refused).toBeGreaterThan(100);
    expect(passed).toBeGreaterThan(100);
  });
});

/** A random move within route v of n ≥ 2 stops into moves.plans[0]: a string moved (maybe reversed), a stretch reversed (2-opt) or two stops swapped. */
function planWithin(sol: Solution, moves: MoveEvaluator, v: number, n: number, rng: Rng): void {
  const plan = moves.plans[0].reset(v);
  const a = rng.int(n);
  const b = a + 1 + rng.int(n - a);
  const kind = rng.int(3);
  if (kind === 0) {
    // The stretch [a, b) reversed.
    plan.range(v, 0, a).reversed(v, a, b).range(v, b, n);
    return;
  }
  if (kind === 1 && b - a >= 2) {
    // Stops a and b - 1 swapped.
    plan
      .range(v, 0, a)
      .stop(sol.seq[v]![b - 1]!)
      .range(v, a + 1, b - 1)
      .stop(sol.seq[v]![a]!)
      .range(v, b, n);
    return;
  }
  // The string [a, a + L) moved before position q outside it, forwards or reversed.
  const L = Math.min(1 + rng.int(3), n - a);
  const q = rng.int(n + 1);
  if (q >= a && q <= a + L) {
    plan.range(v, 0, n);
    return;
  }
  const addString = (): void => void (rng.next() < 0.5 ? plan.reversed(v, a, a + L) : plan.range(v, a, a + L));
  if (q < a) {
    plan.range(v, 0, q);
    addString();
    plan.range(v, q, a).range(v, a + L, n);
  } else {
    plan.range(v, 0, a).range(v, a + L, q);
    addString();
    plan.range(v, q, n);
  }
}
