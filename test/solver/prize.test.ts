/**
 * Prize moves (ls/prize.ts), one test per rule: an unserved stop is served after one served stop
 * relocates to make room; an unserved stop replaces a served one of lower priority (at its best
 * position in that route); and after a solve no single insert, insert after one relocation or
 * swap raises the priority served — checked by brute force with the independent checker's
 * simulation, not the solver's code.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import type { Plan } from '../../src/output/plan-types.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { solve } from '../../src/solver/index.js';
import { instanceOf, nearestNeighbours } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { PrizeMoves } from '../../src/solver/ls/prize.js';
import { NEIGHBOURS } from '../../src/solver/params.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { Solution } from '../../src/solver/solution.js';
import { aloneReason } from '../../src/solver/unserved.js';
import { checkPlan, findInsertableUnserved, findPriorityExchanges, simulateEarliest } from '../support/checker.js';
import { buildProblem, randomProblem } from '../support/problem-builder.js';
import { DEPOT, east, west } from './helpers.js';
import { checkInvariants } from './invariants.js';

/** A solution with the given routes (stop lists per vehicle), and prize moves over all eligible stops. */
function planned(problem: Problem, routes: number[][]): { sol: Solution; prize: PrizeMoves } {
  const inst = instanceOf(problem);
  const evaluator = new RouteEvaluator(inst);
  const sol = new Solution(inst, new CostEvaluator(inst));
  routes.forEach((stops, v) => stops.forEach((s, p) => expect(sol.insert(v, p, s, evaluator)).toBe(true)));
  const eligible: number[] = [];
  for (let s = 0; s < inst.nStops; s++) if (aloneReason(inst, evaluator, s) === null) eligible.push(s);
  const k = Math.min(NEIGHBOURS, inst.nStops - 1);
  const prize = new PrizeMoves(inst, evaluator, new Inserter(inst, evaluator), nearestNeighbours(inst, NEIGHBOURS), k, eligible);
  return { sol, prize };
}

function route(sol: Solution, v: number): number[] {
  return Array.from(sol.seq[v]!.subarray(0, sol.len[v]));
}

async function planOf(problem: Problem, seed: number, maxIterations: number): Promise<Plan> {
  const result = await solve(problem, { timeLimitMs: 60_000, seed, maxIterations });
  expect(checkInvariants(problem, result)).toEqual([]);
  const plan = JSON.parse(JSON.stringify(buildPlan(problem, result))) as Plan;
  expect(checkPlan(problem, plan)).toEqual([]);
  return plan;
}

describe('prize moves', () => {
  it('relocate then insert: an unserved stop that fits only after a served stop moves to another route is served', async () => {
    // Vehicle 0 (with a lift, room for 2) serves 0 and 1; vehicle 1 (no lift) serves 2. Stop 3
    // needs the lift, so only vehicle 0 can take it, and only once 0 or 1 moves to vehicle 1.
    const problem = buildProblem({
      vehicles: [
        { start: DEPOT, capacity: 2, labels: ['lift'] },
        { start: DEPOT, capacity: 2 },
      ],
      stops: [
        { at: east(1), load: 1, priority: 5 },
        { at: east(2), load: 1, priority: 5 },
        { at: west(1), load: 1, priority: 5 },
        { at: east(1.5), load: 1, priority: 10, labels: ['lift'] },
      ],
    });
    const { sol, prize } = planned(problem, [[0, 1], [2]]);
    expect(prize.run(sol, Infinity)).toBe(1);
    expect(prize.stats).toEqual({ inserts: 0, relocations: 1, swaps: 0 });
    expect(sol.servedPriority).toBe(25);
    expect(sol.routeOf[3]).toBe(0);
    expect(route(sol, 0).length + route(sol, 1).length).toBe(4);
    for (const v of [0, 1]) expect(simulateEarliest(problem, v, route(sol, v)).feasible).toBe(true);
    // Nothing is left to claim: a second pass does nothing.
    expect(prize.run(sol, Infinity, true)).toBe(0);

    const plan = await planOf(problem, 1, 3);
    expect(plan.unserved).toEqual([]);
  });

  it('swap: a high-priority unserved stop replaces a lower-priority served one, at its best position in that route', async () => {
    // Only vehicle 0 (an open route) may serve stops 0, 1 and 3 (tags), and it has room for two.
    // Stop 3 (priority 10) replaces stop 0 (priority 1) rather than stop 1 (priority 5), and goes
    // after stop 1, on its way east, rather than into stop 0's slot (west of the depot).
    const problem = buildProblem({
      vehicles: [
        { start: DEPOT, end: null, capacity: 2, labels: ['cold'] },
        { start: DEPOT, capacity: 2 },
      ],
      stops: [
        { at: west(2), load: 1, priority: 1, labels: ['cold'] },
        { at: east(3), load: 1, priority: 5, labels: ['cold'] },
        { at: west(1), load: 1, priority: 5 },
        { at: east(4), load: 1, priority: 10, labels: ['cold'] },
      ],
    });
    const { sol, prize } = planned(problem, [[0, 1], [2]]);
    expect(prize.run(sol, Infinity)).toBe(1);
    expect(prize.stats).toEqual({ inserts: 0, relocations: 0, swaps: 1 });
    expect(route(sol, 0)).toEqual([1, 3]);
    expect(sol.routeOf[0]).toBe(-1);
    expect(sol.posOf[0]).toBe(-1);
    expect(sol.servedPriority).toBe(20);
    expect(prize.run(sol, Infinity, true)).toBe(0);

    const plan = await planOf(problem, 1, 3);
    expect(plan.unserved.map((u) => u.stop_index)).toEqual([0]);
  });

  it('a move the exact evaluator rejects leaves the plan as it was', () => {
    // Stop 3 fits nowhere even after moves (its window is long gone when anyone could arrive).
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, capacity: 1, shiftStart: '08:00', shiftEnd: '09:00' }],
      stops: [
        { at: east(1), load: 1, priority: 5 },
        { at: east(20), load: 1, priority: 10, windows: [['08:00', '08:20']] },
      ],
    });
    const { sol, prize } = planned(problem, [[0]]);
    const before = route(sol, 0);
    prize.run(sol, Infinity, true);
    expect(sol.servedPriority).toBe(sol.routeOf[1] === 0 ? 10 : 5);
    if (sol.routeOf[1] === -1) expect(route(sol, 0)).toEqual(before);
    for (let s = 0; s < 2; s++) if (sol.routeOf[s]! >= 0) expect(route(sol, sol.routeOf[s]!)[sol.posOf[s]!]).toBe(s);
  });
});

