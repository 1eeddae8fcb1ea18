/**
 * Where the distance filter holds and no rule of time can bind (MoveEvaluator.arcsDecide), a move's
 * change of cost is its change of arcs plus its change of the overload's penalty, worked out from the
 * routes' loads: the operators decide by them and price no route. The verdicts must be pricing's:
 * the local search reaches the same local optimum either way, with and without penalised capacity,
 * and 2-opt*'s change of the loads (crossLoadChange) is what pricing the two routes finds.
 */
import { describe, expect, it } from 'vitest';
import { CostEvaluator } from '../../src/solver/cost.js';
import { instanceOf, type SolverInstance } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { LocalSearch } from '../../src/solver/ls/local-search.js';
import { MoveEvaluator, timeNeverBinds } from '../../src/solver/ls/move.js';
import { regretInsertion } from '../../src/solver/regret.js';
import { Rng } from '../../src/solver/rng.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { initialPenaltyOf } from '../../src/solver/search/penalised-polish.js';
import { Solution } from '../../src/solver/solution.js';
import { buildProblem, capacitatedProblem } from '../support/problem-builder.js';
import { expectCheckedPlan, sequencesOf } from './local-optimum.js';

function regretPlan(inst: SolverInstance): Solution {
  const evaluator = new RouteEvaluator(inst);
  const sol = new Solution(inst, new CostEvaluator(inst, 1));
  regretInsertion(sol, new Inserter(inst, evaluator), evaluator, Infinity);
  return sol;
}

/** The instance with its capacities lifted, as the penalised polish searches it (search/penalised-polish.ts). */
function lifted(inst: SolverInstance): SolverInstance {
  return { ...inst, vCap: new Float64Array(inst.vCap.length).fill(Infinity) };
}

/** A local search on `inst`, its moves decided by the arcs and loads or priced (`decide`), capacity penalised at `penalty` a unit (null: not). */
function localSearchOf(inst: SolverInstance, own: SolverInstance, seed: number, decide: boolean, penalty: number | null): LocalSearch {
  const ls = LocalSearch.create(inst, new RouteEvaluator(inst), new Rng(seed), { stringSwaps: false })!;
  expect(ls.moves.arcsDecide).toBe(true);
  // Pricing every move, as before the arcs decided: the verdicts to match.
  if (!decide) (ls.moves as { arcsDecide: boolean }).arcsDecide = false;
  if (penalty !== null) ls.moves.segments.penaliseOverload(own.vCap, penalty);
  return ls;
}

describe('moves decided by their arcs and loads', () => {
  it('apply where no rule of time can bind: not where a shift is shorter than a route through every stop', () => {
    const inst = instanceOf(capacitatedProblem(3, { stops: 60, vehicles: 6, capacity: 80 }));
    expect(timeNeverBinds(inst)).toBe(true);
    expect(new MoveEvaluator(inst, new RouteEvaluator(inst)).arcsDecide).toBe(true);
    const short = instanceOf(
      buildProblem({
        vehicles: [{ start: [52.37, 4.89], capacity: 80, shiftStart: '08:00', shiftEnd: '09:00' }],
        stops: Array.from({ length: 30 }, (_, i) => ({ at: [52.37 + 0.01 * (i % 6), 4.89 + 0.01 * i] as [number, number], load: 1 })),
        objective: { cost: 'distance' },
      }),
    );
    expect(timeNeverBinds(short)).toBe(false);
    expect(new MoveEvaluator(short, new RouteEvaluator(short)).arcsDecide).toBe(false);
  });

  it('reach the local optimum pricing reaches, move for move, within every capacity and the checker', () => {
    for (const seed of [1, 2, 3]) {
      const problem = capacitatedProblem(seed, { stops: 150, vehicles: 14, capacity: 70 });
      const inst = instanceOf(problem);
      const decided = regretPlan(inst);
      const priced = regretPlan(inst);
      const byArcs = localSearchOf(inst, inst, seed, true, null);
      const byPricing = localSearchOf(inst, inst, seed, false, null);
      const moves = byArcs.run(decided);
      expect(moves).toBeGreaterThan(0);
      expect(byPricing.run(priced)).toBe(moves);
      expect(sequencesOf(decided)).toBe(sequencesOf(priced));
      expect(byArcs.moves.priced).toBe(byPricing.moves.priced);
      expectCheckedPlan(problem, decided);
    }
  });

  it('reach the local optimum pricing reaches where capacity is penalised', () => {
    for (const seed of [4, 5]) {
      const inst = instanceOf(capacitatedProblem(seed, { stops: 150, vehicles: 14, capacity: 70 }));
      const open = lifted(inst);
      const penalty = initialPenaltyOf(inst);
      const decided = regretPlan(inst);
      const priced = regretPlan(inst);
      const moves = localSearchOf(open, inst, seed, true, penalty).run(decided);
      expect(localSearchOf(open, inst, seed, false, penalty).run(priced)).toBe(moves);
      expect(sequencesOf(decided)).toBe(sequencesOf(priced));
    }
  });

  it("price 2-opt*'s change of loads as pricing the two routes does, penalised or over a capacity", () => {
    const inst = instanceOf(capacitatedProblem(6, { stops: 120, vehicles: 12, capacity: 60 }));
    const sol = regretPlan(inst);
    const plain = new MoveEvaluator(inst, new RouteEvaluator(inst));
    const open = lifted(inst);
    const penalised = new MoveEvaluator(open, new RouteEvaluator(open));
    penalised.segments.penaliseOverload(inst.vCap, 3.5);
    const arcsOf = (moves: MoveEvaluator, ru: number, cu: number, rx: number, cx: number): number =>
      moves.arc(moves.locBefore(sol, ru, cu), moves.locAt(sol, rx, cx)) +
      moves.arc(moves.locBefore(sol, rx, cx), moves.locAt(sol, ru, cu)) -
      moves.arc(moves.locBefore(sol, ru, cu), moves.locAt(sol, ru, cu)) -
      moves.arc(moves.locBefore(sol, rx, cx), moves.locAt(sol, rx, cx));
    let refused = 0;
    let tried = 0;
    for (const moves of [plain, penalised]) {
      for (let ru = 0; ru < inst.nVehicles; ru++) {
        for (let rx = ru + 1; rx < inst.nVehicles; rx++) {
          if (sol.len[ru] === 0 || sol.len[rx] === 0) continue;
          moves.prepare(sol, ru);
          moves.prepare(sol, rx);
          for (let cu = 0; cu <= sol.len[ru]!; cu += 3) {
            for (let cx = 0; cx <= sol.len[rx]!; cx += 3) {
              moves.plans[0].reset(ru).range(ru, 0, cu).range(rx, cx, sol.len[rx]!);
              moves.plans[1].reset(rx).range(rx, 0, cx).range(ru, cu, sol.len[ru]!);
              const priced = moves.delta(sol, 2);
              const decided = moves.crossLoadChange(sol, ru, cu, rx, cx);
              tried++;
              if (priced === Infinity) {
                refused++;
                expect(decided).toBe(Infinity);
              } else expect(arcsOf(moves, ru, cu, rx, cx) + decided).toBeCloseTo(priced, 6);
            }
          }
        }
      }
    }
    // Some exchanges overload a route, which the plain evaluator refuses and the penalised one prices.
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(tried / 2);
  });
});
