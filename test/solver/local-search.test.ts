/**
 * The local search: segment summaries agree with the exact evaluator, every operator's
 * predicted change is the exact change, moves keep plans feasible, and solves that use the
 * local search stay reproducible and pass the independent checker.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { instanceOf } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { LocalSearch } from '../../src/solver/ls/local-search.js';
import { MoveEvaluator } from '../../src/solver/ls/move.js';
import type { Operator } from '../../src/solver/ls/moves/operator.js';
import { RelocateString } from '../../src/solver/ls/moves/relocate.js';
import { regretInsertion } from '../../src/solver/regret.js';
import { Swap } from '../../src/solver/ls/moves/swap.js';
import { TwoOpt, TwoOptStar } from '../../src/solver/ls/moves/two-opt.js';
import { segmentsApply } from '../../src/solver/ls/segments.js';
import { Rng } from '../../src/solver/rng.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { sequenceLoad } from '../../src/solver/route/capacity.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { solve } from '../../src/solver/index.js';
import { Solution } from '../../src/solver/solution.js';
import { checkPlan } from '../support/checker.js';
import { buildProblem, randomProblem, withRandomLocks } from '../support/problem-builder.js';
import { DEPOT, east } from './helpers.js';
import { checkInvariants } from './invariants.js';

/** Exact cost of vehicle v serving `stops`, or null when the route breaks a rule. */
function exactCost(problem: Problem, evaluator: RouteEvaluator, v: number, stops: number[]): number | null {
  const inst = instanceOf(problem);
  if (stops.length === 0) return 0;
  if (stops.some((s) => inst.compatible[v * inst.nStops + s] !== 1)) return null;
  const seq = Int32Array.from(stops);
  const route = evaluator.evaluate(v, seq, seq.length, sequenceLoad(inst, seq));
  if (!route) return null;
  return inst.costIsDistance ? route.distance : route.working;
}

function constructed(problem: Problem): { sol: Solution; evaluator: RouteEvaluator } {
  const inst = instanceOf(problem);
  const evaluator = new RouteEvaluator(inst);
  // Orders of imbalance priced at 1 each.
  const sol = new Solution(inst, new CostEvaluator(inst, 1));
  regretInsertion(sol, new Inserter(inst, evaluator), evaluator, Infinity);
  return { sol, evaluator };
}

function routeStops(sol: Solution, v: number): number[] {
  return Array.from(sol.seq[v]!.subarray(0, sol.len[v]));
}

function totalCost(sol: Solution): number {
  let cost = 0;
  for (let v = 0; v < sol.inst.nVehicles; v++) cost += sol.rCost[v]!;
  return cost;
}

