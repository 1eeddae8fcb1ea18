/**
 * Penalised capacity in the polish (search/penalised-polish.ts, SolveOptions.penalisedCapacity):
 * where windows do not bind, the local search may load a vehicle above its capacity at a penalty a
 * unit of excess, and only a plan back within every capacity reaches the search: a plan still
 * overloaded after the repair is put back as it came. Every plan passes the independent checker, and
 * the same seed gives the same plan.
 */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/output/plan.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { solve } from '../../src/solver/index.js';
import { instanceOf, type SolverInstance } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { MoveEvaluator } from '../../src/solver/ls/move.js';
import { PENALISED_CAPACITY_BY_DEFAULT, PENALISED_CAPACITY_MIN_STOPS } from '../../src/solver/params.js';
import { regretInsertion } from '../../src/solver/regret.js';
import { Rng } from '../../src/solver/rng.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { initialPenaltyOf, PenalisedPolish, penalisesCapacity } from '../../src/solver/search/penalised-polish.js';
import { Solution } from '../../src/solver/solution.js';
import { checkPlan } from '../support/checker.js';
import { capacitatedProblem } from '../support/problem-builder.js';
import { stopVisits } from './helpers.js';
import { routesOf } from '../../src/solver/kit.js';
import { expectCheckedPlan } from './local-optimum.js';

function regretPlan(inst: SolverInstance, evaluator: RouteEvaluator): Solution {
  const sol = new Solution(inst, new CostEvaluator(inst, 1));
  regretInsertion(sol, new Inserter(inst, evaluator), evaluator, Infinity);
  return sol;
}

function overloaded(sol: Solution): number[] {
  const { inst } = sol;
  return Array.from({ length: inst.nVehicles }, (_, v) => v).filter((v) => sol.load[v]! > inst.vCap[v]!);
}

describe('penalised capacity in the polish', () => {
  it('applies where windows do not bind, from PENALISED_CAPACITY_MIN_STOPS stops on, as SolveOptions.penalisedCapacity says', () => {
    const large = instanceOf(capacitatedProblem(3, { stops: PENALISED_CAPACITY_MIN_STOPS, vehicles: 12, capacity: 80 }));
    const small = instanceOf(capacitatedProblem(3, { stops: PENALISED_CAPACITY_MIN_STOPS - 1, vehicles: 12, capacity: 80 }));
    expect(penalisesCapacity(large)).toBe(PENALISED_CAPACITY_BY_DEFAULT);
    expect(penalisesCapacity(large, true)).toBe(true);
    expect(penalisesCapacity(large, false)).toBe(false);
    expect(penalisesCapacity(small, true)).toBe(false);
  });

  it('prices a stop moved between routes by the change of arcs and of the overload penalty, no penalty where capacity is not penalised', () => {
    const inst = instanceOf(capacitatedProblem(7, { stops: 120, vehicles: 12, capacity: 80 }));
    const lifted: SolverInstance = { ...inst, vCap: new Float64Array(inst.vCap.length).fill(Infinity) };
    const evaluator = new RouteEvaluator(inst);
    const sol = regretPlan(inst, evaluator);
    const [ru, rx] = Array.from({ length: inst.nVehicles }, (_, v) => v).filter((v) => sol.len[v]! > 0);
    const penalty = initialPenaltyOf(inst);
    const plain = new MoveEvaluator(lifted, new RouteEvaluator(lifted));
    const moves = new MoveEvaluator(lifted, new RouteEvaluator(lifted));
    moves.segments.penaliseOverload(inst.vCap, penalty);
    // The first stop of ru moved to the front of rx.
    const priced = (evaluator: MoveEvaluator): number => {
      evaluator.prepare(sol, ru!);
      evaluator.prepare(sol, rx!);
      evaluator.plans[0].reset(ru!).range(ru!, 1, sol.len[ru!]!);
      evaluator.plans[1].reset(rx!).stop(sol.seq[ru!]![0]!).range(rx!, 0, sol.len[rx!]!);
      return evaluator.delta(sol, 2);
    };
    const u = sol.seq[ru!]![0]!;
    const depot = moves.locBefore(sol, ru!, 0);
    const arcs =
      moves.arc(depot, moves.locAt(sol, ru!, 1)) -
      moves.arc(depot, inst.stopLoc[u]!) -
      moves.arc(inst.stopLoc[u]!, moves.locAt(sol, ru!, 1)) +
      moves.arc(depot, inst.stopLoc[u]!) +
      moves.arc(inst.stopLoc[u]!, moves.locAt(sol, rx!, 0)) -
      moves.arc(depot, moves.locAt(sol, rx!, 0));
    expect(priced(plain)).toBeCloseTo(arcs, 9);
    const moved = inst.stopLoad[u]!;
    const over = (load: number, v: number): number => Math.max(0, load - inst.vCap[v]!);
    const gain =
      penalty *
      (over(sol.load[rx!]!, rx!) - over(sol.load[rx!]! + moved, rx!) + over(sol.load[ru!]!, ru!) - over(sol.load[ru!]! - moved, ru!));
    expect(priced(moves)).toBeCloseTo(arcs - gain, 9);
    // A route within its capacity pays no penalty.
    expect(moves.overloadPenaltyOf(sol, ru!)).toBe(0);
  });

  it('polishes a plan into one within every capacity that passes the checker, or puts it back as it came', () => {
    for (const seed of [1, 2, 3]) {
      const problem = capacitatedProblem(seed, { stops: 200, vehicles: 20, capacity: 60 });
      const inst = instanceOf(problem);
      const evaluator = new RouteEvaluator(inst);
      const sol = regretPlan(inst, evaluator);
      const before = routesOf(sol);
      const polish = PenalisedPolish.when({ capacity: true }, inst, evaluator, new Rng(seed), {})!;
      expect(polish).not.toBeNull();
      const within = polish.run(sol, Infinity, null);
      expect(overloaded(sol)).toEqual([]);
      expect(sol.unservedStops()).toEqual([]);
      if (!within) expect(routesOf(sol)).toEqual(before);
      expectCheckedPlan(problem, sol);
    }
  });

  it('gives a capacity-only solve whose plan passes the independent checker, the same plan for the same seed', async () => {
    const problem = capacitatedProblem(5, { stops: 150, vehicles: 12, capacity: 80 });
    const options = { timeLimitMs: 20_000, seed: 2, maxIterations: 200, penalisedCapacity: true };
    const first = await solve(problem, options);
    const again = await solve(problem, options);
    expect(first.unserved).toEqual([]);
    expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, first))))).toEqual([]);
    const sequences = (result: typeof first): number[][] => result.routes.map((route) => stopVisits(route).map((visit) => visit.stop));
    expect(sequences(again)).toEqual(sequences(first));
  });
});
