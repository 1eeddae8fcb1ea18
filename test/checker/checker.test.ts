/**
 * The checker is only worth something if it catches violations: each test takes the hand-built
 * feasible plan of fixture.ts, breaks one rule, and expects exactly that rule to be reported.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import type { Plan, PlanRoute, PlanStopVisit } from '../../src/output/plan-types.js';
import {
  checkPlan,
  findInsertableUnserved,
  findPriorityExchanges,
  findRemovableRoutes,
  simulatePlanSequences,
} from '../support/checker.js';
import { fixturePlan, fixtureProblem } from './fixture.js';

const H = 3600;

function stopVisit(plan: Plan, route: number, visit: number): PlanStopVisit {
  const v = plan.routes[route]!.visits[visit]!;
  if (v.kind !== 'stop') throw new Error('fixture: not a stop visit');
  return v;
}

/** Every violation matches `pattern`, and there is at least one. */
function expectOnly(violations: string[], pattern: RegExp): void {
  expect(violations.length, 'expected a violation').toBeGreaterThan(0);
  for (const v of violations) expect(v).toMatch(pattern);
}

/** Some violation matches `pattern` (for mutations whose effects necessarily cascade). */
function expectReported(violations: string[], pattern: RegExp): void {
  expect(
    violations.some((v) => pattern.test(v)),
    `no violation matches ${pattern}:\n${violations.join('\n')}`,
  ).toBe(true);
}

function check(problem: Problem, plan: Plan): string[] {
  return checkPlan(problem, plan);
}

describe('checker baseline', () => {
  it('accepts the hand-built feasible plan', () => {
    expect(check(fixtureProblem(), fixturePlan())).toEqual([]);
  });

  it('finds no insertable unserved stop in the hand-built plan', () => {
    expect(findInsertableUnserved(fixtureProblem(), fixturePlan())).toEqual([]);
    expect(simulatePlanSequences(fixtureProblem(), fixturePlan())).toEqual([]);
  });
});

describe('time windows', () => {
  it('service must start inside a window: reports a start before the window opens', () => {
    const problem = fixtureProblem();
    problem.stops[0]!.windows = [{ start: 9 * H + 60, end: 11 * H }];
    expectOnly(check(problem, fixturePlan()), /stop 0 "A".*fits no window/);
  });

  it('service must finish by the window end (start by T − d)', () => {
    const problem = fixtureProblem();
    problem.stops[0]!.windows = [{ start: 9 * H, end: 9 * H + 1199 }];
    expectOnly(check(problem, fixturePlan()), /stop 0 "A".*fits no window/);
  });

  it('several windows mean any one of them', () => {
    const problem = fixtureProblem();
    problem.stops[0]!.windows = [
      { start: 7 * H, end: 8 * H },
      { start: 9 * H, end: 9.5 * H },
    ];
    expect(check(problem, fixturePlan())).toEqual([]);
  });

  it('bounded lateness: finishing within max lateness is allowed but late_s must say how late', () => {
    const problem = fixtureProblem();
    problem.stops[0]!.windows = [{ start: 9 * H, end: 9 * H + 600 }];
    problem.stops[0]!.maxLateness = 600;
    expectOnly(check(problem, fixturePlan()), /late_s 0, expected 600|lateness_s = 0 \(units\), recomputed 600/);
    const plan = fixturePlan();
    stopVisit(plan, 0, 0).late_s = 600;
    plan.routes[0]!.lateness_s = 600;
    plan.summary.lateness_s = 600;
    expect(check(problem, plan)).toEqual([]);
  });

  it('bounded lateness: finishing later than max lateness is a violation', () => {
    const problem = fixtureProblem();
    problem.stops[0]!.windows = [{ start: 9 * H, end: 9 * H + 600 }];
    problem.stops[0]!.maxLateness = 599;
    expectReported(check(problem, fixturePlan()), /stop 0 "A".*fits no window.*max lateness 599/);
  });

  it('service before arrival is reported', () => {
    const plan = fixturePlan();
    const b = stopVisit(plan, 0, 1);
    b.start_s = 33800;
    b.finish_s = 35600;
    b.start = '09:23';
    b.finish = '09:53';
    expectReported(check(fixtureProblem(), plan), /stop 1 "B".*starts at 33800 before arrival 33900/);
  });
});

