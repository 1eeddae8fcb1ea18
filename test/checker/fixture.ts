/**
 * A small hand-built problem and its feasible plan, every number worked out by hand so that
 * each mutation test changes exactly one thing. Times are seconds since midnight.
 *
 * Van (vehicle 0): strict start 08:00, shift end 12:00 at the depot, capacity 10, break 10:00–10:30.
 *   depot →(600 s) A [wait 08:10–09:00, serve 09:00–09:20]
 *         →(300 s) B [09:25–09:55]
 *         →(600 s, paused by the break: 09:55–10:00 + 10:30–10:35) C [10:35–10:45]
 *         →(0 s, same place, squashed 900 → 300 s) D [10:45–10:50]
 *         →(1200 s) depot 11:10
 * Bike (vehicle 1): open route, flexible start, capacity 2, serves E [11:00–11:10] leaving at 10:52:30.
 * F has a type no vehicle has; G's 20-minute duration does not fit its 10-minute window.
 */
import type { Problem } from '../../src/model/problem.js';
import type { Plan } from '../../src/output/plan-types.js';
import { problemRecord, stopRecord, vehicleRecord } from '../support/problem-builder.js';

const H = 3600;

const DISTANCES: number[][] = [
  [0, 6000, 9000, 12000, 2000],
  [6000, 0, 3000, 7000, 4000],
  [9000, 3000, 0, 6000, 5000],
  [12000, 7000, 6000, 0, 8000],
  [2000, 4000, 5000, 8000, 0],
];

function matrix(scale: number): Int32Array {
  return Int32Array.from(DISTANCES.flat().map((d) => Math.round(d * scale)));
}

export function fixtureProblem(): Problem {
  const vehicles = [
    vehicleRecord({
      index: 0,
      name: 'Van',
      earliestStart: 8 * H,
      shiftStartGiven: true,
      flexibleStart: false,
      shiftEnd: 12 * H,
      capacity: Float64Array.of(10),
      breaks: [{ start: 10 * H, end: 10.5 * H }],
    }),
    vehicleRecord({
      index: 1,
      name: 'Bike',
      endLocation: -1,
      shiftEnd: 13 * H,
      capacity: Float64Array.of(2),
      speed: 0.4,
      profile: 1,
      labels: ['bike'],
    }),
  ];
  const stops = [
    stopRecord({
      index: 0,
      name: 'A',
      location: 1,
      windows: [{ start: 9 * H, end: 11 * H }],
      duration: 1200,
      load: Float64Array.of(3),
      passthrough: { notes: 'ring twice' },
    }),
    stopRecord({ index: 1, name: 'B', location: 2, duration: 1800, load: Float64Array.of(4) }),
    stopRecord({ index: 2, name: 'C', location: 3, windows: [{ start: 10 * H, end: 12 * H }], duration: 600, priority: 10 }),
    stopRecord({ index: 3, name: 'D', location: 3, duration: 900, priority: 1 }),
    stopRecord({ index: 4, name: 'E', location: 4, windows: [{ start: 11 * H, end: 12 * H }], duration: 600, load: Float64Array.of(2) }),
    stopRecord({ index: 5, name: 'F', location: 2, duration: 300, labels: ['fridge'] }),
    stopRecord({ index: 6, name: 'G', location: 1, windows: [{ start: 9 * H, end: 9 * H + 600 }], duration: 1200 }),
  ];
  // prettier-ignore
  const compatible = Uint8Array.from([
    1, 1, 1, 1, 0, 0, 1, // Van
    0, 0, 0, 0, 1, 0, 1, // Bike
  ]);
  return problemRecord({
    locations: [
      { lat: 52.5, lng: 13.4 },
      { lat: 52.51, lng: 13.41 },
      { lat: 52.52, lng: 13.4 },
      { lat: 52.5, lng: 13.43 },
      { lat: 52.49, lng: 13.39 },
    ],
    vehicles,
    stops,
    compatible,
    travel: { size: 5, distance: matrix(1), durations: [matrix(0.1), matrix(0.225)] },
    travelSource: { kind: 'matrix' },
    squashDuration: 300,
  });
}

