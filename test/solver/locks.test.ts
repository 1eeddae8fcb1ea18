/** Locks (decisions.md "Locks"): a stop locked to a driver, the sequence of one driver's locked stops, and the reason when a lock cannot be kept. */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import { scheduleRoute } from '../../src/solver/route/schedule.js';
import { keepsSequence, keepsSequenceWithInsertion } from '../../src/solver/route/sequence.js';
import { Rng } from '../../src/solver/rng.js';
import type { SolveResult } from '../../src/solver/types.js';
import { checkPlan, findInsertableUnserved } from '../support/checker.js';
import { buildProblem } from '../support/problem-builder.js';
import { DEPOT, east, servedStops, stopVisits, west } from './helpers.js';

const quick = { timeLimitMs: 10_000, seed: 0, maxIterations: 100 };

function checked(problem: Problem, result: SolveResult): string[] {
  const plan = JSON.parse(JSON.stringify(buildPlan(problem, result)));
  return [...checkPlan(problem, plan), ...findInsertableUnserved(problem, plan)];
}

/** The vehicle name serving each stop (undefined when unserved). */
function servedBy(problem: Problem, result: SolveResult): Array<string | undefined> {
  const names: Array<string | undefined> = problem.stops.map(() => undefined);
  for (const route of result.routes) for (const visit of stopVisits(route)) names[visit.stop] = problem.vehicles[route.vehicle]!.name;
  return names;
}

function unservedEntry(result: SolveResult, stop: number) {
  return result.unserved.find((entry) => entry.stop === stop);
}

describe('a stop locked to a driver', () => {
  it('is served by that driver, not by the nearer one', async () => {
    const problem = buildProblem({
      vehicles: [
        { name: 'Ann', start: DEPOT },
        { name: 'Ben', start: east(20) },
      ],
      stops: [{ at: west(1), lock: { driver: 'Ben' } }, { at: west(2) }],
    });
    const result = await solve(problem, quick);
    expect(servedBy(problem, result)[0]).toBe('Ben');
    expect(checked(problem, result)).toEqual([]);
  });

  it('is served when its driver is the only one whose types allow it', async () => {
    const problem = buildProblem({
      surface: 'project',
      vehicles: [
        { name: 'Ann', start: DEPOT, labels: ['van'] },
        { name: 'Ben', start: DEPOT, labels: ['cold'] },
      ],
      stops: [{ at: east(1), labels: ['cold'], lock: { driver: 'Ben' } }],
    });
    const result = await solve(problem, quick);
    expect(servedBy(problem, result)).toEqual(['Ben']);
    expect(checked(problem, result)).toEqual([]);
  });
});

describe('a lock that cannot be kept: locked_driver_cannot_serve', () => {
  it('names the driver who lacks a type the stop requires', async () => {
    const problem = buildProblem({
      surface: 'project',
      vehicles: [
        { name: 'Ann', start: DEPOT, labels: ['van'] },
        { name: 'Ben', start: DEPOT, labels: ['cold'] },
      ],
      stops: [{ at: east(1), labels: ['cold'], lock: { driver: 'Ann' } }],
    });
    const result = await solve(problem, quick);
    expect(servedStops(result)).toEqual([]);
    expect(unservedEntry(result, 0)).toMatchObject({
      reason: 'locked_driver_cannot_serve',
      message: 'it is locked to driver "Ann", who has none of the types it requires (cold)',
    });
    expect(checked(problem, result)).toEqual([]);
  });

  it('names the driver who cannot reach it in the shift, though another driver could', async () => {
    const problem = buildProblem({
      vehicles: [
        { name: 'Ann', start: DEPOT },
        { name: 'Ben', start: DEPOT, shiftStart: '08:00', shiftEnd: '08:05' },
      ],
      stops: [{ at: east(30), lock: { driver: 'Ben' } }],
    });
    const result = await solve(problem, quick);
    expect(servedStops(result)).toEqual([]);
    expect(unservedEntry(result, 0)?.reason).toBe('locked_driver_cannot_serve');
    expect(unservedEntry(result, 0)?.message).toMatch(/^it is locked to driver "Ben", who cannot reach it/);
    expect(checked(problem, result)).toEqual([]);
  });

  it('says the driver is full when their vehicle has no room left', async () => {
    const problem = buildProblem({
      vehicles: [
        { name: 'Ann', start: DEPOT, capacity: 10 },
        { name: 'Ben', start: DEPOT, capacity: 1 },
      ],
      stops: [
        { at: east(1), load: 1, priority: 10, lock: { driver: 'Ben' } },
        { at: east(2), load: 1, priority: 5, lock: { driver: 'Ben' } },
      ],
    });
    const result = await solve(problem, quick);
    expect(servedStops(result)).toEqual([0]);
    expect(unservedEntry(result, 1)?.reason).toBe('locked_driver_cannot_serve');
    expect(unservedEntry(result, 1)?.message).toMatch(/^it is locked to driver "Ben" and was left out .*full \(capacity\)$/);
    expect(checked(problem, result)).toEqual([]);
  });
});