/**
 * Insert after one relocation, by brute force: an unserved stop u fits some position of a route
 * once a served stop w leaves it, and w fits some position of another route or an unused
 * vehicle. Reports each u that such a move would serve.
 */
function findRelocationInserts(problem: Problem, plan: Plan): string[] {
  const out: string[] = [];
  const routes = new Map(
    plan.routes.map((r) => [r.vehicle_index, r.visits.flatMap((v) => (v.kind === 'stop' ? [v.stop_index] : []))] as const),
  );
  const vehicles = problem.vehicles.map((_, v) => v);
  const fits = (v: number, stops: number[], s: number): boolean => {
    for (let p = 0; p <= stops.length; p++) {
      if (simulateEarliest(problem, v, [...stops.slice(0, p), s, ...stops.slice(p)]).feasible) return true;
    }
    return false;
  };
  for (const entry of plan.unserved) {
    const u = entry.stop_index;
    if (problem.stops[u]!.location < 0) continue;
    search: for (const [r, stops] of routes) {
      for (let i = 0; i < stops.length; i++) {
        const w = stops[i]!;
        const rest = [...stops.slice(0, i), ...stops.slice(i + 1)];
        if (!fits(r, rest, u)) continue;
        for (const t of vehicles) {
          if (t === r) continue;
          if (fits(t, routes.get(t) ?? [], w)) {
            out.push(`unserved stop ${u} fits vehicle ${r} once stop ${w} moves to vehicle ${t}`);
            break search;
          }
        }
      }
    }
  }
  return out;
}

/**
 * The plan with only the stops the search offers to the routes left in its unserved list: those
 * some vehicle could serve alone. (A stop whose service fits only once squashed behind another
 * at its address is reported `duration_exceeds_window` and never offered: not a prize move's.)
 */
function offeredOnly(plan: Plan): Plan {
  return { ...plan, unserved: plan.unserved.filter((u) => u.reason === 'dropped_for_capacity_or_time') };
}

describe('prize moves: property over generated problems', () => {
  // At most NEIGHBOURS + 1 stops, so that the final pass's neighbour lists hold every stop. Seeds
  // 530, 543, 572 and 602 left an insert after one relocation unclaimed before the prize moves.
  const CASES = [501, 504, 530, 543, 572, 602].map((seed) => ({ seed, stops: 24 + (seed % 5) * 4, vehicles: 2 + (seed % 2) }));
  for (const c of CASES) {
    it(`seed ${c.seed}: no single insert, insert after one relocation or swap raises the priority served`, async () => {
      const problem = randomProblem(c.seed, { stops: c.stops, vehicles: c.vehicles, allFeatures: true });
      const plan = offeredOnly(await planOf(problem, c.seed, 20));
      expect(findInsertableUnserved(problem, plan)).toEqual([]);
      expect(findPriorityExchanges(problem, plan)).toEqual([]);
      expect(findRelocationInserts(problem, plan)).toEqual([]);
    }, 60_000);
  }

  it('the generated problems leave offered stops unserved (so the property says something)', async () => {
    let unserved = 0;
    for (const c of CASES) {
      const problem = randomProblem(c.seed, { stops: c.stops, vehicles: c.vehicles, allFeatures: true });
      unserved += offeredOnly(await planOf(problem, c.seed, 20)).unserved.length;
    }
    expect(unserved).toBeGreaterThan(0);
  }, 60_000);
});

describe('prize moves in the search (experimental option prizeInSearch, off by default)', () => {
  afterEach(() => vi.restoreAllMocks());

  /** The granular prize passes (on the search's candidates) of one solve, and its checked plan. */
  async function solvedWith(problem: Problem, prizeInSearch: boolean | undefined) {
    const run = vi.spyOn(PrizeMoves.prototype, 'run');
    const result = await solve(problem, {
      timeLimitMs: 60_000,
      seed: 3,
      maxIterations: 30,
      ...(prizeInSearch === undefined ? {} : { prizeInSearch }),
    });
    const granular = run.mock.calls.filter((call) => call[2] !== true).length;
    run.mockRestore();
    expect(checkInvariants(problem, result)).toEqual([]);
    expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, result))) as Plan)).toEqual([]);
    return { granular, routes: result.routes.map((r) => r.visits.map((x) => (x.kind === 'stop' ? x.stop : -1))) };
  }

  it('off: only the final pass runs; on: the candidates get prize moves too, and a seed still reproduces', async () => {
    const problem = randomProblem(530, { stops: 36, vehicles: 2, allFeatures: true });
    const absent = await solvedWith(problem, undefined);
    const off = await solvedWith(problem, false);
    expect(absent.granular).toBe(0);
    expect(off).toEqual(absent);
    const on = await solvedWith(problem, true);
    expect(on.granular).toBeGreaterThan(0);
    expect(await solvedWith(problem, true)).toEqual(on);
  }, 60_000);
});
