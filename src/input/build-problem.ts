/** ProblemSpec → the immutable `Problem` of src/model/problem.ts, per decisions.md. */
import type { Warning } from '../errors.js';
import { InputError } from '../errors.js';
import type { BreakInterval, Point, Problem, Stop, TimeWindow, Vehicle } from '../model/problem.js';
import { SCALAR_DIMENSION } from '../model/problem.js';
import { clockInterval, onTheWorkingDay } from '../model/time.js';
import type { RoadSource } from '../model/problem.js';
import {
  buildGeoTravelMatrix,
  buildTableTravelMatrix,
  DEFAULT_BASE_SPEED_KMH,
  DEFAULT_ROAD_FACTOR,
  type RoadTable,
} from '../model/travel.js';
import type { TravelSettings } from '../travel/types.js';
import type { SettingName } from './settings.js';
import type { ClockSpan, LoadInput, ProblemSpec, StopSpec, VehicleSpec } from './spec.js';

export interface TravelModelFlags {
  roadFactor?: number;
  baseSpeedKmh?: number;
  /** Where travel times come from; the offline model when absent. */
  travel?: TravelSettings;
}

/** Travel times fetched for the spec's places (resolve.ts), in the order of specLocations. */
export interface RoadTravel {
  table: RoadTable;
  origin: Omit<RoadSource, 'kind' | 'traffic'>;
}

/**
 * What building checks and warns about, short of building (no travel matrix): the travel model
 * flags (throws InputError) and loads no capacity constrains.
 */
export function checkBuildable(spec: ProblemSpec, flags: TravelModelFlags): Warning[] {
  travelModel(spec, flags);
  const warnings: Warning[] = [];
  warnUnconstrainedDimensions(spec, loadDimensions(spec), warnings);
  if ((flags.travel?.source ?? 'haversine') === 'haversine') {
    for (const path of spec.excludePaths) {
      warnings.push({
        path,
        message: 'has no effect with the offline travel model (it knows no toll roads or ferries); use --travel osrm or valhalla',
      });
    }
  }
  return warnings;
}

/**
 * The spec's distinct places in the problem's order (each driver's start and end, then the stops),
 * with the names a matrix file gives them: stop names, `<driver>/start`, `<driver>/end`.
 */
export function specLocations(spec: ProblemSpec): { points: Point[]; names: string[][] } {
  return placesOf(spec).locations;
}

function placesOf(spec: ProblemSpec): { locations: LocationTable; vehicleEnds: { start: number; end: number }[]; stopLocations: number[] } {
  const locations = new LocationTable();
  const vehicleEnds = spec.vehicles.map((v) => ({
    // A day under way goes on from where the driver is now (the resume point), not from the depot.
    start: locations.indexOf(v.resume?.point ?? placed(v.start, v.path), `${v.name}/start`),
    // An open route ends at its last stop; a round trip's end is also `<driver>/end` in a matrix file.
    end: v.end ? locations.indexOf(v.end, `${v.name}/end`) : -1,
  }));
  const stopLocations = spec.stops.map((s) => (s.point ? locations.indexOf(s.point, s.name) : -1));
  return { locations, vehicleEnds, stopLocations };
}

/** The spec, already passed through checkBuildable, as a Problem: builds the travel matrices. */
export function buildProblem(spec: ProblemSpec, flags: TravelModelFlags, road: RoadTravel | null = null): Problem {
  const model = travelModel(spec, flags);
  const { locations, vehicleEnds, stopLocations } = placesOf(spec);
  const speeds = spec.vehicles.map((v) => v.speed);
  const { travel, profileOf } = road
    ? buildTableTravelMatrix(road.table, speeds, model.traffic)
    : buildGeoTravelMatrix(locations.points, speeds, model);
  const dimensions = loadDimensions(spec);
  const dayStart = workingDayStart(spec);

  const vehicles: Vehicle[] = spec.vehicles.map((v, index) => ({
    index,
    name: v.name,
    startLocation: vehicleEnds[index]!.start,
    endLocation: vehicleEnds[index]!.end,
    ...shiftOf(v),
    maxOvertime: spec.maxOvertime,
    capacity: capacityVector(v.capacity, dimensions),
    speed: v.speed,
    profile: profileOf[index]!,
    breaks: breakIntervals(v),
    labels: v.labels,
    passthrough: v.passthrough,
  }));
  const stops: Stop[] = spec.stops.map((s, index) => ({
    index,
    name: s.name,
    location: stopLocations[index]!,
    windows: normalizeWindows(s.windows, dayStart),
    duration: s.duration ?? 0,
    durationGiven: s.duration !== null,
    load: loadVector(s.load ?? spec.defaultLoad, dimensions),
    priority: s.priority,
    maxLateness: spec.maxLateness,
    labels: s.labels,
    passthrough: s.passthrough,
    // Present only when given: a problem without locks stays exactly as it was.
    ...(s.lock ? { lock: { driver: s.lock.driver, sequence: s.lock.sequence } } : {}),
    ...(s.prefer !== undefined ? { prefer: s.prefer } : {}),
  }));

  return deepFreeze({
    surface: spec.surface,
    name: spec.name,
    date: spec.date,
    locations: locations.points,
    vehicles,
    stops,
    dimensions,
    compatible: compatibility(spec),
    travel,
    travelSource: road
      ? { kind: 'road', ...road.origin, traffic: model.traffic }
      : { kind: 'geo', roadFactor: model.roadFactor, baseSpeedKmh: model.baseSpeedKmh, traffic: model.traffic },
    objective: spec.objective,
    squashDuration: spec.squashDuration,
    allowOverload: spec.allowOverload,
    units: { timePerSecond: 1, distancePerReported: 1 },
  });
}

