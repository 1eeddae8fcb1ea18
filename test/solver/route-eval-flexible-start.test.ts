/**
 * decisions.md "Time windows, shifts, breaks": a flexible start departs as late as helps and
 * never idles for nothing — the latest departure that leaves the route's end and lateness
 * unchanged — with breaks handled exactly (travel overlapping a break is paused for its
 * length, departing during a break waits for its end, a route entirely before or after a break
 * ignores it).
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { instanceOf } from '../../src/solver/instance.js';
import { departureAt } from '../../src/solver/route/breaks.js';
import { sequenceLoad } from '../../src/solver/route/capacity.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { scheduleRoute } from '../../src/solver/route/schedule.js';
import { buildProblem, clock, seededRandom } from '../support/problem-builder.js';
import { DEPOT, east, leg, MIN, stopVisits } from './helpers.js';

const depot = (problem: Problem): number => problem.vehicles[0]!.startLocation;
const at = (problem: Problem, s: number): number => problem.stops[s]!.location;

/**
 * The latest departure found by trying every whole second from the earliest one, each as a
 * strict start: the largest one whose route is feasible with the same end and lateness.
 */
function bruteForceLatestDeparture(problem: Problem, v: number, stops: number[]): number | null {
  const inst = instanceOf(problem);
  const strict = { ...inst, vDepart0: Float64Array.from(inst.vDepart0), vFlexible: new Uint8Array(inst.nVehicles) };
  const evaluator = new RouteEvaluator(strict);
  const seq = Int32Array.from(stops);
  const load = sequenceLoad(inst, seq);
  const departAt = (time: number): { end: number; lateness: number } | null => {
    strict.vDepart0[v] = departureAt(strict, v, time);
    const route = evaluator.evaluate(v, seq, seq.length, load);
    return route ? { end: route.end, lateness: route.lateness } : null;
  };
  const first = inst.vDepart0[v]!;
  const base = departAt(first);
  if (!base) return null;
  let best = first;
  for (let t = first + 1; t <= base.end; t++) {
    const r = departAt(t);
    if (r && r.end === base.end && r.lateness === base.lateness) best = departureAt(strict, v, t);
  }
  return best;
}

