/**
 * String swap (src/solver/ls/moves/swap-strings.ts, HGS-CVRP's SWAP(2,1) and SWAP(2,2)): every
 * move it finds changes the plan's cost by what the move evaluator predicted, and on a distance
 * problem without windows by its arc change; the routes stay feasible, it finds moves where the
 * other operators are at their local optimum, and the plans after it pass the independent checker.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import { instanceOf, type SolverInstance } from '../../src/solver/instance.js';
import { LocalSearch } from '../../src/solver/ls/local-search.js';
import { MoveEvaluator } from '../../src/solver/ls/move.js';
import { SwapStrings } from '../../src/solver/ls/moves/swap-strings.js';
import { STRING_SWAPS_BY_DEFAULT } from '../../src/solver/params.js';
import { Rng } from '../../src/solver/rng.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { Solution } from '../../src/solver/solution.js';
import { checkPlan } from '../support/checker.js';
import { capacitatedProblem, randomProblem } from '../support/problem-builder.js';
import { checkInvariants } from './invariants.js';
import { expectCheckedPlan, expectFeasibleRoutes, polished, totalCost } from './local-optimum.js';

/** The arc change of trading the strings of `u` and `x` (lengths lu and lx) on the plan as it is. */
function arcChange(sol: Solution, moves: MoveEvaluator, u: number, x: number, lu: number, lx: number): number {
  const ru = sol.routeOf[u]!;
  const rx = sol.routeOf[x]!;
  const pu = sol.posOf[u]!;
  const px = sol.posOf[x]!;
  const [bu, fu, eu, au] = [
    moves.locBefore(sol, ru, pu),
    moves.locAt(sol, ru, pu),
    moves.locBefore(sol, ru, pu + lu),
    moves.locAt(sol, ru, pu + lu),
  ];
  const [bx, fx, ex, ax] = [
    moves.locBefore(sol, rx, px),
    moves.locAt(sol, rx, px),
    moves.locBefore(sol, rx, px + lx),
    moves.locAt(sol, rx, px + lx),
  ];
  const removed = moves.arc(bu, fu) + moves.arc(eu, au) + moves.arc(bx, fx) + moves.arc(ex, ax);
  return moves.arc(bu, fx) + moves.arc(ex, au) + moves.arc(bx, fu) + moves.arc(eu, ax) - removed;
}

/** Whether trading the strings of `u` and `x` (lengths lu and lx, routes apart) would improve the plan, priced in full whatever its arcs. */
function tradeImproves(sol: Solution, moves: MoveEvaluator, u: number, x: number, lu: number, lx: number): boolean {
  const [ru, rx, pu, px] = [sol.routeOf[u]!, sol.routeOf[x]!, sol.posOf[u]!, sol.posOf[x]!];
  if (ru === rx || pu + lu > sol.len[ru]! || px + lx > sol.len[rx]!) return false;
  moves.plans[0]
    .reset(ru)
    .range(ru, 0, pu)
    .range(rx, px, px + lx)
    .range(ru, pu + lu, sol.len[ru]!);
  moves.plans[1]
    .reset(rx)
    .range(rx, 0, px)
    .range(ru, pu, pu + lu)
    .range(rx, px + lx, sol.len[rx]!);
  return moves.improves(sol, 2);
}

interface Applied {
  predicted: number;
  estimate: number;
  actual: number;
}

/**
 * Both string swaps over every pair of stops until none improves (each pair passed over checked
 * by pricing the trade in full: the arc filter must not hide an improving one); answers each applied move's figures.
 */
function stringSwapsToOptimum(sol: Solution, inst: SolverInstance, evaluator: RouteEvaluator): Applied[] {
  const moves = new MoveEvaluator(inst, evaluator);
  const applied: Applied[] = [];
  for (let improved = true; improved;) {
    improved = false;
    for (const [lu, lx] of [
      [2, 1],
      [2, 2],
    ] as const) {
      const operator = new SwapStrings(lu, lx);
      for (let u = 0; u < inst.nStops; u++) {
        for (let x = 0; x < inst.nStops; x++) {
          if (u === x || sol.routeOf[u]! < 0 || sol.routeOf[x]! < 0) continue;
          moves.prepare(sol, sol.routeOf[u]!);
          moves.prepare(sol, sol.routeOf[x]!);
          if (operator.find(sol, moves, u, x) === 0) {
            expect(tradeImproves(sol, moves, u, x, lu, lx), `a trade of ${u} and ${x} the string swap passed over`).toBe(false);
            continue;
          }
          const estimate = arcChange(sol, moves, u, x, lu, lx);
          const predicted = moves.delta(sol, 2);
          const before = totalCost(sol);
          expect(moves.apply(sol, 2, evaluator), 'a move the string swap found was refused by the exact evaluator').toBe(true);
          applied.push({ predicted, estimate, actual: totalCost(sol) - before });
          improved = true;
        }
      }
    }
  }
  return applied;
}

