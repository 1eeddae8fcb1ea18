/** A small hand-made problem and solve result for the output tests (no input layer, no solver). */
import type { Problem, Vehicle } from '../../src/model/problem.js';
import type { RouteSchedule, SolveResult, StopVisit } from '../../src/solver/types.js';
import { problemRecord, stopRecord, vehicleRecord } from '../support/problem-builder.js';

/** Both vehicles work a strict 08:00–18:00 day with room for ten. */
function dayShift(): Partial<Vehicle> {
  return { earliestStart: 8 * 3600, shiftStartGiven: true, flexibleStart: false, shiftEnd: 18 * 3600, capacity: Float64Array.of(10) };
}

/** Ten-minute visits unless a stop says otherwise. */
const VISIT = 600;

export function sampleProblem(overrides: Partial<Problem> = {}): Problem {
  const stops = [
    stopRecord({
      index: 0,
      name: 'Café Mercier',
      location: 1,
      duration: VISIT,
      passthrough: { notes: 'ring twice', custom_notes: { order: 'A-17' }, phone_number: '+33600000000' },
    }),
    stopRecord({ index: 1, name: 'Boulangerie <Nord>', location: 2, duration: VISIT, priority: 10 }),
    stopRecord({ index: 2, name: 'Kiosk', location: 3, durationGiven: false, duration: 0 }),
    stopRecord({ index: 3, name: 'Far Away Farm', location: 4, duration: VISIT }),
  ];
  const vehicles = [
    vehicleRecord({ index: 0, name: 'Van A', ...dayShift(), breaks: [{ start: 12 * 3600, end: 12 * 3600 + 1800 }] }),
    vehicleRecord({ index: 1, name: 'Bike B', ...dayShift(), endLocation: -1, speed: 0.4 }),
  ];
  return problemRecord({
    surface: 'project',
    name: 'Bakery',
    date: '2025-03-14',
    locations: [
      { lat: 45.75, lng: 4.85 },
      { lat: 45.76, lng: 4.83 },
      { lat: 45.77, lng: 4.84 },
      { lat: 45.74, lng: 4.86 },
      { lat: 46.9, lng: 5.9 },
    ],
    vehicles,
    stops,
    travel: { size: 5, distance: new Int32Array(25), durations: [new Int32Array(25)] },
    travelSource: { kind: 'geo', roadFactor: 1.3, baseSpeedKmh: 40, traffic: 1 },
    ...overrides,
  });
}

function stopVisit(
  stopIndex: number,
  arrival: number,
  start: number,
  finish: number,
  loadAfter: number[],
  extra: Partial<StopVisit> = {},
): StopVisit {
  return {
    kind: 'stop',
    stop: stopIndex,
    travel: 300,
    distance: 2500,
    arrival,
    start,
    finish,
    late: 0,
    loadAfter: new Float64Array(loadAfter),
    ...extra,
  };
}

export function sampleResult(): SolveResult {
  const h = 3600;
  const routeA: RouteSchedule = {
    vehicle: 0,
    start: 8 * h,
    end: 13 * h,
    endTravel: 420,
    endDistance: 3100,
    visits: [
      stopVisit(0, 8 * h + 300, 8 * h + 300, 8 * h + 900, [1]),
      { kind: 'break', start: 12 * h, finish: 12 * h + 1800 },
      stopVisit(1, 12 * h + 2100, 12 * h + 2100, 12 * h + 2700, [2], { late: 120 }),
    ],
    distance: 8100,
    driving: 1020,
    service: 1200,
    waiting: 9000,
    breakTime: 1800,
    working: 5 * h,
    overtime: 0,
    lateness: 120,
    overload: 0,
    load: new Float64Array([2]),
  };
  const routeB: RouteSchedule = {
    vehicle: 1,
    start: 9 * h,
    end: 9 * h + 600,
    endTravel: 0,
    endDistance: 0,
    visits: [stopVisit(2, 9 * h + 600, 9 * h + 600, 9 * h + 600, [1])],
    distance: 2500,
    driving: 600,
    service: 0,
    waiting: 0,
    breakTime: 0,
    working: 600,
    overtime: 0,
    lateness: 0,
    overload: 0,
    load: new Float64Array([1]),
  };
  return {
    routes: [routeA, routeB],
    unserved: [
      { stop: 3, reason: 'unreachable_in_shift', message: 'no vehicle can reach it and be back by the end of its shift', hints: [] },
    ],
    stats: { elapsedMs: 12, iterations: 100, firstPlanMs: 0, bestFoundMs: 0, seed: 0, threads: 1, stoppedBy: 'iterations' },
  };
}
