/**
 * One test per route-model rule of decisions.md, through `scheduleRoute` (the exact
 * evaluator the solver and the output layer share) and, where the rule is about choices, `solve`.
 */
import { describe, expect, it } from 'vitest';
import { scheduleRoute } from '../../src/solver/route/schedule.js';
import { solve } from '../../src/solver/index.js';
import { buildProblem, clock } from '../support/problem-builder.js';
import { DEPOT, east, H, leg, MIN, reasonOf, servedStops, stopVisits, west } from './helpers.js';

const at = (problem: ReturnType<typeof buildProblem>, s: number): number => problem.stops[s]!.location;
const depot = (problem: ReturnType<typeof buildProblem>): number => problem.vehicles[0]!.startLocation;

describe('time windows', () => {
  it('service must finish inside the window', () => {
    const probe = buildProblem({ vehicles: [{ start: DEPOT, shiftStart: '08:00' }], stops: [{ at: east(10) }] });
    const t = leg(probe, depot(probe), at(probe, 0));
    const arrival = clock('08:00') + t;
    const make = (durationMin: number) =>
      buildProblem({
        vehicles: [{ start: DEPOT, shiftStart: '08:00' }],
        stops: [{ at: east(10), windows: [[arrival, arrival + 20 * MIN]], durationMin }],
      });
    const fits = scheduleRoute(make(20), 0, [0]);
    expect(fits).not.toBeNull();
    expect(stopVisits(fits!)[0]!.finish).toBe(arrival + 20 * MIN);
    expect(scheduleRoute(make(21), 0, [0])).toBeNull();
  });

  it('a window start without an end means any time after start', () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '08:00' }],
      stops: [{ at: east(5), windows: [['09:00', null]], durationMin: 10 }],
    });
    const visit = stopVisits(scheduleRoute(problem, 0, [0])!)[0]!;
    expect(visit.start).toBe(clock('09:00'));
    const late = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '21:00' }],
      stops: [{ at: east(5), windows: [['09:00', null]], durationMin: 10 }],
    });
    expect(stopVisits(scheduleRoute(late, 0, [0])!)[0]!.start).toBe(clock('21:00') + leg(late, depot(late), at(late, 0)));
  });

  it('several windows mean any one of them', () => {
    const make = (shiftStart: string) =>
      buildProblem({
        vehicles: [{ start: DEPOT, shiftStart }],
        stops: [
          {
            at: east(10),
            windows: [
              ['08:00', '08:10'],
              ['10:00', '11:00'],
            ],
            durationMin: 5,
          },
        ],
      });
    const early = make('07:30');
    expect(stopVisits(scheduleRoute(early, 0, [0])!)[0]!.start).toBe(clock('08:00'));
    // Arriving after the first window can no longer hold the service: the second one is used.
    const later = make('08:00');
    const visit = stopVisits(scheduleRoute(later, 0, [0])!)[0]!;
    expect(visit.start).toBe(clock('10:00'));
    expect(visit.late).toBe(0);
  });

  it('with a lateness allowance the least late window is used', () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '08:00' }],
      stops: [
        {
          at: east(10),
          windows: [
            ['07:00', '08:05'],
            ['06:00', '08:08'],
          ],
          durationMin: 5,
          maxLatenessMin: 60,
        },
      ],
    });
    const t = leg(problem, depot(problem), at(problem, 0));
    const visit = stopVisits(scheduleRoute(problem, 0, [0])!)[0]!;
    expect(visit.start).toBe(clock('08:00') + t);
    expect(visit.late).toBe(clock('08:00') + t + 5 * MIN - clock('08:08'));
  });

  it('bounded lateness is a hard limit', () => {
    const probe = buildProblem({ vehicles: [{ start: DEPOT, shiftStart: '08:00' }], stops: [{ at: east(10) }] });
    const arrival = clock('08:00') + leg(probe, depot(probe), at(probe, 0));
    const make = (lateByMin: number) =>
      buildProblem({
        vehicles: [{ start: DEPOT, shiftStart: '08:00' }],
        stops: [{ at: east(10), windows: [[0, arrival - lateByMin * MIN]], maxLatenessMin: 10 }],
      });
    const ok = scheduleRoute(make(9), 0, [0]);
    expect(ok).not.toBeNull();
    expect(ok!.lateness).toBe(9 * MIN);
    expect(scheduleRoute(make(11), 0, [0])).toBeNull();
  });

  it('unbounded lateness is allowed but minimised', async () => {
    // Two stops both wanting 08:30; serving either first makes the other late. The solver must
    // pick an order (any) and keep lateness at the unavoidable minimum, never drop a stop.
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '08:00' }],
      stops: [
        { at: east(10), windows: [['08:00', '08:30']], durationMin: 20, maxLatenessMin: Infinity },
        { at: east(10.5), windows: [['08:00', '08:30']], durationMin: 20, maxLatenessMin: Infinity },
      ],
    });
    const result = await solve(problem, { timeLimitMs: 5000, seed: 0, maxIterations: 50 });
    expect(result.unserved).toEqual([]);
    const best = Math.min(scheduleRoute(problem, 0, [0, 1])!.lateness, scheduleRoute(problem, 0, [1, 0])!.lateness);
    expect(result.routes[0]!.lateness).toBe(best);
    expect(best).toBeGreaterThan(0);
  });
});