describe('breaks', () => {
  it('no service inside a break: a service overlapping the break is reported', () => {
    const problem = fixtureProblem();
    problem.vehicles[0]!.breaks = [{ start: 35000, end: 35600 }];
    expectReported(check(problem, fixturePlan()), /stop 1 "B".*overlaps break \[35000, 35600\]/);
  });

  it('no driving inside a break: arriving as if the break did not pause the travel is reported', () => {
    const plan = fixturePlan();
    const c = stopVisit(plan, 0, 3);
    c.arrival_s = 36300;
    c.arrival = '10:05';
    expectOnly(check(fixtureProblem(), plan), /stop 2 "C".*arrival 36300, expected 38100/);
  });

  it('a break inside the route must be listed', () => {
    const plan = fixturePlan();
    plan.routes[0]!.visits.splice(2, 1);
    expectOnly(check(fixtureProblem(), plan), /break \[36000, 37800\] falls inside the route but is not listed/);
  });

  it('a listed break must be one of the vehicle breaks', () => {
    const plan = fixturePlan();
    const brk = plan.routes[0]!.visits[2]!;
    if (brk.kind !== 'break') throw new Error('fixture');
    brk.start_s = 36060;
    brk.start = '10:01';
    expectReported(check(fixtureProblem(), plan), /\(break\): \[36060, 37800\] is not one of the vehicle's breaks/);
  });

  it('breaks are listed in time order', () => {
    const plan = fixturePlan();
    const [brk] = plan.routes[0]!.visits.splice(2, 1);
    plan.routes[0]!.visits.push(brk!);
    expectOnly(check(fixtureProblem(), plan), /not in time order/);
  });
});

describe('capacity and compatibility', () => {
  it('capacity per dimension: an over-full route is reported', () => {
    const problem = fixtureProblem();
    problem.vehicles[0]!.capacity = Float64Array.of(8);
    expectOnly(check(problem, fixturePlan()), /load 9 on dimension "" exceeds capacity 8/);
  });

  it('allowCapacityOverload makes capacity soft; each route and the summary report the overload per dimension', () => {
    const problem = fixtureProblem();
    problem.vehicles[0]!.capacity = Float64Array.of(8);
    problem.allowOverload = true;
    const plan = fixturePlan();
    expectReported(check(problem, plan), /overload undefined, expected 1/);
    for (const route of plan.routes) route.overload = route.vehicle_index === 0 ? 1 : 0;
    plan.summary.overload = 1;
    expect(check(problem, plan)).toEqual([]);
    plan.summary.overload = 0;
    expectOnly(check(problem, plan), /summary\.overload 0, expected 1/);
  });

  it('without allowCapacityOverload a plan reports no overload', () => {
    const plan = fixturePlan();
    plan.summary.overload = 0;
    expectOnly(check(fixtureProblem(), plan), /summary\.overload is given but overload is not allowed/);
  });

  it('load_after must be cumulative', () => {
    const plan = fixturePlan();
    stopVisit(plan, 0, 1).load_after = 4;
    expectOnly(check(fixtureProblem(), plan), /stop 1 "B".*load_after 4, expected 7/);
  });

  it('object loads are matched by dimension name', () => {
    const problem = fixtureProblem();
    problem.dimensions = ['weight'];
    const plan = fixturePlan();
    expectReported(check(problem, plan), /no scalar dimension/);
    for (const route of plan.routes) {
      for (const v of route.visits) if (v.kind === 'stop') v.load_after = { weight: v.load_after as number };
      route.load = { weight: route.load as number };
    }
    expect(check(problem, plan)).toEqual([]);
  });

  it('compatibility (types any-of / tags all-of): a stop on an incompatible vehicle is reported', () => {
    const problem = fixtureProblem();
    problem.compatible[0 * 7 + 1] = 0;
    expectOnly(check(problem, fixturePlan()), /stop 1 "B".*not compatible/);
  });
});

describe('travel legs', () => {
  it('a wrong travel time is reported with the expected value', () => {
    const plan = fixturePlan();
    stopVisit(plan, 0, 1).travel_s = 301;
    expectReported(check(fixtureProblem(), plan), /stop 1 "B".*leg travel 301\/distance 3000, expected travel 300\/distance 3000/);
  });

  it('a wrong leg distance is reported', () => {
    const plan = fixturePlan();
    stopVisit(plan, 0, 0).distance_m = 6001;
    expectReported(check(fixtureProblem(), plan), /stop 0 "A".*distance 6001, expected travel 600\/distance 6000/);
  });

  it('the vehicle speed profile is used (the bike is slower)', () => {
    const problem = fixtureProblem();
    problem.vehicles[1]!.profile = 0;
    expectReported(check(problem, fixturePlan()), /stop 4 "E".*expected travel 200/);
  });

  it('a wrong end leg is reported', () => {
    const plan = fixturePlan();
    plan.routes[0]!.end.travel_s = 1100;
    expectReported(check(fixtureProblem(), plan), /end leg travel 1100/);
  });
});

describe('coverage', () => {
  it('each stop served at most once: a duplicate is reported', () => {
    const plan = fixturePlan();
    const bike = plan.routes[1]!;
    bike.visits.push({ ...stopVisit(plan, 0, 4) });
    expectReported(check(fixtureProblem(), plan), /stop 3 "D".*served twice/);
  });

  it('served ∪ unserved covers every stop: a missing stop is reported', () => {
    const plan = fixturePlan();
    plan.unserved.pop();
    plan.summary.unserved = 1;
    expectOnly(check(fixtureProblem(), plan), /stop 6 "G" is neither served nor unserved/);
  });

  it('a stop both served and unserved is reported', () => {
    const plan = fixturePlan();
    plan.unserved.splice(1, 0, { stop: 'F', stop_index: 5, reason: 'no_compatible_vehicle', message: 'x' });
    plan.unserved[1] = { stop: 'A', stop_index: 0, reason: 'dropped_for_capacity_or_time', message: 'x' };
    plan.unserved.sort((a, b) => a.stop_index - b.stop_index);
    plan.summary.unserved = 3;
    expectOnly(check(fixtureProblem(), plan), /unserved stop 0 "A": (both served|unserved list not in stop order)/);
  });

  it('stop_index and name must agree', () => {
    const plan = fixturePlan();
    stopVisit(plan, 0, 1).stop = 'Bee';
    expectOnly(check(fixtureProblem(), plan), /name "Bee" != "B"/);
  });

  it('vehicle_index and vehicle name must agree', () => {
    const plan = fixturePlan();
    plan.routes[1]!.vehicle = 'Van';
    expectOnly(check(fixtureProblem(), plan), /vehicle name "Van" != "Bike"/);
  });

  it("a stop location must be the stop's point", () => {
    const plan = fixturePlan();
    stopVisit(plan, 0, 1).location = { lat: 52.52, lng: 13.41 };
    expectOnly(check(fixtureProblem(), plan), /stop 1 "B".*location .* is not the stop's/);
  });

  it('passthrough fields are carried unchanged', () => {
    const plan = fixturePlan();
    delete stopVisit(plan, 0, 0).notes;
    expectOnly(check(fixtureProblem(), plan), /passthrough field "notes"/);
  });
});

describe('routes', () => {
  it('a vehicle drives at most one route', () => {
    const plan = fixturePlan();
    plan.routes[1]!.vehicle_index = 0;
    plan.routes[1]!.vehicle = 'Van';
    expectReported(check(fixtureProblem(), plan), /route 1 \(Van\): vehicle_index 0 used by two routes/);
  });

  it('a route serves at least one stop', () => {
    const plan = fixturePlan();
    const bike = plan.routes[1]!;
    bike.visits = [];
    expectReported(check(fixtureProblem(), plan), /route 1 \(Bike\): route serves no stop/);
  });

  it('a vehicle_index or stop_index out of range is reported', () => {
    const plan = fixturePlan();
    plan.routes[1]!.vehicle_index = 9;
    expectReported(check(fixtureProblem(), plan), /vehicle_index 9 does not exist/);
    const other = fixturePlan();
    stopVisit(other, 0, 1).stop_index = 70;
    expectReported(check(fixtureProblem(), other), /stop_index 70 does not exist/);
  });

  it('a break listed outside the route is reported', () => {
    const problem = fixtureProblem();
    problem.vehicles[1]!.breaks = [{ start: 8 * H, end: 8.5 * H }];
    const plan = fixturePlan();
    plan.routes[1]!.visits.unshift({ kind: 'break', start_s: 8 * H, finish_s: 8.5 * H, start: '08:00', finish: '08:30' });
    expectReported(check(problem, plan), /break \[28800, 30600\] listed but outside the route/);
  });

  it('an unserved stop listed twice is reported', () => {
    const plan = fixturePlan();
    plan.unserved.push({ ...plan.unserved[1]! });
    plan.summary.unserved = 3;
    expectReported(check(fixtureProblem(), plan), /unserved stop 6 "G": listed twice as unserved/);
  });
});

describe('shift start and end', () => {
  it('strict start during a break: departing at the break end is the same departure', () => {
    const problem = fixtureProblem();
    const bike = problem.vehicles[1]!;
    bike.flexibleStart = false;
    bike.shiftStartGiven = true;
    bike.earliestStart = 10.5 * H;
    bike.breaks = [{ start: 10.5 * H, end: 39150 }];
    expect(check(problem, fixturePlan())).toEqual([]);
    bike.breaks = [];
    expectOnly(check(problem, fixturePlan()), /strict start: departs at 39150, must depart exactly at 37800/);
  });

  it('departure before the shift start is reported', () => {
    const problem = fixtureProblem();
    problem.vehicles[0]!.earliestStart = 8 * H + 60;
    problem.vehicles[0]!.flexibleStart = true;
    expectReported(check(problem, fixturePlan()), /route 0 \(Van\): departs at 28800 before shift start 28860/);
  });

  it('strict start: the route departs exactly at the shift start', () => {
    const problem = fixtureProblem();
    problem.vehicles[1]!.flexibleStart = false;
    expectOnly(check(problem, fixturePlan()), /route 1 \(Bike\): strict start: departs at 39150, must depart exactly at 0/);
  });

  it('flexible start never idles for nothing: waiting at the first stop is reported', () => {
    const plan = fixturePlan();
    const bike = plan.routes[1]!;
    bike.start = { ...bike.start, time_s: 39000, time: '10:50' };
    const e = stopVisit(plan, 1, 0);
    e.arrival_s = 39450;
    e.arrival = '10:57';
    bike.working_s = 1200;
    bike.waiting_s = 150;
    plan.summary.working_s += 150;
    plan.summary.waiting_s += 150;
    expectOnly(check(fixtureProblem(), plan), /route 1 \(Bike\): flexible start but waits 150 at its first stop/);
  });

  it('shift end with an end location is the latest arrival there', () => {
    const problem = fixtureProblem();
    problem.vehicles[0]!.shiftEnd = 11 * H;
    expectReported(check(problem, fixturePlan()), /route 0 \(Van\): ends at 40200, past shift end 39600 \+ allowed overtime 0/);
  });

  it('open route: shift end is the latest finish of the last service', () => {
    const problem = fixtureProblem();
    problem.vehicles[1]!.shiftEnd = 11 * H + 599;
    expectReported(check(problem, fixturePlan()), /route 1 \(Bike\): ends at 40200, past shift end 40199/);
  });

  it('overtime within the allowance is allowed, and overtime_s must report it', () => {
    const problem = fixtureProblem();
    problem.vehicles[0]!.shiftEnd = 11 * H;
    problem.vehicles[0]!.maxOvertime = 600;
    expectOnly(check(problem, fixturePlan()), /route 0 \(Van\): overtime_s = 0 \(units\), recomputed 600/);
  });

  it('an open route ends at the last service finish with location null', () => {
    const plan = fixturePlan();
    plan.routes[1]!.end.location = { lat: 52.49, lng: 13.39 };
    expectOnly(check(fixtureProblem(), plan), /open route must end with location null/);
  });

  it('end time must be the arrival at the end location', () => {
    const plan = fixturePlan();
    plan.routes[0]!.end.time_s = 40260;
    plan.routes[0]!.end.time = '11:11';
    expectReported(check(fixtureProblem(), plan), /route 0 \(Van\): end time 40260, expected 40200/);
  });
});

describe('durations', () => {
  it('duration = stop duration: a short service is reported', () => {
    const plan = fixturePlan();
    const b = stopVisit(plan, 0, 1);
    b.finish_s = 35640;
    b.finish = '09:54';
    expectReported(check(fixtureProblem(), plan), /stop 1 "B".*lasts 1740, expected duration 1800/);
  });

  it('squashDuration: without squashing the same-place stop D keeps its full duration', () => {
    const problem = fixtureProblem();
    problem.squashDuration = null;
    expectOnly(check(problem, fixturePlan()), /stop 3 "D".*lasts 300, expected duration 900/);
  });
});

describe('totals and clocks', () => {
  it('numbers are finite (a NaN or Infinity becomes null in JSON)', () => {
    const plan = fixturePlan();
    plan.routes[0]!.overtime_s = Infinity;
    plan.summary.overtime_s = Infinity;
    expectReported(check(fixtureProblem(), plan), /routes\[0\]\.overtime_s = Infinity is not a finite number/);
    const roundTripped = JSON.parse(JSON.stringify(plan)) as Plan;
    expectReported(check(fixtureProblem(), roundTripped), /summary\.overtime_s = null is not a finite number/);
  });

  it('summary totals must add up', () => {
    const plan = fixturePlan();
    plan.summary.distance_m += 1;
    expectOnly(check(fixtureProblem(), plan), /summary\.distance_m = 29001, expected 29000/);
  });

  it('priority_served sums the priorities of served stops', () => {
    const plan = fixturePlan();
    plan.summary.priority_served = 25;
    expectOnly(check(fixtureProblem(), plan), /summary\.priority_served = 25, expected 26/);
  });

  it('route totals must match the visits', () => {
    const plan = fixturePlan();
    plan.routes[0]!.driving_s = 2600;
    plan.summary.driving_s -= 100;
    expectOnly(check(fixtureProblem(), plan), /route 0 \(Van\): driving_s = 2600 \(units\), recomputed 2700/);
  });

  it('waiting = working − driving − service − break', () => {
    const plan = fixturePlan();
    plan.routes[0]!.waiting_s = 2900;
    plan.summary.waiting_s -= 100;
    expectOnly(check(fixtureProblem(), plan), /waiting_s = 2900 \(units\), recomputed 3000/);
  });

  it('HH:mm strings must match the seconds', () => {
    const plan = fixturePlan();
    stopVisit(plan, 0, 0).arrival = '08:11';
    expectOnly(check(fixtureProblem(), plan), /stop 0 "A"\) arrival: clock "08:11" does not match 29400 s \(expected "08:10"\)/);
  });

  it('HH:mm rounds seconds down (10:52:30 shows 10:52)', () => {
    const plan = fixturePlan();
    plan.routes[1]!.start.time = '10:53';
    expectOnly(check(fixtureProblem(), plan), /route 1 \(Bike\) start: clock "10:53"/);
  });
});

describe('null ETAs', () => {
  function projectWithoutDurations(): Problem {
    const problem = fixtureProblem();
    problem.surface = 'project';
    return problem;
  }

  it('a project stop with a duration must have ETAs', () => {
    const plan = fixturePlan();
    const b = stopVisit(plan, 0, 1);
    b.arrival_s = null;
    b.arrival = null;
    expectOnly(check(projectWithoutDurations(), plan), /stop 1 "B".*null ETA/);
  });

  it('a project stop without a duration has null ETAs', () => {
    const problem = projectWithoutDurations();
    problem.stops[3]!.duration = 0;
    problem.stops[3]!.durationGiven = false;
    const plan = fixturePlan();
    const d = stopVisit(plan, 0, 4);
    d.finish_s = 38700;
    d.finish = '10:45';
    const van = plan.routes[0]!;
    van.end = { ...van.end, time_s: 39900, time: '11:05' };
    van.service_s -= 300;
    van.working_s -= 300;
    plan.summary.service_s -= 300;
    plan.summary.working_s -= 300;
    expectOnly(check(problem, plan), /stop 3 "D".*must have null ETAs/);
    Object.assign(d, { arrival_s: null, start_s: null, finish_s: null, arrival: null, start: null, finish: null });
    expect(check(problem, plan)).toEqual([]);
  });
});

describe('unserved reasons', () => {
  it('reason codes must come from decisions.md', () => {
    const plan = fixturePlan();
    plan.unserved[0]!.reason = 'nope';
    expectOnly(check(fixtureProblem(), plan), /unknown reason code "nope"/);
  });

  it('a static reason must hold: duration_exceeds_window for a stop whose duration fits is wrong', () => {
    const plan = fixturePlan();
    plan.unserved[0]!.reason = 'duration_exceeds_window';
    expectOnly(check(fixtureProblem(), plan), /unserved stop 5 "F": reason "duration_exceeds_window" is wrong/);
  });

  it('dropped_for_capacity_or_time is wrong for a stop that cannot be served even alone', () => {
    const plan = fixturePlan();
    plan.unserved[1]!.reason = 'dropped_for_capacity_or_time';
    expectOnly(check(fixtureProblem(), plan), /unserved stop 6 "G": reason "dropped_for_capacity_or_time" is wrong/);
  });
});

describe('findInsertableUnserved', () => {
  it('reports an unserved stop that fits into an existing route as is', () => {
    const problem = fixtureProblem();
    problem.stops[6]!.windows = [{ start: 9 * H, end: 11 * H }];
    const found = findInsertableUnserved(problem, fixturePlan());
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/unserved stop 6 "G".*fits into the route of vehicle 0/);
  });

  it('reports an unserved stop that fits on an unused vehicle', () => {
    const problem = fixtureProblem();
    problem.compatible[1 * 7 + 5] = 1;
    const plan: Plan = fixturePlan();
    plan.routes = [plan.routes[0] as PlanRoute];
    const found = findInsertableUnserved(problem, plan);
    expect(found).toEqual(expect.arrayContaining([expect.stringMatching(/stop 5 "F".*alone on unused vehicle 1/)]));
  });

  it('does not report a stop whose insertion would break capacity', () => {
    const problem = fixtureProblem();
    problem.stops[6]!.windows = [{ start: 9 * H, end: 11 * H }];
    problem.stops[6]!.load = Float64Array.of(2);
    problem.compatible[1 * 7 + 6] = 0;
    expect(findInsertableUnserved(problem, fixturePlan())).toEqual([]);
  });
});