describe('flexible start with breaks', () => {
  it('a break pausing the first leg does not stop a later departure that avoids both the pause and the wait', () => {
    const probe = buildProblem({ vehicles: [{ start: DEPOT }], stops: [{ at: east(8) }] });
    const t = leg(probe, depot(probe), at(probe, 0));
    const make = (breaks: Array<[string, string]>) =>
      buildProblem({
        vehicles: [{ start: DEPOT, shiftStart: '08:00', flexibleStart: true, shiftEnd: '16:00', breaks }],
        stops: [{ at: east(8), windows: [['09:30', '09:35']], durationMin: 5 }],
      });
    // Departing at 08:00 the leg is paused by the 08:15–08:25 break; leaving after it, it is not.
    expect(t).toBeGreaterThan(15 * MIN);
    const route = scheduleRoute(make([['08:15', '08:25']]), 0, [0])!;
    expect(route.start).toBe(clock('09:30') - t);
    expect(route.waiting).toBe(0);
    expect(route.breakTime).toBe(0);
    expect(route.start).toBe(scheduleRoute(make([]), 0, [0])!.start);
  });

  it('a break that travel must cross is kept, and the departure is the latest that keeps the end', () => {
    const probe = buildProblem({ vehicles: [{ start: DEPOT }], stops: [{ at: east(10) }] });
    const t = leg(probe, depot(probe), at(probe, 0));
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, end: null, shiftStart: '08:00', flexibleStart: true, breaks: [['10:00', '10:15']] }],
      stops: [{ at: east(10), windows: [['10:25', '10:40']], durationMin: 10 }],
    });
    // Reaching 10:25 (the window start, which fixes the open route's end) means driving through the break.
    expect(t).toBeGreaterThan(10 * MIN);
    const route = scheduleRoute(problem, 0, [0])!;
    const visit = stopVisits(route)[0]!;
    expect(visit.arrival).toBe(clock('10:25'));
    expect(route.start).toBe(clock('10:25') - t - 15 * MIN);
    expect(route.breakTime).toBe(15 * MIN);
    expect(route.waiting).toBe(0);
    expect(bruteForceLatestDeparture(problem, 0, [0])).toBe(route.start);
  });

  it('a service is not split by a break: the latest departure arrives before the break and waits it out', () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '08:00', flexibleStart: true, breaks: [['09:00', '09:30']] }],
      stops: [{ at: east(1), windows: [['09:00', '12:00']], durationMin: 5 }],
    });
    // From 08:00 the service can only start at 09:30 (09:00 would be split), and the route
    // returns to the depot, so the end is fixed; an arrival inside the break is impossible.
    const route = scheduleRoute(problem, 0, [0])!;
    const t = leg(problem, depot(problem), at(problem, 0));
    expect(stopVisits(route)[0]!.start).toBe(clock('09:30'));
    expect(route.start).toBe(clock('09:00') - t);
    expect(bruteForceLatestDeparture(problem, 0, [0])).toBe(route.start);
  });

  it('a route entirely before or after a break ignores it', () => {
    const make = (breaks: Array<[string, string]>) =>
      buildProblem({
        vehicles: [{ start: DEPOT, shiftStart: '08:00', flexibleStart: true, breaks }],
        stops: [
          { at: east(5), windows: [['10:00', '10:30']], durationMin: 10 },
          { at: east(9), windows: [['11:00', '11:30']], durationMin: 10 },
        ],
      });
    const without = scheduleRoute(make([]), 0, [0, 1])!;
    const before = scheduleRoute(make([['06:00', '07:00']]), 0, [0, 1])!;
    const after = scheduleRoute(make([['15:00', '16:00']]), 0, [0, 1])!;
    expect(before.start).toBe(without.start);
    expect(after.start).toBe(without.start);
    expect(after.end).toBe(without.end);
    expect(before.breakTime + after.breakTime).toBe(0);
  });

  it('never makes a stop later or the route end later: agrees with trying every departure (random routes with breaks)', () => {
    let checked = 0;
    let delayedPastABreak = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const rand = seededRandom(seed);
      const minute = (from: number, span: number): number => from + Math.floor(rand() * span) * MIN;
      const firstBreak = minute(clock('08:00'), 150);
      const breaks: Array<[number, number]> = [[firstBreak, firstBreak + minute(5 * MIN, 40)]];
      if (rand() < 0.4) {
        const second = breaks[0]![1] + minute(0, 90);
        breaks.push([second, second + minute(5 * MIN, 20)]);
      }
      const stops = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
        const open = minute(clock('08:30'), 240);
        return {
          at: east(2 + rand() * 14),
          windows: [[open, open + minute(5 * MIN, 60)]] as Array<[number, number]>,
          durationMin: Math.floor(rand() * 20),
          maxLatenessMin: rand() < 0.3 ? 30 : 0,
        };
      });
      const problem = buildProblem({
        vehicles: [
          {
            start: DEPOT,
            end: rand() < 0.3 ? null : DEPOT,
            shiftStart: minute(clock('07:00'), 90),
            flexibleStart: true,
            speed: 0.5,
            breaks,
          },
        ],
        stops,
      });
      const order = stops.map((_, i) => i);
      const route = scheduleRoute(problem, 0, order);
      if (!route) continue;
      const strict = scheduleRoute({ ...problem, vehicles: [{ ...problem.vehicles[0]!, flexibleStart: false }] }, 0, order)!;
      expect(route.end).toBe(strict.end);
      expect(route.lateness).toBe(strict.lateness);
      expect(route.start, `seed ${seed}`).toBe(bruteForceLatestDeparture(problem, 0, order));
      if (breaks.some(([, end]) => strict.start < end && route.start >= end)) delayedPastABreak++;
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(20);
    expect(delayedPastABreak).toBeGreaterThanOrEqual(3);
  });

  it('overnight: a break before midnight that pauses the first leg is avoided by leaving after it', () => {
    const probe = buildProblem({ vehicles: [{ start: DEPOT }], stops: [{ at: east(20) }] });
    const t = leg(probe, depot(probe), at(probe, 0));
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '21:30', flexibleStart: true, shiftEnd: '06:00', breaks: [['22:00', '22:45']] }],
      stops: [{ at: east(20), windows: [['23:45', '23:57']], durationMin: 10 }],
    });
    expect(t).toBeGreaterThan(30 * MIN);
    expect(clock('23:45') - t).toBeGreaterThan(clock('22:45'));
    const route = scheduleRoute(problem, 0, [0])!;
    expect(route.start).toBe(clock('23:45') - t);
    expect(route.waiting).toBe(0);
  });
});