describe('breaks', () => {
  it('break pauses travel', () => {
    const probe = buildProblem({ vehicles: [{ start: DEPOT }], stops: [{ at: east(12) }] });
    const t = leg(probe, depot(probe), at(probe, 0));
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: clock('12:00') - Math.floor(t / 2), breaks: [['12:00', '12:30']] }],
      stops: [{ at: east(12), durationMin: 5 }],
    });
    const route = scheduleRoute(problem, 0, [0])!;
    const visit = stopVisits(route)[0]!;
    expect(visit.travel).toBe(t);
    expect(visit.arrival).toBe(clock('12:00') - Math.floor(t / 2) + t + 30 * MIN);
    expect(route.breakTime).toBe(30 * MIN);
    expect(route.visits[0]).toEqual({ kind: 'break', start: clock('12:00'), finish: clock('12:30') });
  });

  it('a service is not split by a break', () => {
    const probe = buildProblem({ vehicles: [{ start: DEPOT }], stops: [{ at: east(5) }] });
    const t = leg(probe, depot(probe), at(probe, 0));
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: clock('11:55') - t, breaks: [['12:00', '12:30']] }],
      stops: [{ at: east(5), durationMin: 10 }],
    });
    const route = scheduleRoute(problem, 0, [0])!;
    const visit = stopVisits(route)[0]!;
    expect(visit.arrival).toBe(clock('11:55'));
    expect(visit.start).toBe(clock('12:30'));
    expect(route.visits.map((x) => x.kind)).toEqual(['break', 'stop']);
    expect(route.working).toBe(route.driving + route.service + route.waiting + route.breakTime);
  });

  it('departing during a break waits for its end', () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '12:10', flexibleStart: false, breaks: [['12:00', '12:30']] }],
      stops: [{ at: east(5), durationMin: 10 }],
    });
    const route = scheduleRoute(problem, 0, [0])!;
    expect(route.start).toBe(clock('12:30'));
    expect(route.breakTime).toBe(0);
  });

  it('route entirely before a break ignores it', () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '08:00', breaks: [['12:00', '12:30']] }],
      stops: [{ at: east(5), durationMin: 10 }],
    });
    const route = scheduleRoute(problem, 0, [0])!;
    expect(route.end).toBeLessThan(clock('12:00'));
    expect(route.breakTime).toBe(0);
    expect(route.visits.every((x) => x.kind === 'stop')).toBe(true);
  });

  it('route entirely after a break ignores it', () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '13:00', breaks: [['12:00', '12:30']] }],
      stops: [{ at: east(5), durationMin: 10 }],
    });
    const route = scheduleRoute(problem, 0, [0])!;
    expect(route.breakTime).toBe(0);
    expect(route.visits).toHaveLength(1);
  });

  it('a break during waiting counts as break time, not waiting', () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '11:00', flexibleStart: false, breaks: [['12:00', '12:30']] }],
      stops: [{ at: east(5), windows: [['13:00', '14:00']], durationMin: 10 }],
    });
    const route = scheduleRoute(problem, 0, [0])!;
    expect(route.breakTime).toBe(30 * MIN);
    expect(route.waiting).toBe(route.working - route.driving - route.service - 30 * MIN);
    expect(route.visits.map((x) => x.kind)).toEqual(['break', 'stop']);
  });
});