describe('segment summaries (fast path)', () => {
  it('apply to simple problems only: one window, no breaks, one travel profile', () => {
    expect(segmentsApply(instanceOf(randomProblem(1, { stops: 20, vehicles: 3, uniformSpeed: true })))).toBe(true);
    const featured = randomProblem(3, { stops: 30, vehicles: 4, allFeatures: true, uniformSpeed: true });
    expect(segmentsApply(instanceOf(featured))).toBe(instanceOf(featured).simple && featured.objective.balance === 'none');
  });

  it('the cost and feasibility of random routes equal the exact evaluator', () => {
    for (const seed of [11, 12, 13, 14, 15, 16]) {
      const problem = randomProblem(seed, { stops: 40, vehicles: 4, uniformSpeed: true });
      const inst = instanceOf(problem);
      const evaluator = new RouteEvaluator(inst);
      const moves = new MoveEvaluator(inst, evaluator);
      const sol = new Solution(inst, new CostEvaluator(inst));
      const rng = new Rng(seed);
      let feasibleSeen = 0;
      for (let trial = 0; trial < 200; trial++) {
        const v = rng.int(inst.nVehicles);
        const stops: number[] = [];
        const length = 1 + rng.int(6);
        while (stops.length < length) {
          const s = rng.int(inst.nStops);
          if (!stops.includes(s)) stops.push(s);
        }
        sol.assignRoute(v, Int32Array.from(stops), stops.length);
        moves.prepare(sol, v);
        const fast = moves.segments.routeCost[v]!;
        const exact = exactCost(problem, evaluator, v, stops);
        if (exact === null) {
          expect(fast, `seed ${seed} vehicle ${v} stops ${stops}`).toBe(Infinity);
        } else {
          feasibleSeen++;
          expect(fast, `seed ${seed} vehicle ${v} stops ${stops}`).toBeCloseTo(exact, 6);
        }
      }
      expect(feasibleSeen).toBeGreaterThan(10);
    }
  });

  // With locks, a piece out of sequence order must be priced as infeasible, as the exact evaluator finds it.
  const pricedProblems: Array<[string, Problem]> = [
    ['', randomProblem(21, { stops: 60, vehicles: 5, uniformSpeed: true })],
    [' (with locks and sequences)', withRandomLocks(randomProblem(21, { stops: 60, vehicles: 5, uniformSpeed: true }), 22, 0.5)],
  ];
  for (const [label, problem] of pricedProblems)
    it(`a route assembled from prefixes, suffixes, reversed ranges and stops is priced like its exact evaluation${label}`, () => {
      const inst = instanceOf(problem);
      expect(segmentsApply(inst)).toBe(true);
      const { sol, evaluator } = constructed(problem);
      const moves = new MoveEvaluator(inst, evaluator);
      const rng = new Rng(5);
      let checked = 0;
      for (let trial = 0; trial < 400; trial++) {
        const a = rng.int(inst.nVehicles);
        const b = rng.int(inst.nVehicles);
        const na = sol.len[a]!;
        const nb = sol.len[b]!;
        if (na < 2 || nb < 1 || a === b) continue;
        moves.prepare(sol, a);
        moves.prepare(sol, b);
        const i = rng.int(na);
        const j = i + 1 + rng.int(na - i);
        const k = rng.int(nb + 1);
        const plan = moves.plans[0].reset(a).range(a, 0, i).reversed(a, i, j).range(b, k, nb).range(a, j, na);
        const expected = [
          ...routeStops(sol, a).slice(0, i),
          ...routeStops(sol, a).slice(i, j).reverse(),
          ...routeStops(sol, b).slice(k),
          ...routeStops(sol, a).slice(j),
        ];
        const exact = exactCost(problem, evaluator, a, expected);
        const fast = moves.planValue(sol, plan);
        if (exact === null) expect(fast).toBe(Infinity);
        else expect(fast).toBeCloseTo(exact, 6);
        checked++;
      }
      expect(checked).toBeGreaterThan(100);
    });
});

const OPERATORS: Array<() => Operator> = [
  () => new RelocateString(1),
  () => new RelocateString(2),
  () => new RelocateString(3),
  () => new Swap(),
  () => new TwoOpt(),
  () => new TwoOptStar(),
];