function travelModel(spec: ProblemSpec, flags: TravelModelFlags) {
  const roadFactor = flags.roadFactor ?? DEFAULT_ROAD_FACTOR;
  const baseSpeedKmh = flags.baseSpeedKmh ?? DEFAULT_BASE_SPEED_KMH;
  const details = [];
  if (!(Number.isFinite(roadFactor) && roadFactor > 0)) {
    details.push({ path: 'roadFactor' satisfies SettingName, message: `${roadFactor} is not allowed; use a number > 0 (default 1.3)` });
  }
  if (!(Number.isFinite(baseSpeedKmh) && baseSpeedKmh > 0)) {
    details.push({
      path: 'baseSpeedKmh' satisfies SettingName,
      message: `${baseSpeedKmh} is not allowed; use a speed in km/h > 0 (default 40)`,
    });
  }
  if (details.length > 0)
    throw new InputError(`Invalid travel model: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
  return { roadFactor, baseSpeedKmh, traffic: spec.traffic };
}

/** A driver's start: geocoding (resolve.ts) has placed every one before a problem is built. */
function placed(point: Point | null, path: string): Point {
  if (point === null) throw new Error(`${path}: the start location was never geocoded`);
  return point;
}

/** Identical coordinates share one index: the solver recognises "same place" by index (squashDuration). */
class LocationTable {
  readonly points: Point[] = [];
  /** Every name each place goes by (several stops may share one place). */
  readonly names: string[][] = [];
  private readonly byKey = new Map<string, number>();

  indexOf(point: Point, name: string): number {
    const key = `${point.lat},${point.lng}`;
    let index = this.byKey.get(key);
    if (index === undefined) {
      index = this.points.length;
      this.points.push({ lat: point.lat, lng: point.lng });
      this.names.push([]);
      this.byKey.set(key, index);
    }
    this.names[index]!.push(name);
    return index;
  }
}

/**
 * decisions.md "Time windows, shifts, breaks". A day under way (`resume`) departs no sooner than
 * its resume time; the shift's end is still read against the shift's own start.
 */
function shiftOf(v: VehicleSpec): Pick<Vehicle, 'earliestStart' | 'shiftStartGiven' | 'flexibleStart' | 'shiftEnd'> {
  const given = v.shiftStart !== null;
  const shiftStart = v.shiftStart ?? 0;
  let shiftEnd = Infinity;
  if (v.shiftEnd !== null) shiftEnd = clockInterval(shiftStart, v.shiftEnd).end;
  const earliestStart = v.resume ? Math.max(shiftStart, v.resume.at) : shiftStart;
  return { earliestStart, shiftStartGiven: given || v.resume !== undefined, flexibleStart: given ? v.flexibleWhenGiven : true, shiftEnd };
}

/** decisions.md "Night work": the plan's day starts at the earliest shift start (00:00 for a driver without one). */
function workingDayStart(spec: ProblemSpec): number {
  return spec.vehicles.length === 0 ? 0 : Math.min(...spec.vehicles.map((v) => v.shiftStart ?? 0));
}

/**
 * Breaks are clock intervals (overnight when end < start), read against their own driver's shift
 * start: in a 22:00–06:00 shift a break at 02:00 is in the coming night, not before the shift.
 */
function breakIntervals(v: VehicleSpec): BreakInterval[] {
  const intervals = v.breaks.map((b) => onTheWorkingDay(clockInterval(b.start, b.end), v.shiftStart ?? 0)).filter((b) => b.end > b.start);
  return mergeIntervals(intervals);
}

/** Several windows mean "any one of them": sorted, overlapping ones merged; none → any time. */
function normalizeWindows(spans: ClockSpan[], dayStart = 0): TimeWindow[] {
  const windows = spans.map((span) => {
    const start = span.start ?? 0;
    if (span.end === null) return { start, end: Infinity };
    return onTheWorkingDay(clockInterval(start, span.end), dayStart);
  });
  if (windows.length === 0) return [{ start: 0, end: Infinity }];
  return mergeIntervals(windows);
}

function mergeIntervals<T extends { start: number; end: number }>(intervals: T[]): Array<{ start: number; end: number }> {
  const sorted = [...intervals].sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Array<{ start: number; end: number }> = [];
  for (const interval of sorted) {
    const last = merged[merged.length - 1];
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push({ start: interval.start, end: interval.end });
  }
  return merged;
}

/**
 * Dimensions are those some vehicle's capacity constrains: loads are ignored when no vehicle
 * has a capacity, and a dimension no capacity names is unconstrained everywhere.
 */
function loadDimensions(spec: ProblemSpec): string[] {
  const names: string[] = [];
  for (const v of spec.vehicles) {
    if (v.capacity === null) continue;
    for (const name of dimensionNames(v.capacity)) if (!names.includes(name)) names.push(name);
  }
  return names;
}

function dimensionNames(value: LoadInput): string[] {
  return typeof value === 'number' ? [SCALAR_DIMENSION] : Object.keys(value);
}

function warnUnconstrainedDimensions(spec: ProblemSpec, dimensions: string[], warnings: Warning[]): void {
  if (dimensions.length === 0) {
    const loaded = spec.stops.find((s) => s.load !== null);
    if (loaded) {
      warnings.push({ path: `${loaded.path}.load`, message: 'loads are ignored: no vehicle has a capacity' });
    }
    return;
  }
  const reported = new Set<string>();
  for (const stop of spec.stops) {
    if (stop.load === null) continue;
    for (const name of dimensionNames(stop.load)) {
      if (dimensions.includes(name) || reported.has(name)) continue;
      reported.add(name);
      const what = name === SCALAR_DIMENSION ? 'a number load' : `load "${name}"`;
      const path = name === SCALAR_DIMENSION ? `${stop.path}.load` : `${stop.path}.load.${name}`;
      warnings.push({ path, message: `no vehicle has a capacity for ${what}; it is not constrained` });
    }
  }
}

function capacityVector(capacity: LoadInput | null, dimensions: string[]): Float64Array {
  const vector = new Float64Array(dimensions.length).fill(Infinity);
  if (capacity === null) return vector;
  dimensions.forEach((name, d) => {
    const amount = typeof capacity === 'number' ? (name === SCALAR_DIMENSION ? capacity : undefined) : capacity[name];
    if (amount !== undefined) vector[d] = amount;
  });
  return vector;
}

function loadVector(load: LoadInput, dimensions: string[]): Float64Array {
  const vector = new Float64Array(dimensions.length);
  dimensions.forEach((name, d) => {
    const amount = typeof load === 'number' ? (name === SCALAR_DIMENSION ? load : 0) : load[name];
    vector[d] = amount ?? 0;
  });
  return vector;
}

/**
 * Which vehicle may serve which stop. A stop with neither a lock nor a type is open to every
 * vehicle, and is marked so without asking each: on 500 vehicles × 5,000 stops asking took some
 * 0.3 s of a command's `--time-limit` (issue 26).
 */
function compatibility(spec: ProblemSpec): Uint8Array {
  const nStops = spec.stops.length;
  const table = new Uint8Array(spec.vehicles.length * nStops);
  const restricted = spec.stops.flatMap((stop, s) => (stop.lock || stop.labels.length > 0 ? [s] : []));
  spec.vehicles.forEach((vehicle, v) => {
    const has = new Set(vehicle.labels);
    table.fill(1, v * nStops, (v + 1) * nStops);
    for (const s of restricted) table[v * nStops + s] = canServe(spec.matching, vehicle, has, spec.stops[s]!) ? 1 : 0;
  });
  return table;
}

/**
 * A locked stop may be served by its driver only, and by them only when the types allow it: a lock
 * does not override a type the stop needs (such a stop is unserved, `locked_driver_cannot_serve`).
 */
function canServe(matching: ProblemSpec['matching'], vehicle: VehicleSpec, vehicleLabels: Set<string>, stop: StopSpec): boolean {
  if (stop.lock && stop.lock.driver !== vehicle.name) return false;
  if (stop.labels.length === 0) return true;
  return matching === 'types-any-of'
    ? stop.labels.some((label) => vehicleLabels.has(label))
    : stop.labels.every((label) => vehicleLabels.has(label));
}

/** Freezes the object graph; typed arrays cannot be frozen and are left as they are. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