describe('departure', () => {
  const windowed = (vehicle: Parameters<typeof buildProblem>[0]['vehicles'][0]) =>
    buildProblem({ vehicles: [vehicle], stops: [{ at: east(10), windows: [['10:00', '11:00']], durationMin: 10 }] });

  it('strict start departs exactly at shift start', () => {
    const problem = windowed({ start: DEPOT, shiftStart: '08:00', flexibleStart: false });
    const route = scheduleRoute(problem, 0, [0])!;
    expect(route.start).toBe(clock('08:00'));
    expect(route.waiting).toBe(clock('10:00') - clock('08:00') - leg(problem, depot(problem), at(problem, 0)));
  });

  it('flexible start departs later to remove waiting', () => {
    const problem = windowed({ start: DEPOT, shiftStart: '08:00', flexibleStart: true });
    const route = scheduleRoute(problem, 0, [0])!;
    expect(route.start).toBe(clock('10:00') - leg(problem, depot(problem), at(problem, 0)));
    expect(route.waiting).toBe(0);
  });

  it('no shift start: the route departs as late as helps', () => {
    const problem = windowed({ start: DEPOT });
    const route = scheduleRoute(problem, 0, [0])!;
    expect(route.start).toBe(clock('10:00') - leg(problem, depot(problem), at(problem, 0)));
  });

  it('flexible start never makes a stop late or the route end later', () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '08:00', flexibleStart: true }],
      stops: [
        { at: east(5), windows: [['08:00', '08:40']], durationMin: 10 },
        { at: east(10), windows: [['11:00', '12:00']], durationMin: 10 },
      ],
    });
    const flexible = scheduleRoute(problem, 0, [0, 1])!;
    const first = stopVisits(flexible)[0]!;
    expect(first.finish).toBe(clock('08:40'));
    expect(first.late).toBe(0);
    const strict = scheduleRoute(
      buildProblem({
        vehicles: [{ start: DEPOT, shiftStart: '08:00', flexibleStart: false }],
        stops: [
          { at: east(5), windows: [['08:00', '08:40']], durationMin: 10 },
          { at: east(10), windows: [['11:00', '12:00']], durationMin: 10 },
        ],
      }),
      0,
      [0, 1],
    )!;
    expect(flexible.end).toBe(strict.end);
    expect(flexible.working).toBeLessThan(strict.working);
  });
});

describe('shift end and overtime', () => {
  it('shift end with an end location bounds the arrival there', () => {
    const probe = buildProblem({ vehicles: [{ start: DEPOT }], stops: [{ at: east(10) }] });
    const round = 2 * leg(probe, depot(probe), at(probe, 0)) + 10 * MIN;
    const make = (extra: number) =>
      buildProblem({
        vehicles: [{ start: DEPOT, shiftStart: 8 * H, flexibleStart: false, shiftEnd: 8 * H + round + extra }],
        stops: [{ at: east(10), durationMin: 10 }],
      });
    expect(scheduleRoute(make(0), 0, [0])!.end).toBe(8 * H + round);
    expect(scheduleRoute(make(-1), 0, [0])).toBeNull();
  });

  it('open route: shift end bounds the last service finish', () => {
    const probe = buildProblem({ vehicles: [{ start: DEPOT }], stops: [{ at: east(10) }] });
    const finish = 8 * H + leg(probe, depot(probe), at(probe, 0)) + 10 * MIN;
    const make = (shiftEnd: number) =>
      buildProblem({
        vehicles: [{ start: DEPOT, end: null, shiftStart: 8 * H, flexibleStart: false, shiftEnd }],
        stops: [{ at: east(10), durationMin: 10 }],
      });
    const route = scheduleRoute(make(finish), 0, [0])!;
    expect(route.end).toBe(finish);
    expect(route.endTravel).toBe(0);
    expect(route.endDistance).toBe(0);
    expect(scheduleRoute(make(finish - 1), 0, [0])).toBeNull();
  });

  it('bounded overtime is a hard limit and is reported', () => {
    const probe = buildProblem({ vehicles: [{ start: DEPOT }], stops: [{ at: east(10) }] });
    const end = 8 * H + 2 * leg(probe, depot(probe), at(probe, 0)) + 10 * MIN;
    const make = (maxOvertimeMin: number) =>
      buildProblem({
        vehicles: [{ start: DEPOT, shiftStart: 8 * H, flexibleStart: false, shiftEnd: end - 10 * MIN, maxOvertimeMin }],
        stops: [{ at: east(10), durationMin: 10 }],
      });
    expect(scheduleRoute(make(10), 0, [0])!.overtime).toBe(10 * MIN);
    expect(scheduleRoute(make(9), 0, [0])).toBeNull();
    expect(scheduleRoute(make(Infinity), 0, [0])!.overtime).toBe(10 * MIN);
  });
});