describe('sequence', () => {
  // Along one line east of the depot: the locked stops' sequence runs from the farthest to the
  // nearest, against the order distance alone would choose; free stops lie between them.
  const line = (): Problem =>
    buildProblem({
      vehicles: [{ name: 'Ann', start: DEPOT }],
      stops: [
        { at: east(1), lock: { driver: 'Ann', sequence: 3 } },
        { at: east(2), lock: { driver: 'Ann', sequence: 2 } },
        { at: east(3), lock: { driver: 'Ann', sequence: 1 } },
        { at: east(1.5) },
        { at: east(2.5) },
      ],
    });

  it('keeps the order of one driver’s locked stops against the order distance would choose', async () => {
    const problem = line();
    const result = await solve(problem, quick);
    expect(servedStops(result)).toEqual([0, 1, 2, 3, 4]);
    const order = stopVisits(result.routes[0]!).map((visit) => visit.stop);
    expect(order.filter((s) => s <= 2)).toEqual([2, 1, 0]);
    expect(checked(problem, result)).toEqual([]);
  });

  it('lets other stops go between the locked ones', async () => {
    // The free stop's window falls between those of sequence 1 and sequence 3.
    const problem = buildProblem({
      vehicles: [{ name: 'Ann', start: DEPOT, shiftStart: '08:00', flexibleStart: false }],
      stops: [
        { at: east(3), windows: [['08:00', '08:20']], lock: { driver: 'Ann', sequence: 1 } },
        { at: east(2), lock: { driver: 'Ann', sequence: 2 } },
        { at: east(1), windows: [['09:00', '09:30']], lock: { driver: 'Ann', sequence: 3 } },
        { at: west(1), windows: [['08:30', '08:45']] },
      ],
    });
    const result = await solve(problem, quick);
    expect(servedStops(result)).toEqual([0, 1, 2, 3]);
    const order = stopVisits(result.routes[0]!).map((visit) => visit.stop);
    expect(order.filter((s) => s <= 2)).toEqual([0, 1, 2]);
    expect(order.indexOf(3)).toBeGreaterThan(order.indexOf(0));
    expect(order.indexOf(3)).toBeLessThan(order.indexOf(2));
    expect(checked(problem, result)).toEqual([]);
  });

  it('is a rule of the route itself: a schedule out of order is refused, equal sequences go either way', () => {
    const problem = line();
    expect(scheduleRoute(problem, 0, [2, 1, 0])).not.toBeNull();
    expect(scheduleRoute(problem, 0, [2, 4, 1, 3, 0])).not.toBeNull();
    expect(scheduleRoute(problem, 0, [0, 1, 2])).toBeNull();
    expect(scheduleRoute(problem, 0, [2, 0, 1])).toBeNull();
    const ties = buildProblem({
      vehicles: [{ name: 'Ann', start: DEPOT }],
      stops: [
        { at: east(1), lock: { driver: 'Ann', sequence: 1 } },
        { at: east(2), lock: { driver: 'Ann', sequence: 1 } },
      ],
    });
    expect(scheduleRoute(ties, 0, [0, 1])).not.toBeNull();
    expect(scheduleRoute(ties, 0, [1, 0])).not.toBeNull();
  });

  it('a locked stop its sequence cannot place in time is locked_driver_cannot_serve', async () => {
    // Sequence 1 opens late, sequence 2 closes early: both cannot be served in that order.
    const problem = buildProblem({
      vehicles: [{ name: 'Ann', start: DEPOT, shiftStart: '08:00' }],
      stops: [
        { at: east(1), windows: [['11:00', '12:00']], priority: 10, lock: { driver: 'Ann', sequence: 1 } },
        { at: east(2), windows: [['08:00', '09:00']], priority: 5, lock: { driver: 'Ann', sequence: 2 } },
      ],
    });
    const result = await solve(problem, quick);
    expect(servedStops(result)).toEqual([0]);
    expect(unservedEntry(result, 1)?.reason).toBe('locked_driver_cannot_serve');
    expect(unservedEntry(result, 1)?.message).toContain('sequence 2');
    expect(checked(problem, result)).toEqual([]);
  });
});

describe('the sequence rule of an insertion', () => {
  it('agrees with the rule on the whole route, for every position of random routes in order', () => {
    const rng = new Rng(7);
    let compared = 0;
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + rng.int(12);
      // Stops 0..n: sequence 0 (none) or 1–4.
      const stopSeq = Float64Array.from({ length: n + 1 }, () => (rng.int(2) === 0 ? 0 : 1 + rng.int(4)));
      // The sequenced stops in order, the others put in anywhere.
      const order = [...Array(n).keys()].filter((s) => stopSeq[s]! > 0).sort((a, b) => stopSeq[a]! - stopSeq[b]!);
      for (let s = 0; s < n; s++) if (stopSeq[s] === 0) order.splice(rng.int(order.length + 1), 0, s);
      const route = Int32Array.from(order);
      expect(keepsSequence(stopSeq, route, n)).toBe(true);
      const u = n;
      for (let p = 0; p <= n; p++) {
        const whole = Int32Array.from([...route.subarray(0, p), u, ...route.subarray(p)]);
        expect(keepsSequenceWithInsertion(stopSeq, route, n, p, u)).toBe(keepsSequence(stopSeq, whole, n + 1));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });
});
