/**
 * Benchmark instance formats: Solomon / Gehring–Homberger VRPTW text and CVRPLIB (X set).
 *
 * Normalization (see shared/benchmarks/README.md for the conventions):
 * - Solomon/Homberger: DIMACS distances in integer tenths (`trunc1`); times are scaled to tenths
 *   too so travel time = distance; units {timePerSecond: 10, distancePerReported: 10}.
 * - X: TSPLIB EUC_2D distances rounded to integers (`round`); units 1/1; no windows.
 * - Location 0 is the depot, location s + 1 is stop s; Stop.index = customer number − 1.
 * - A Solomon window bounds the START of service; our windows bound its finish, so a window
 *   [ready, due] becomes [ready, due + service].
 * - The depot's ready time is the earliest (flexible) departure, its due date the latest return.
 */
import { InputError } from '../../errors.js';
import { SCALAR_DIMENSION, type Problem, type Stop, type TimeWindow, type Vehicle } from '../../model/problem.js';
import { buildEuclideanMatrix } from './euclidean.js';
import type { BenchmarkInstance, BenchmarkNode } from './instance.js';
import { parseSolomon } from './solomon.js';
import { lineError } from './text-lines.js';
import { parseVrplib } from './vrplib.js';

export type BenchmarkFormat = 'solomon' | 'vrplib';

/** Parses an instance's text into a Problem (travelSource `euclidean`). Throws InputError on malformed text. */
export function loadBenchmarkText(text: string, format: BenchmarkFormat, name: string): Problem {
  if (text.trim().length === 0) {
    throw new InputError(`${name}: the ${format} instance is empty`, [{ path: 'line 1', message: 'empty file' }]);
  }
  const instance = format === 'solomon' ? parseSolomon(text, name) : parseVrplib(text, name);
  return problemFromInstance(instance);
}

function problemFromInstance(instance: BenchmarkInstance): Problem {
  const timeScale = instance.rounding === 'trunc1' ? 10 : 1;
  const scaled = (value: number, line: number, what: string): number => toTimeUnits(value, timeScale, instance.name, line, what);
  const points = [instance.depot, ...instance.customers];
  const stops = instance.customers.map((node, index) => stopFromNode(node, index, scaled));
  const vehicles = fleet(instance, scaled);
  return {
    surface: 'benchmark',
    name: instance.name,
    date: null,
    locations: points.map((p) => ({ lng: p.x, lat: p.y })),
    vehicles,
    stops,
    dimensions: [SCALAR_DIMENSION],
    compatible: new Uint8Array(vehicles.length * stops.length).fill(1),
    travel: buildEuclideanMatrix(points, instance.rounding),
    travelSource: { kind: 'euclidean', rounding: instance.rounding },
    objective: { minimizeRoutes: false, cost: 'distance', balance: 'none' },
    squashDuration: null,
    allowOverload: false,
    units: { timePerSecond: timeScale, distancePerReported: timeScale },
  };
}

type Scale = (value: number, line: number, what: string) => number;

/** Scales an instance time to integer time units; a value finer than the unit is rejected, not rounded. */
function toTimeUnits(value: number, scale: number, name: string, line: number, what: string): number {
  if (value === Infinity) return Infinity;
  const units = Math.round(value * scale);
  if (Math.abs(units - value * scale) > 1e-6) {
    throw lineError(name, line, `${what} ${value} has more than ${scale === 10 ? 'one decimal' : 'integer precision'}`);
  }
  return units;
}

function stopFromNode(node: BenchmarkNode, index: number, scaled: Scale): Stop {
  const service = scaled(node.service, node.line, 'SERVICE TIME');
  const window: TimeWindow = {
    start: scaled(node.ready, node.line, 'READY TIME'),
    // Service must START by `due`, so it must FINISH by due + service.
    end: node.due === Infinity ? Infinity : scaled(node.due, node.line, 'DUE DATE') + service,
  };
  return {
    index,
    name: String(node.customer),
    location: index + 1,
    windows: [window],
    duration: service,
    durationGiven: true,
    load: Float64Array.of(node.demand),
    priority: 1,
    maxLateness: 0,
    labels: [],
    passthrough: {},
  };
}

function fleet(instance: BenchmarkInstance, scaled: Scale): Vehicle[] {
  const depotLine = instance.depot.line;
  const ready = instance.depot.ready;
  const earliestStart = ready === null ? 0 : scaled(ready, depotLine, 'depot READY TIME');
  const shiftEnd = scaled(instance.depot.due, depotLine, 'depot DUE DATE');
  return Array.from({ length: instance.fleetSize }, (_, index) => ({
    index,
    name: `vehicle ${index + 1}`,
    startLocation: 0,
    endLocation: 0,
    earliestStart,
    shiftStartGiven: ready !== null,
    flexibleStart: true,
    shiftEnd,
    maxOvertime: 0,
    capacity: Float64Array.of(instance.capacity),
    speed: 1,
    profile: 0,
    breaks: [],
    labels: [],
    passthrough: {},
  }));
}