const DEPOT = { lat: 52.5, lng: 13.4 };

export function fixturePlan(): Plan {
  return {
    version: 1,
    summary: {
      routes_used: 2,
      served: 5,
      unserved: 2,
      priority_served: 26,
      distance_m: 29000,
      driving_s: 3150,
      service_s: 4500,
      waiting_s: 3000,
      break_s: 1800,
      working_s: 12450,
      lateness_s: 0,
      overtime_s: 0,
    },
    routes: [
      {
        vehicle: 'Van',
        vehicle_index: 0,
        start: { time_s: 28800, time: '08:00', location: DEPOT },
        visits: [
          {
            kind: 'stop',
            stop: 'A',
            stop_index: 0,
            location: { lat: 52.51, lng: 13.41 },
            travel_s: 600,
            distance_m: 6000,
            arrival_s: 29400,
            start_s: 32400,
            finish_s: 33600,
            arrival: '08:10',
            start: '09:00',
            finish: '09:20',
            late_s: 0,
            load_after: 3,
            notes: 'ring twice',
          },
          {
            kind: 'stop',
            stop: 'B',
            stop_index: 1,
            location: { lat: 52.52, lng: 13.4 },
            travel_s: 300,
            distance_m: 3000,
            arrival_s: 33900,
            start_s: 33900,
            finish_s: 35700,
            arrival: '09:25',
            start: '09:25',
            finish: '09:55',
            late_s: 0,
            load_after: 7,
          },
          { kind: 'break', start_s: 36000, finish_s: 37800, start: '10:00', finish: '10:30' },
          {
            kind: 'stop',
            stop: 'C',
            stop_index: 2,
            location: { lat: 52.5, lng: 13.43 },
            travel_s: 600,
            distance_m: 6000,
            arrival_s: 38100,
            start_s: 38100,
            finish_s: 38700,
            arrival: '10:35',
            start: '10:35',
            finish: '10:45',
            late_s: 0,
            load_after: 8,
          },
          {
            kind: 'stop',
            stop: 'D',
            stop_index: 3,
            location: { lat: 52.5, lng: 13.43 },
            travel_s: 0,
            distance_m: 0,
            arrival_s: 38700,
            start_s: 38700,
            finish_s: 39000,
            arrival: '10:45',
            start: '10:45',
            finish: '10:50',
            late_s: 0,
            load_after: 9,
          },
        ],
        end: { time_s: 40200, time: '11:10', location: DEPOT, travel_s: 1200, distance_m: 12000 },
        distance_m: 27000,
        driving_s: 2700,
        service_s: 3900,
        waiting_s: 3000,
        break_s: 1800,
        working_s: 11400,
        overtime_s: 0,
        lateness_s: 0,
        load: 9,
      },
      {
        vehicle: 'Bike',
        vehicle_index: 1,
        start: { time_s: 39150, time: '10:52', location: DEPOT },
        visits: [
          {
            kind: 'stop',
            stop: 'E',
            stop_index: 4,
            location: { lat: 52.49, lng: 13.39 },
            travel_s: 450,
            distance_m: 2000,
            arrival_s: 39600,
            start_s: 39600,
            finish_s: 40200,
            arrival: '11:00',
            start: '11:00',
            finish: '11:10',
            late_s: 0,
            load_after: 2,
          },
        ],
        end: { time_s: 40200, time: '11:10', location: null, travel_s: 0, distance_m: 0 },
        distance_m: 2000,
        driving_s: 450,
        service_s: 600,
        waiting_s: 0,
        break_s: 0,
        working_s: 1050,
        overtime_s: 0,
        lateness_s: 0,
        load: 2,
      },
    ],
    unserved: [
      { stop: 'F', stop_index: 5, reason: 'no_compatible_vehicle', message: 'No vehicle has type fridge.' },
      { stop: 'G', stop_index: 6, reason: 'duration_exceeds_window', message: 'The 20-minute visit does not fit its window.' },
    ],
  };
}