describe('local-search operators', () => {
  for (const make of OPERATORS) {
    const name = make().name;
    it(`${name}: each move it finds improves the exact cost by what it predicted, and the routes stay feasible`, () => {
      let found = 0;
      for (const seed of [31, 32, 33, 34]) {
        for (const cost of ['distance', 'time'] as const) {
          const base = randomProblem(seed, { stops: 60, vehicles: 5, uniformSpeed: true });
          // Distance runs use round trips from one depot, where the arc filters apply.
          const vehicles = cost === 'distance' ? base.vehicles.map((v) => ({ ...v, endLocation: v.startLocation })) : base.vehicles;
          const problem: Problem = { ...base, vehicles, objective: { cost, minimizeRoutes: false, balance: 'none' } };
          const inst = instanceOf(problem);
          const { sol, evaluator } = constructed(problem);
          const moves = new MoveEvaluator(inst, evaluator);
          const op = make();
          const rng = new Rng(seed);
          for (let trial = 0; trial < 3000; trial++) {
            const u = rng.int(inst.nStops);
            const x = rng.int(inst.nStops);
            if (u === x || sol.routeOf[u]! < 0 || sol.routeOf[x]! < 0) continue;
            moves.prepare(sol, sol.routeOf[u]!);
            moves.prepare(sol, sol.routeOf[x]!);
            const count = op.find(sol, moves, u, x);
            if (count === 0) continue;
            const predicted = moves.delta(sol, count);
            expect(predicted).toBeLessThan(0);
            const before = totalCost(sol);
            const served = sol.servedPriority;
            expect(moves.apply(sol, count, evaluator), `${name} seed ${seed}`).toBe(true);
            expect(totalCost(sol) - before).toBeCloseTo(predicted, 6);
            expect(sol.servedPriority).toBe(served);
            found++;
          }
          for (let v = 0; v < inst.nVehicles; v++) {
            expect(exactCost(problem, evaluator, v, routeStops(sol, v)), `vehicle ${v}`).not.toBeNull();
          }
        }
      }
      expect(found, `${name} found no improving move at all`).toBeGreaterThan(0);
    });
  }

  it('exact pricing (breaks, several windows, lateness, squash): every move found improves (violations, then cost) and keeps the routes valid', () => {
    let found = 0;
    for (const seed of [81, 82, 83, 84, 85, 86]) {
      const base = randomProblem(seed, { stops: 50, vehicles: 4, allFeatures: true });
      const problem: Problem = { ...base, objective: { ...base.objective, balance: 'none' } };
      const inst = instanceOf(problem);
      const { sol, evaluator } = constructed(problem);
      const moves = new MoveEvaluator(inst, evaluator);
      const rng = new Rng(seed);
      const ops = OPERATORS.map((make) => make());
      for (let trial = 0; trial < 1500; trial++) {
        const u = rng.int(inst.nStops);
        const x = rng.int(inst.nStops);
        if (u === x || sol.routeOf[u]! < 0 || sol.routeOf[x]! < 0) continue;
        const op = ops[trial % ops.length]!;
        const count = op.find(sol, moves, u, x);
        if (count === 0) continue;
        const before = sol.costs.objective(sol);
        expect(moves.apply(sol, count, evaluator), `${op.name} seed ${seed}`).toBe(true);
        const after = sol.costs.objective(sol);
        expect(after.priority).toBe(before.priority);
        const better =
          after.violations < before.violations - 1e-9 ||
          (Math.abs(after.violations - before.violations) <= 1e-9 &&
            after.cost + (after.routes - before.routes) * (problem.objective.minimizeRoutes ? 1e12 : 0) < before.cost - 1e-9);
        expect(better, `${op.name} seed ${seed}`).toBe(true);
        found++;
      }
      for (let v = 0; v < inst.nVehicles; v++) {
        const stops = routeStops(sol, v);
        if (stops.length === 0) continue;
        const seq = Int32Array.from(stops);
        expect(evaluator.evaluate(v, seq, seq.length, sequenceLoad(inst, seq)), `vehicle ${v}`).not.toBeNull();
      }
    }
    expect(found).toBeGreaterThan(0);
  });

  it('2-opt untangles a route that crosses itself', () => {
    // Depot, then 1 km, 3 km, 2 km, 4 km east: visiting 3 before 2 doubles back.
    const problem = buildProblem({
      vehicles: [{ start: DEPOT }],
      stops: [{ at: east(1) }, { at: east(3) }, { at: east(2) }, { at: east(4) }],
      objective: { cost: 'distance' },
    });
    const inst = instanceOf(problem);
    const evaluator = new RouteEvaluator(inst);
    const sol = new Solution(inst, new CostEvaluator(inst));
    for (const [p, s] of [0, 1, 2, 3].entries()) sol.insert(0, p, s, evaluator);
    const ls = LocalSearch.create(inst, evaluator, new Rng(0))!;
    ls.run(sol);
    expect(routeStops(sol, 0)).toEqual([0, 2, 1, 3]);
    expect(ls.stats.rejectedByExact).toBe(0);
  });
});

describe('local search inside solve', () => {
  it('on random simple problems the fast path never disagrees with the exact evaluator', () => {
    for (const seed of [41, 42, 43]) {
      const problem = randomProblem(seed, { stops: 80, vehicles: 6, uniformSpeed: true });
      const inst = instanceOf(problem);
      const { sol, evaluator } = constructed(problem);
      const before = totalCost(sol);
      const ls = LocalSearch.create(inst, evaluator, new Rng(seed))!;
      ls.run(sol);
      expect(ls.stats.rejectedByExact).toBe(0);
      expect(totalCost(sol)).toBeLessThanOrEqual(before + 1e-9);
    }
  });

  it('the same seed and iteration limit give the same plan', async () => {
    const problem = randomProblem(51, { stops: 90, vehicles: 6, uniformSpeed: true });
    const options = { timeLimitMs: 60_000, seed: 7, maxIterations: 150 };
    const a = await solve(problem, options);
    const b = await solve(problem, options);
    const sequences = (r: typeof a) =>
      r.routes.map((route) => [route.vehicle, ...route.visits.map((x) => (x.kind === 'stop' ? x.stop : -1))]);
    expect(sequences(a)).toEqual(sequences(b));
  });

  for (const seed of [61, 62, 63, 64, 65, 66]) {
    it(`seed ${seed}: a simple problem solved with local search passes the plan checker`, async () => {
      const problem = randomProblem(seed, { stops: 40 + (seed % 5) * 30, vehicles: 3 + (seed % 4), uniformSpeed: true });
      const result = await solve(problem, { timeLimitMs: 60_000, seed, maxIterations: 100 });
      expect(checkInvariants(problem, result)).toEqual([]);
      const plan = JSON.parse(JSON.stringify(buildPlan(problem, result)));
      expect(checkPlan(problem, plan)).toEqual([]);
    });
  }
});