describe('objective probes', () => {
  it('findPriorityExchanges: an unserved stop that can replace a lower-priority served stop is reported', () => {
    const problem = fixtureProblem();
    expect(findPriorityExchanges(problem, fixturePlan())).toEqual([]);
    // G (priority 5, 20 min) gets a wide window but the Van is full: 9 + 2 > 10. Dropping D
    // (priority 1, load 1) makes room: +4 priority served.
    problem.stops[6]!.windows = [{ start: 9 * H, end: 11 * H }];
    problem.stops[6]!.load = Float64Array.of(2);
    problem.compatible[1 * 7 + 6] = 0;
    const found = findPriorityExchanges(problem, fixturePlan());
    expect(found).toEqual([
      expect.stringMatching(/unserved stop 6 "G" \(priority 5\) can replace stop 3 \(priority 1\) on vehicle 0: \+4/),
    ]);
  });

  it('findRemovableRoutes: with minimizeRoutes a route whose stops fit elsewhere is reported', () => {
    const problem = fixtureProblem();
    problem.compatible[0 * 7 + 4] = 1;
    problem.vehicles[0]!.capacity = Float64Array.of(12);
    expect(findRemovableRoutes(problem, fixturePlan())).toEqual([]);
    problem.objective.minimizeRoutes = true;
    expect(findRemovableRoutes(problem, fixturePlan())).toEqual([
      expect.stringMatching(/route of vehicle 1 \(1 stops\) can be dissolved into the other routes: vehicle 0: \[0, 1, 4, 2, 3\]/),
    ]);
    problem.vehicles[0]!.capacity = Float64Array.of(10);
    expect(findRemovableRoutes(problem, fixturePlan())).toEqual([]);
  });
});

