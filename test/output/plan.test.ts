import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/output/plan.js';
import type { PlanBreakVisit, PlanStopVisit } from '../../src/output/plan-types.js';
import { sampleProblem, sampleResult } from './sample.js';

const stopsOf = (visits: unknown[]): PlanStopVisit[] => visits.filter((v) => (v as PlanStopVisit).kind === 'stop') as PlanStopVisit[];

describe('buildPlan (JSON plan contract version 1)', () => {
  it('plan version is 1 and keys come in the contract order', () => {
    const plan = buildPlan(sampleProblem(), sampleResult());
    expect(plan.version).toBe(1);
    // `travel` and `solver` were added to version 1 after its first release: additive, last.
    expect(Object.keys(plan)).toEqual(['version', 'summary', 'routes', 'unserved', 'travel', 'solver']);
    expect(Object.keys(plan.solver!)).toEqual([
      'iterations',
      'first_plan_s',
      'best_found_s',
      'elapsed_s',
      'stop_reason',
      'threads',
      'seed',
    ]);
    expect(plan.travel).toEqual({ source: 'haversine' });
    expect(Object.keys(plan.summary)).toEqual([
      'routes_used',
      'served',
      'unserved',
      'priority_served',
      'distance_m',
      'driving_s',
      'service_s',
      'waiting_s',
      'break_s',
      'working_s',
      'lateness_s',
      'overtime_s',
    ]);
    expect(Object.keys(plan.routes[0]!)).toEqual([
      'vehicle',
      'vehicle_index',
      'start',
      'visits',
      'end',
      'distance_m',
      'driving_s',
      'service_s',
      'waiting_s',
      'break_s',
      'working_s',
      'overtime_s',
      'lateness_s',
      'load',
    ]);
    expect(Object.keys(plan.routes[0]!.end)).toEqual(['time_s', 'time', 'location', 'travel_s', 'distance_m']);
  });

  it('summary totals the routes, counts served and unserved stops and sums served priority', () => {
    const plan = buildPlan(sampleProblem(), sampleResult());
    expect(plan.summary).toMatchObject({
      routes_used: 2,
      served: 3,
      unserved: 1,
      priority_served: 5 + 10 + 5,
      distance_m: 8100 + 2500,
      driving_s: 1020 + 600,
      service_s: 1200,
      waiting_s: 9000,
      break_s: 1800,
      working_s: 5 * 3600 + 600,
      lateness_s: 120,
      overtime_s: 0,
    });
  });

  it('routes carry vehicle name and index, start/end times as seconds with HH:mm twins and locations', () => {
    const plan = buildPlan(sampleProblem(), sampleResult());
    const [van, bike] = plan.routes;
    expect(van!.vehicle).toBe('Van A');
    expect(van!.vehicle_index).toBe(0);
    expect(van!.start).toEqual({ time_s: 28800, time: '08:00', location: { lat: 45.75, lng: 4.85 } });
    expect(van!.end).toEqual({ time_s: 46800, time: '13:00', location: { lat: 45.75, lng: 4.85 }, travel_s: 420, distance_m: 3100 });
    expect(bike!.vehicle).toBe('Bike B');
  });

  it('open route: end location is null', () => {
    const plan = buildPlan(sampleProblem(), sampleResult());
    expect(plan.routes[1]!.end.location).toBeNull();
    expect(plan.routes[1]!.end.time).toBe('09:10');
  });

  it('stop visits carry name, input index, location, leg, times, lateness and load after', () => {
    const plan = buildPlan(sampleProblem(), sampleResult());
    const [first, second] = stopsOf(plan.routes[0]!.visits);
    expect(first).toMatchObject({
      kind: 'stop',
      stop: 'Café Mercier',
      stop_index: 0,
      location: { lat: 45.76, lng: 4.83 },
      travel_s: 300,
      distance_m: 2500,
      arrival_s: 8 * 3600 + 300,
      start_s: 8 * 3600 + 300,
      finish_s: 8 * 3600 + 900,
      arrival: '08:05',
      start: '08:05',
      finish: '08:15',
      late_s: 0,
      load_after: 1,
    });
    expect(second!.late_s).toBe(120);
    expect(second!.load_after).toBe(2);
  });

  it('breaks appear as visits with seconds and HH:mm', () => {
    const plan = buildPlan(sampleProblem(), sampleResult());
    const brk = plan.routes[0]!.visits[1] as PlanBreakVisit;
    expect(brk).toEqual({ kind: 'break', start_s: 43200, finish_s: 45000, start: '12:00', finish: '12:30' });
  });

  it('missing duration: a project stop without a duration has null ETAs', () => {
    const plan = buildPlan(sampleProblem(), sampleResult());
    const kiosk = stopsOf(plan.routes[1]!.visits)[0]!;
    expect(kiosk.stop).toBe('Kiosk');
    expect([kiosk.arrival_s, kiosk.start_s, kiosk.finish_s, kiosk.arrival, kiosk.start, kiosk.finish]).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('missing duration: a one-off order without a duration keeps its ETAs', () => {
    const plan = buildPlan(sampleProblem({ surface: 'oneoff', name: null, date: null }), sampleResult());
    const kiosk = stopsOf(plan.routes[1]!.visits)[0]!;
    expect(kiosk.arrival_s).toBe(9 * 3600 + 600);
    expect(kiosk.arrival).toBe('09:10');
  });

  it('passthrough fields (notes, custom_notes, phone_number…) are copied onto the visit unchanged, after the contract fields', () => {
    const plan = buildPlan(sampleProblem(), sampleResult());
    const cafe = stopsOf(plan.routes[0]!.visits)[0]!;
    expect(cafe.notes).toBe('ring twice');
    expect(cafe.custom_notes).toEqual({ order: 'A-17' });
    expect(cafe.phone_number).toBe('+33600000000');
    expect(Object.keys(cafe).slice(-3)).toEqual(['notes', 'custom_notes', 'phone_number']);
  });

  it('passthrough never overwrites a contract field', () => {
    const problem = sampleProblem();
    problem.stops[0]!.passthrough = { stop: 'spoofed', late_s: 99, email: 'a@b.example' };
    const cafe = stopsOf(buildPlan(problem, sampleResult()).routes[0]!.visits)[0]!;
    expect(cafe.stop).toBe('Café Mercier');
    expect(cafe.late_s).toBe(0);
    expect(cafe.email).toBe('a@b.example');
  });

  it('load: 0 when loads are ignored (no dimensions)', () => {
    const plan = buildPlan(sampleProblem({ dimensions: [] }), sampleResult());
    expect(plan.routes[0]!.load).toBe(0);
    expect(stopsOf(plan.routes[0]!.visits)[0]!.load_after).toBe(0);
  });

  it('load: an object by dimension name when loads are named', () => {
    const problem = sampleProblem({ dimensions: ['weight', 'volume'] });
    const result = sampleResult();
    result.routes[0]!.load = new Float64Array([12, 0.4]);
    (result.routes[0]!.visits[0] as { loadAfter: Float64Array }).loadAfter = new Float64Array([5, 0.1]);
    const plan = buildPlan(problem, result);
    expect(plan.routes[0]!.load).toEqual({ weight: 12, volume: 0.4 });
    expect(stopsOf(plan.routes[0]!.visits)[0]!.load_after).toEqual({ weight: 5, volume: 0.1 });
  });

  it('unserved stops carry name, input index, reason, message, location and hints', () => {
    const problem = sampleProblem();
    const plan = buildPlan(problem, sampleResult());
    const farm = problem.locations[problem.stops[3]!.location]!;
    expect(plan.unserved).toEqual([
      {
        stop: 'Far Away Farm',
        stop_index: 3,
        reason: 'unreachable_in_shift',
        message: 'no vehicle can reach it and be back by the end of its shift',
        location: { lat: farm.lat, lng: farm.lng },
        hints: [],
      },
    ]);
  });

  it('an unserved stop without a location has location null', () => {
    const problem = sampleProblem();
    problem.stops[3] = { ...problem.stops[3]!, location: -1 };
    expect(buildPlan(problem, sampleResult()).unserved[0]!.location).toBeNull();
  });

  it('carried-through fields: phone_number of a driver is copied onto its route, contact fields onto unserved stops', () => {
    const problem = sampleProblem();
    problem.vehicles[0] = { ...problem.vehicles[0]!, passthrough: { phone_number: '+33611111111' } };
    problem.stops[3] = { ...problem.stops[3]!, passthrough: { phone_number: '+33622222222', notes: 'gate code 1234' } };
    const plan = buildPlan(problem, sampleResult());
    expect(plan.routes[0]!.phone_number).toBe('+33611111111');
    expect(plan.unserved[0]).toMatchObject({ phone_number: '+33622222222', notes: 'gate code 1234' });
  });

  it('benchmark units: times ÷ timePerSecond and distances ÷ distancePerReported', () => {
    const problem = sampleProblem({ surface: 'benchmark', units: { timePerSecond: 10, distancePerReported: 10 } });
    const plan = buildPlan(problem, sampleResult());
    expect(plan.summary.distance_m).toBe((8100 + 2500) / 10);
    expect(plan.routes[0]!.start.time_s).toBe(2880);
    expect(stopsOf(plan.routes[0]!.visits)[0]!.travel_s).toBe(30);
    expect(stopsOf(plan.routes[0]!.visits)[0]!.distance_m).toBe(250);
  });

  it('stop index is the input index, not the position in the problem', () => {
    const problem = sampleProblem();
    problem.stops[0] = { ...problem.stops[0]!, index: 41 };
    const plan = buildPlan(problem, sampleResult());
    expect(stopsOf(plan.routes[0]!.visits)[0]!.stop_index).toBe(41);
  });

  it('an empty result gives an empty, valid plan', () => {
    const plan = buildPlan(sampleProblem(), {
      routes: [],
      unserved: [],
      stats: { elapsedMs: 0, iterations: 0, firstPlanMs: 0, bestFoundMs: 0, seed: 0, threads: 1, stoppedBy: 'complete' },
    });
    expect(plan.summary.routes_used).toBe(0);
    expect(plan.summary.distance_m).toBe(0);
    expect(plan.routes).toEqual([]);
  });

  it('the plan survives a JSON round trip unchanged', () => {
    const plan = buildPlan(sampleProblem(), sampleResult());
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
  });
});