describe('string swap (ls/moves/swap-strings.ts)', () => {
  it('on a capacitated distance problem, each move changes the cost by its arc change and by the predicted delta, and the plan passes the checker', () => {
    let found = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const problem = capacitatedProblem(seed, { stops: 70, vehicles: 10, capacity: 40 });
      const { inst, sol, evaluator } = polished(problem, seed);
      for (const move of stringSwapsToOptimum(sol, inst, evaluator)) {
        expect(move.predicted).toBeLessThan(0);
        expect(move.actual).toBeCloseTo(move.predicted, 6);
        expect(move.estimate).toBeCloseTo(move.predicted, 6);
        found++;
      }
      expectFeasibleRoutes(sol, inst, evaluator);
      expect(expectCheckedPlan(problem, sol).unserved).toEqual([]);
    }
    // The plans were at a local optimum of relocate, swap, 2-opt, 2-opt* and or-opt: the string swap reaches further.
    expect(found, 'the string swap found nothing beyond the other operators').toBeGreaterThan(0);
  });

  it('runs in the local search only where no window binds and when asked (SolveOptions.stringSwaps), and such solves pass the checker and reproduce', async () => {
    const plain = capacitatedProblem(9, { stops: 90, vehicles: 12, capacity: 40 });
    const windowed = randomProblem(9, { stops: 40, vehicles: 4, uniformSpeed: true });
    const names = (problem: Problem, stringSwaps: boolean | undefined): string[] => {
      const inst = instanceOf(problem);
      const ls = LocalSearch.create(inst, new RouteEvaluator(inst), new Rng(0), { countOperators: true, stringSwaps })!;
      return ls.counters!.snapshot().map((o) => o.name);
    };
    expect(names(plain, true)).toEqual(expect.arrayContaining(['swap-2-1', 'swap-2-2']));
    expect(names(plain, false)).not.toContain('swap-2-1');
    expect(names(plain, undefined).includes('swap-2-1')).toBe(STRING_SWAPS_BY_DEFAULT);
    expect(names(windowed, true)).not.toContain('swap-2-1');
    const options = { timeLimitMs: 60_000, seed: 3, maxIterations: 120, stringSwaps: true };
    const on = await solve(plain, options);
    const again = await solve(plain, options);
    expect(checkInvariants(plain, on)).toEqual([]);
    expect(checkPlan(plain, JSON.parse(JSON.stringify(buildPlan(plain, on))))).toEqual([]);
    const sequences = (r: typeof on) =>
      r.routes.map((route) => [route.vehicle, ...route.visits.map((x) => (x.kind === 'stop' ? x.stop : -1))]);
    expect(sequences(again)).toEqual(sequences(on));
  });

  it('never trades strings within one route, nor a string that runs past its route', () => {
    const problem = capacitatedProblem(8, { stops: 40, vehicles: 6, capacity: 40 });
    const { inst, sol, evaluator } = polished(problem, 8);
    const moves = new MoveEvaluator(inst, evaluator);
    const operator = new SwapStrings(2, 2);
    for (let v = 0; v < inst.nVehicles; v++) {
      const n = sol.len[v]!;
      if (n < 2) continue;
      const seq = sol.seq[v]!;
      moves.prepare(sol, v);
      expect(operator.find(sol, moves, seq[0]!, seq[n - 1]!)).toBe(0);
      const other = Array.from({ length: inst.nStops }, (_, s) => s).find((s) => sol.routeOf[s]! >= 0 && sol.routeOf[s] !== v)!;
      moves.prepare(sol, sol.routeOf[other]!);
      expect(operator.find(sol, moves, seq[n - 1]!, other)).toBe(0);
    }
  });
});
