/** A small hand-made problem and solve result for the output tests (no input layer, no solver). */
import type { Problem, Stop, Vehicle } from '../../src/model/problem.js';
import type { RouteSchedule, SolveResult, StopVisit } from '../../src/solver/types.js';

function vehicle(index: number, name: string, fields: Partial<Vehicle> = {}): Vehicle {
  return {
    index,
    name,
    startLocation: 0,
    endLocation: 0,
    earliestStart: 8 * 3600,
    shiftStartGiven: true,
    flexibleStart: false,
    shiftEnd: 18 * 3600,
    maxOvertime: 0,
    capacity: new Float64Array([10]),
    speed: 1,
    profile: 0,
    breaks: [],
    labels: [],
    passthrough: {},
    ...fields,
  };
}

function stop(index: number, name: string, location: number, fields: Partial<Stop> = {}): Stop {
  return {
    index,
    name,
    location,
    windows: [{ start: 0, end: Infinity }],
    duration: 600,
    durationGiven: true,
    load: new Float64Array([1]),
    priority: 5,
    maxLateness: 0,
    labels: [],
    passthrough: {},
    ...fields,
  };
}

export function sampleProblem(overrides: Partial<Problem> = {}): Problem {
  const stops = [
    stop(0, 'Café Mercier', 1, { passthrough: { notes: 'ring twice', custom_notes: { order: 'A-17' }, phone_number: '+33600000000' } }),
    stop(1, 'Boulangerie <Nord>', 2, { priority: 10 }),
    stop(2, 'Kiosk', 3, { durationGiven: false, duration: 0 }),
    stop(3, 'Far Away Farm', 4),
  ];
  const vehicles = [
    vehicle(0, 'Van A', { breaks: [{ start: 12 * 3600, end: 12 * 3600 + 1800 }] }),
    vehicle(1, 'Bike B', { endLocation: -1, speed: 0.4 }),
  ];
  return {
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
    dimensions: [''],
    compatible: new Uint8Array(vehicles.length * stops.length).fill(1),
    travel: { size: 5, distance: new Int32Array(25), durations: [new Int32Array(25)] },
    travelSource: { kind: 'geo', roadFactor: 1.3, baseSpeedKmh: 40, traffic: 1 },
    objective: { minimizeRoutes: false, cost: 'time', balance: 'none' },
    squashDuration: null,
    allowOverload: false,
    units: { timePerSecond: 1, distancePerReported: 1 },
    ...overrides,
  };
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
    unserved: [{ stop: 3, reason: 'unreachable_in_shift', message: 'no vehicle can reach it and be back by the end of its shift' }],
    stats: { elapsedMs: 12, iterations: 100, stoppedBy: 'iterations' },
  };
}