describe('capacity, squashing, compatibility', () => {
  it('capacity is kept per dimension; a dimension missing from the capacity is unconstrained', () => {
    const problem = buildProblem({
      dimensions: ['weight', 'volume'],
      vehicles: [
        { start: DEPOT, capacity: [10, 1] },
        { start: DEPOT, capacity: [10, Infinity] },
      ],
      stops: [
        { at: east(3), load: [5, 0.6] },
        { at: east(4), load: [5, 0.6] },
      ],
    });
    expect(scheduleRoute(problem, 0, [0])).not.toBeNull();
    expect(scheduleRoute(problem, 0, [0, 1])).toBeNull();
    const second = scheduleRoute(problem, 1, [0, 1])!;
    expect(Array.from(second.load)).toEqual([10, 1.2]);
    expect(Array.from(stopVisits(second)[0]!.loadAfter)).toEqual([5, 0.6]);
  });

  it('allowCapacityOverload lets a route exceed capacity, counted as overload', () => {
    const problem = buildProblem({
      allowOverload: true,
      vehicles: [{ start: DEPOT, capacity: 3 }],
      stops: [
        { at: east(3), load: 2 },
        { at: east(4), load: 2 },
      ],
    });
    expect(scheduleRoute(problem, 0, [0, 1])!.overload).toBe(1);
  });

  it('squashDuration shortens consecutive orders at the same location', () => {
    const problem = buildProblem({
      squashMin: 2,
      vehicles: [{ start: DEPOT, shiftStart: '08:00', flexibleStart: false }],
      stops: [
        { at: east(3), durationMin: 10 },
        { at: east(3), durationMin: 10 },
        { at: east(4), durationMin: 10 },
        { at: east(3), durationMin: 1 },
      ],
    });
    const visits = stopVisits(scheduleRoute(problem, 0, [0, 1, 2, 3])!);
    expect(visits.map((x) => x.finish - x.start)).toEqual([10 * MIN, 2 * MIN, 10 * MIN, 1 * MIN]);
    const alone = stopVisits(scheduleRoute(problem, 0, [0, 2, 1])!);
    expect(alone.map((x) => x.finish - x.start)).toEqual([10 * MIN, 10 * MIN, 10 * MIN]);
  });

  it('types any-of', async () => {
    const problem = buildProblem({
      surface: 'project',
      vehicles: [{ start: DEPOT, labels: ['fridge'] }, { start: DEPOT, labels: ['lift', 'van'] }, { start: DEPOT }],
      stops: [{ at: east(3), labels: ['lift', 'crane'] }, { at: east(4), labels: ['crane'] }, { at: east(5) }],
    });
    expect(scheduleRoute(problem, 0, [0])).toBeNull();
    expect(scheduleRoute(problem, 1, [0])).not.toBeNull();
    expect(scheduleRoute(problem, 2, [0])).toBeNull();
    expect(scheduleRoute(problem, 2, [2])).not.toBeNull();
    const result = await solve(problem, { timeLimitMs: 5000, seed: 0, maxIterations: 20 });
    expect(result.routes.find((r) => stopVisits(r).some((x) => x.stop === 0))!.vehicle).toBe(1);
    expect(reasonOf(result, 1)).toBe('no_compatible_vehicle');
  });

  it('tags all-of', () => {
    const problem = buildProblem({
      surface: 'oneoff',
      vehicles: [
        { start: DEPOT, labels: ['a'] },
        { start: DEPOT, labels: ['a', 'b', 'c'] },
      ],
      stops: [{ at: east(3), labels: ['a', 'b'] }],
    });
    expect(scheduleRoute(problem, 0, [0])).toBeNull();
    expect(scheduleRoute(problem, 1, [0])).not.toBeNull();
  });

  it('travel uses the vehicle speed profile and distance the distance matrix', () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT }, { start: DEPOT, speed: 0.5 }],
      stops: [{ at: east(10) }],
    });
    const fast = scheduleRoute(problem, 0, [0])!;
    const slow = scheduleRoute(problem, 1, [0])!;
    expect(slow.driving).toBeGreaterThanOrEqual(2 * fast.driving - 2);
    expect(slow.distance).toBe(fast.distance);
    expect(fast.distance).toBe(2 * problem.travel.distance[depot(problem) * problem.travel.size + at(problem, 0)]!);
  });
});

describe('scheduleRoute input checks', () => {
  it('rejects repeated, unknown, location-less and incompatible stops', () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, labels: [] }],
      stops: [{ at: east(3) }, { at: null }, { at: west(3), labels: ['x'] }],
    });
    expect(scheduleRoute(problem, 0, [0, 0])).toBeNull();
    expect(scheduleRoute(problem, 0, [7])).toBeNull();
    expect(scheduleRoute(problem, 0, [1])).toBeNull();
    expect(scheduleRoute(problem, 0, [2])).toBeNull();
    expect(scheduleRoute(problem, 3, [0])).toBeNull();
  });

  it('serves every served stop exactly once in solve', async () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT }, { start: DEPOT }],
      stops: [{ at: east(3) }, { at: west(3) }, { at: east(6) }],
    });
    const result = await solve(problem, { timeLimitMs: 5000, seed: 0, maxIterations: 20 });
    expect(servedStops(result)).toEqual([0, 1, 2]);
  });
});