describe('locks', () => {
  it('a stop locked to a driver must be served by that driver: reports it on another route', () => {
    const problem = fixtureProblem();
    problem.stops[4]!.lock = { driver: 'Van', sequence: null };
    expectReported(check(problem, fixturePlan()), /route.*lock not kept: stop 4 is locked to driver "Van", served by "Bike"/);
  });

  it('the locked stops of one driver keep increasing sequence order: reports two out of order', () => {
    const problem = fixtureProblem();
    problem.stops[0]!.lock = { driver: 'Van', sequence: 2 };
    problem.stops[2]!.lock = { driver: 'Van', sequence: 1 };
    expectOnly(check(problem, fixturePlan()), /lock not kept: stop 2 \(sequence 1\) is served after stop 0 \(sequence 2\)/);
  });

  it('accepts locks the plan keeps, with other stops between and equal sequences', () => {
    const problem = fixtureProblem();
    problem.stops[0]!.lock = { driver: 'Van', sequence: 1 };
    problem.stops[2]!.lock = { driver: 'Van', sequence: 1 };
    problem.stops[3]!.lock = { driver: 'Van', sequence: 4 };
    problem.stops[4]!.lock = { driver: 'Bike', sequence: null };
    expect(check(problem, fixturePlan())).toEqual([]);
  });

  it('an unserved locked stop its driver could serve must be locked_driver_cannot_serve, and only a locked stop has that reason', () => {
    const problem = fixtureProblem();
    problem.stops[5]!.lock = { driver: 'Van', sequence: null };
    expectReported(
      check(problem, fixturePlan()),
      /unserved stop 5 "F": reason "no_compatible_vehicle" is wrong: the stop is locked to "Van"/,
    );
    const plan = fixturePlan();
    plan.unserved[0]!.reason = 'locked_driver_cannot_serve';
    expectOnly(check(fixtureProblem(), plan), /unserved stop 5 "F": reason "locked_driver_cannot_serve" is wrong: the stop is not locked/);
  });
});
