/**
 * decisions.md: several windows mean "any one of them", and the objective is lexicographic —
 * serving a stop beats any lateness, and lateness + overtime is minimised before cost. So when
 * lateness is allowed, the window chosen for each stop must never make a feasible route look
 * infeasible, and must give the least lateness the route can have.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { solve } from '../../src/solver/index.js';
import { scheduleRoute } from '../../src/solver/route/schedule.js';
import { buildProblem, clock, seededRandom, type StopSpec } from '../support/problem-builder.js';
import { DEPOT, east, H, leg, MIN, reasonOf, stopVisits } from './helpers.js';

const depot = (problem: Problem): number => problem.vehicles[0]!.startLocation;
const at = (problem: Problem, s: number): number => problem.stops[s]!.location;

/** Least lateness + overtime over every assignment of one window per stop (null: none feasible). */
function bruteForceLeastViolation(problem: Problem, stops: number[]): number | null {
  let best: number | null = null;
  const choose = (i: number, windows: Problem['stops'][number]['windows'][]): void => {
    if (i === stops.length) {
      const fixed: Problem = {
        ...problem,
        stops: problem.stops.map((stop, s) => {
          const k = stops.indexOf(s);
          return k < 0 ? stop : { ...stop, windows: windows[k]! };
        }),
      };
      const route = scheduleRoute(fixed, 0, stops);
      if (route && (best === null || route.lateness + route.overtime < best)) best = route.lateness + route.overtime;
      return;
    }
    for (const window of problem.stops[stops[i]!]!.windows) choose(i + 1, [...windows, [window]]);
  };
  choose(0, []);
  return best;
}

describe('window choice when lateness is allowed', () => {
  const longJob = (shiftEnd: string, maxLatenessMin = Infinity) =>
    buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '07:00', shiftEnd }],
      stops: [
        {
          at: east(1.1),
          durationMin: 120,
          windows: [
            ['08:00', '09:00'],
            ['10:30', '12:00'],
          ],
          maxLatenessMin,
        },
      ],
    });

  it('a window that keeps the shift wins over a less late one that breaks it', () => {
    const problem = longJob('12:00');
    const route = scheduleRoute(problem, 0, [0]);
    expect(route).not.toBeNull();
    const visit = stopVisits(route!)[0]!;
    expect(visit.start).toBe(clock('08:00'));
    expect(visit.finish).toBe(clock('10:00'));
    expect(visit.late).toBe(H);
    expect(route!.end).toBe(clock('10:00') + leg(problem, at(problem, 0), depot(problem)));
  });

  it('with both windows inside the shift, the least late one is used', () => {
    const route = scheduleRoute(longJob('13:00'), 0, [0])!;
    expect(stopVisits(route)[0]!.start).toBe(clock('10:30'));
    expect(route.lateness).toBe(30 * MIN);
  });

  it('bounded lateness stays a hard limit for every window', () => {
    expect(scheduleRoute(longJob('12:00', 59), 0, [0])).toBeNull();
    expect(scheduleRoute(longJob('12:00', 60), 0, [0])!.lateness).toBe(H);
  });

  it('a late window that finishes earlier is used when a later stop needs it', () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '07:00' }],
      stops: [
        {
          at: east(1),
          durationMin: 120,
          windows: [
            ['08:00', '09:00'],
            ['10:30', '12:00'],
          ],
          maxLatenessMin: Infinity,
        },
        { at: east(2), durationMin: 10, windows: [['10:00', '11:00']] },
      ],
    });
    const route = scheduleRoute(problem, 0, [0, 1]);
    expect(route).not.toBeNull();
    expect(stopVisits(route!).map((x) => x.late)).toEqual([H, 0]);
  });

  it('an on-time window is not taken when it makes the route infeasible and a late one does not', () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '08:00' }],
      stops: [
        {
          at: east(1),
          durationMin: 30,
          windows: [
            ['07:00', '08:10'],
            ['14:00', '15:00'],
          ],
          maxLatenessMin: Infinity,
        },
        { at: east(2), durationMin: 10, windows: [['09:00', '10:00']] },
      ],
    });
    const route = scheduleRoute(problem, 0, [0, 1]);
    expect(route).not.toBeNull();
    expect(stopVisits(route!)[0]!.start).toBeLessThan(clock('09:00'));
    expect(route!.lateness).toBeGreaterThan(0);
  });

  it('the least total lateness wins even when it makes a later stop late', () => {
    // First window: 60 min late, the next stop on time. Second: 30 min late here, 10 min at the next.
    const probe = buildProblem({ vehicles: [{ start: DEPOT }], stops: [{ at: east(1) }, { at: east(1.5) }] });
    const hop = leg(probe, at(probe, 0), at(probe, 1));
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '07:00' }],
      stops: [
        {
          at: east(1),
          durationMin: 120,
          windows: [
            ['08:00', '09:00'],
            ['10:30', '12:00'],
          ],
          maxLatenessMin: Infinity,
        },
        { at: east(1.5), durationMin: 10, windows: [['12:00', clock('12:30') + hop]], maxLatenessMin: Infinity },
      ],
    });
    const route = scheduleRoute(problem, 0, [0, 1])!;
    expect(stopVisits(route).map((x) => x.late)).toEqual([30 * MIN, 10 * MIN]);
    expect(route.lateness).toBe(bruteForceLeastViolation(problem, [0, 1]));
  });

  it('agrees with trying every window assignment (random routes with several windows and lateness)', () => {
    let feasible = 0;
    for (let seed = 1; seed <= 80; seed++) {
      const rand = seededRandom(seed);
      const minute = (from: number, span: number): number => from + Math.floor(rand() * span) * MIN;
      const stops: StopSpec[] = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => {
        const count = 1 + Math.floor(rand() * 3);
        let open = minute(clock('07:30'), 120);
        const windows: Array<[number, number]> = [];
        for (let k = 0; k < count; k++) {
          const close = open + minute(20 * MIN, 60);
          windows.push([open, close]);
          open = close + minute(10 * MIN, 120);
        }
        return {
          at: east(1 + rand() * 10),
          durationMin: 10 + Math.floor(rand() * 80),
          windows,
          maxLatenessMin: rand() < 0.7 ? Infinity : 45,
        };
      });
      const problem = buildProblem({
        vehicles: [
          {
            start: DEPOT,
            shiftStart: '07:00',
            shiftEnd: minute(clock('11:00'), 300),
            flexibleStart: rand() < 0.5,
            maxOvertimeMin: rand() < 0.3 ? 30 : 0,
            breaks: rand() < 0.3 ? [['12:00', '12:30']] : [],
          },
        ],
        stops,
      });
      const order = stops.map((_, i) => i);
      const route = scheduleRoute(problem, 0, order);
      const best = bruteForceLeastViolation(problem, order);
      expect(route === null, `seed ${seed}`).toBe(best === null);
      if (route) {
        expect(route.lateness + route.overtime, `seed ${seed}`).toBe(best);
        feasible++;
      }
    }
    expect(feasible).toBeGreaterThanOrEqual(20);
  });

  it('such a stop is served, not reported unreachable_in_shift; one no window can hold is still unreachable', async () => {
    const served = await solve(longJob('12:00'), { timeLimitMs: 5000, seed: 0, maxIterations: 20 });
    expect(served.unserved).toEqual([]);
    expect(served.routes[0]!.lateness).toBe(H);
    const unreachable = await solve(longJob('09:30'), { timeLimitMs: 5000, seed: 0, maxIterations: 20 });
    expect(reasonOf(unreachable, 0)).toBe('unreachable_in_shift');
  });
});
