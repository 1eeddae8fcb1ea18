/**
 * The one place tests build normalized `Problem`s, `Vehicle`s and `Stop`s without the input layer.
 *
 * Two levels: `vehicleRecord`/`stopRecord`/`problemRecord` take the model's own fields (seconds,
 * location indices) and fill the rest with neutral defaults, for hand-worked fixtures;
 * `buildProblem` takes a readable spec (lat/lng points, clock times as `HH:mm` or seconds, minutes
 * for durations) and derives the rest with the offline travel model of decisions.md.
 */
import type { BreakInterval, Objective, Point, Problem, Stop, Surface, TimeWindow, Vehicle } from '../../src/model/problem.js';
import { clockInterval, parseClock } from '../../src/model/time.js';
import { buildGeoTravelMatrix, DEFAULT_BASE_SPEED_KMH, DEFAULT_ROAD_FACTOR, type TravelModelOptions } from '../../src/model/travel.js';
import { Rng } from '../../src/solver/rng.js';

/** The offline model with the defaults a problem gets when no flag or setting changes them (input/build-problem.ts). */
export const DEFAULT_TRAVEL_MODEL: TravelModelOptions = {
  roadFactor: DEFAULT_ROAD_FACTOR,
  baseSpeedKmh: DEFAULT_BASE_SPEED_KMH,
  traffic: 1,
};

/** Any time, no shift end, unbounded capacity in the one scalar dimension, normal speed. */
export function vehicleRecord({ index, name, ...fields }: Pick<Vehicle, 'index' | 'name'> & Partial<Vehicle>): Vehicle {
  return {
    index,
    name,
    startLocation: 0,
    endLocation: 0,
    earliestStart: 0,
    shiftStartGiven: false,
    flexibleStart: true,
    shiftEnd: Infinity,
    maxOvertime: 0,
    capacity: Float64Array.of(Infinity),
    speed: 1,
    profile: 0,
    breaks: [],
    labels: [],
    passthrough: {},
    ...fields,
  };
}

/** Any time, no visit time (but given), one unit of the scalar dimension, normal priority. */
export function stopRecord({ index, name, location, ...fields }: Pick<Stop, 'index' | 'name' | 'location'> & Partial<Stop>): Stop {
  return {
    index,
    name,
    location,
    windows: [{ start: 0, end: Infinity }],
    duration: 0,
    durationGiven: true,
    load: Float64Array.of(1),
    priority: 5,
    maxLateness: 0,
    labels: [],
    passthrough: {},
    ...fields,
  };
}

/** Travel time only: no route-count, distance or balance term. */
const neutralObjective = (): Objective => ({ minimizeRoutes: false, cost: 'time', balance: 'none' });

type ProblemRequired = 'locations' | 'vehicles' | 'stops' | 'travel' | 'travelSource';

/** A one-off problem in the scalar dimension where every vehicle may serve every stop. */
export function problemRecord(fields: Pick<Problem, ProblemRequired> & Partial<Problem>): Problem {
  const { locations, vehicles, stops, travel, travelSource, ...rest } = fields;
  return {
    surface: 'oneoff',
    name: null,
    date: null,
    locations,
    vehicles,
    stops,
    dimensions: [''],
    compatible: new Uint8Array(vehicles.length * stops.length).fill(1),
    travel,
    travelSource,
    objective: neutralObjective(),
    squashDuration: null,
    allowOverload: false,
    units: { timePerSecond: 1, distancePerReported: 1 },
    ...rest,
  };
}

export type Clock = string | number;
export type LatLng = [number, number];

export interface StopSpec {
  name?: string;
  /** null = no usable location. */
  at: LatLng | null;
  /** Windows as clock pairs; omitted = any time. An end of null = no end. */
  windows?: Array<[Clock, Clock | null]>;
  durationMin?: number;
  /** Number (scalar dimension) or one value per named dimension. */
  load?: number | number[];
  priority?: number;
  /** Minutes, or Infinity. */
  maxLatenessMin?: number;
  labels?: string[];
  /** Locked to the vehicle of this name, in this sequence among its locked stops (decisions.md "Locks"). */
  lock?: { driver: string; sequence?: number };
  /** Prefers the vehicle of this name (the stability level of the objective). */
  prefer?: string;
}

export interface VehicleSpec {
  name?: string;
  start: LatLng;
  /** Omitted = back to the start; null = open route. */
  end?: LatLng | null;
  shiftStart?: Clock;
  /** Defaults to true when no shift start is given, false otherwise. */
  flexibleStart?: boolean;
  shiftEnd?: Clock;
  /** Minutes, or Infinity. */
  maxOvertimeMin?: number;
  capacity?: number | number[];
  speed?: number;
  breaks?: Array<[Clock, Clock]>;
  labels?: string[];
}

export interface ProblemSpec {
  surface?: Surface;
  vehicles: VehicleSpec[];
  stops: StopSpec[];
  /** Dimension names; default: the scalar dimension when any load or capacity is given. */
  dimensions?: string[];
  /** `types` = any-of (projects), `tags` = all-of (one-off). Default from the surface. */
  matching?: 'types' | 'tags';
  squashMin?: number | null;
  allowOverload?: boolean;
  objective?: Partial<Objective>;
  traffic?: number;
}

export function clock(value: Clock): number {
  if (typeof value === 'number') return value;
  const seconds = parseClock(value);
  if (seconds === null) throw new Error(`bad clock time in test: ${value}`);
  return seconds;
}

const minutes = (value: number): number => (value === Infinity ? Infinity : Math.round(value * 60));

export function buildProblem(spec: ProblemSpec): Problem {
  const surface = spec.surface ?? 'oneoff';
  const matching = spec.matching ?? (surface === 'oneoff' ? 'tags' : 'types');
  const points: Point[] = [];
  const pointIndex = new Map<string, number>();
  const locate = (at: LatLng): number => {
    const key = `${at[0]},${at[1]}`;
    let index = pointIndex.get(key);
    if (index === undefined) {
      index = points.length;
      points.push({ lat: at[0], lng: at[1] });
      pointIndex.set(key, index);
    }
    return index;
  };
  const anyLoad = spec.stops.some((s) => s.load !== undefined) || spec.vehicles.some((v) => v.capacity !== undefined);
  const dimensions = spec.dimensions ?? (anyLoad ? [''] : []);
  const vector = (value: number | number[] | undefined, fallback: number): Float64Array => {
    const out = new Float64Array(dimensions.length).fill(fallback);
    if (value === undefined) return out;
    if (typeof value === 'number') {
      if (dimensions.length > 0) out[0] = value;
    } else {
      value.forEach((x, k) => (out[k] = x));
    }
    return out;
  };

  const vehicles: Vehicle[] = spec.vehicles.map((v, index) => {
    const startLocation = locate(v.start);
    const endLocation = v.end === null ? -1 : locate(v.end ?? v.start);
    const shiftStartGiven = v.shiftStart !== undefined;
    const earliestStart = shiftStartGiven ? clock(v.shiftStart!) : 0;
    let shiftEnd = v.shiftEnd === undefined ? Infinity : clock(v.shiftEnd);
    if (shiftEnd < earliestStart) shiftEnd += 86_400;
    const breaks: BreakInterval[] = (v.breaks ?? []).map(([a, b]) => clockInterval(clock(a), clock(b)));
    breaks.sort((a, b) => a.start - b.start);
    return vehicleRecord({
      index,
      name: v.name ?? `vehicle ${index + 1}`,
      startLocation,
      endLocation,
      earliestStart,
      shiftStartGiven,
      flexibleStart: v.flexibleStart ?? !shiftStartGiven,
      shiftEnd,
      maxOvertime: minutes(v.maxOvertimeMin ?? 0),
      capacity: vector(v.capacity, Infinity),
      speed: v.speed ?? 1,
      breaks,
      labels: v.labels ?? [],
    });
  });

  const stops: Stop[] = spec.stops.map((s, index) => {
    const windows: TimeWindow[] = (s.windows ?? [[0, null]]).map(([a, b]) =>
      b === null ? { start: clock(a), end: Infinity } : clockInterval(clock(a), clock(b)),
    );
    windows.sort((a, b) => a.start - b.start);
    return stopRecord({
      index,
      name: s.name ?? `stop ${index + 1}`,
      location: s.at === null ? -1 : locate(s.at),
      windows,
      duration: minutes(s.durationMin ?? 0),
      durationGiven: s.durationMin !== undefined,
      load: vector(s.load, 0),
      priority: s.priority ?? 5,
      maxLateness: minutes(s.maxLatenessMin ?? 0),
      labels: s.labels ?? [],
      ...(s.lock ? { lock: { driver: s.lock.driver, sequence: s.lock.sequence ?? null } } : {}),
      ...(s.prefer !== undefined ? { prefer: s.prefer } : {}),
    });
  });

  const { travel, profileOf } = buildGeoTravelMatrix(
    points,
    vehicles.map((v) => v.speed),
    { ...DEFAULT_TRAVEL_MODEL, traffic: spec.traffic ?? 1 },
  );
  vehicles.forEach((v, i) => (v.profile = profileOf[i]!));

  const compatible = new Uint8Array(vehicles.length * stops.length);
  vehicles.forEach((v, vi) => {
    stops.forEach((s, si) => {
      const lockKept = !s.lock || s.lock.driver === v.name;
      compatible[vi * stops.length + si] = lockKept && matches(matching, v.labels, s.labels) ? 1 : 0;
    });
  });

  return problemRecord({
    surface,
    name: surface === 'oneoff' ? null : 'test',
    date: surface === 'project' ? '2025-01-01' : null,
    locations: points,
    vehicles,
    stops,
    dimensions,
    compatible,
    travel,
    travelSource: {
      kind: 'geo',
      roadFactor: DEFAULT_TRAVEL_MODEL.roadFactor,
      baseSpeedKmh: DEFAULT_TRAVEL_MODEL.baseSpeedKmh,
      traffic: spec.traffic ?? 1,
    },
    objective: { ...neutralObjective(), ...spec.objective },
    squashDuration: spec.squashMin ? minutes(spec.squashMin) : null,
    allowOverload: spec.allowOverload ?? false,
  });
}

function matches(matching: 'types' | 'tags', vehicleLabels: string[], stopLabels: string[]): boolean {
  if (matching === 'types') {
    if (stopLabels.length === 0) return true;
    return stopLabels.some((label) => vehicleLabels.includes(label));
  }
  return stopLabels.every((label) => vehicleLabels.includes(label));
}

export interface CapacitatedProblemOptions {
  stops: number;
  vehicles: number;
  /** Each vehicle's capacity; loads are 1–9. */
  capacity: number;
  depot?: LatLng;
}

/**
 * Capacitated stops around one depot, no windows, distance objective (CVRP-like): where SWAP*'s
 * arc estimate is the exact change and the windowless settings apply. Drawn with the solver's Rng,
 * deterministic for a seed.
 */
export function capacitatedProblem(seed: number, { stops, vehicles, capacity, depot = [52.37, 4.89] }: CapacitatedProblemOptions): Problem {
  const rng = new Rng(seed);
  const near = (): LatLng => [depot[0] + (rng.next() - 0.5) * 0.2, depot[1] + (rng.next() - 0.5) * 0.3];
  return buildProblem({
    vehicles: Array.from({ length: vehicles }, () => ({ start: depot, capacity })),
    stops: Array.from({ length: stops }, () => ({ at: near(), load: 1 + rng.int(9) })),
    objective: { cost: 'distance' },
  });
}

/** Small seeded generator (mulberry32) so random problems are reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RandomProblemOptions {
  stops: number;
  vehicles: number;
  /** Turn on every feature: several windows, breaks, lateness, overtime, squash, labels, priorities. */
  allFeatures?: boolean;
  /** Every vehicle at normal speed (one travel profile), as the solver's fast path requires. */
  uniformSpeed?: boolean;
}

/** A random city-scale problem around one depot; deterministic for a seed. */
export function randomProblem(seed: number, options: RandomProblemOptions): Problem {
  const rand = seededRandom(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(rand() * items.length)]!;
  const all = options.allFeatures ?? false;
  const depot: LatLng = [52.37 + rand() * 0.01, 4.89 + rand() * 0.01];
  const near = (): LatLng => [depot[0] + (rand() - 0.5) * 0.25, depot[1] + (rand() - 0.5) * 0.4];
  const hhmm = (seconds: number): number => Math.round(seconds / 60) * 60;
  const surface: Surface = all && rand() < 0.5 ? 'project' : 'oneoff';
  const labelPool = ['cold', 'lift', 'van'];
  const vehicles: VehicleSpec[] = [];
  for (let i = 0; i < options.vehicles; i++) {
    const strict = rand() < 0.5;
    const start = 7 * 3600 + Math.floor(rand() * 4) * 1800;
    const spec: VehicleSpec = {
      start: depot,
      end: all && rand() < 0.25 ? null : rand() < 0.2 ? near() : depot,
      shiftEnd: start + (6 + Math.floor(rand() * 5)) * 3600,
      capacity: 20 + Math.floor(rand() * 30),
      speed: pick([1, 1, 0.75, 1.25]),
    };
    if (options.uniformSpeed) spec.speed = 1;
    if (!(all && rand() < 0.2)) {
      spec.shiftStart = start;
      spec.flexibleStart = !strict;
    }
    if (all && rand() < 0.5) {
      const b = 11 * 3600 + Math.floor(rand() * 6) * 1800;
      spec.breaks = [[b, b + 1800]];
      if (rand() < 0.3) spec.breaks.push([b + 3 * 3600, b + 3 * 3600 + 900]);
    }
    if (all && rand() < 0.3) spec.maxOvertimeMin = pick([30, 60, Infinity]);
    if (all && rand() < 0.6) spec.labels = labelPool.filter(() => rand() < 0.5);
    vehicles.push(spec);
  }
  const sites: LatLng[] = [];
  const stops: StopSpec[] = [];
  for (let i = 0; i < options.stops; i++) {
    // Some stops share a site so that squashing has something to do.
    const at = all && sites.length > 0 && rand() < 0.15 ? pick(sites) : near();
    sites.push(at);
    const spec: StopSpec = {
      at: all && rand() < 0.02 ? null : at,
      durationMin: 3 + Math.floor(rand() * 15),
      load: 1 + Math.floor(rand() * 6),
      priority: all ? pick([1, 5, 5, 5, 10, 50]) : 5,
    };
    const r = rand();
    if (r < 0.6) {
      const open = 7 * 3600 + rand() * 8 * 3600;
      const windows: Array<[Clock, Clock | null]> = [[hhmm(open), hhmm(open + 3600 + rand() * 3 * 3600)]];
      if (all && rand() < 0.3) {
        const later = open + 5 * 3600 + rand() * 2 * 3600;
        windows.push([hhmm(later), rand() < 0.3 ? null : hhmm(later + 3600)]);
      }
      spec.windows = windows;
    } else if (r < 0.7) {
      spec.windows = [[hhmm(9 * 3600 + rand() * 5 * 3600), null]];
    }
    if (all && rand() < 0.2) spec.maxLatenessMin = pick([10, 30, Infinity]);
    if (all && rand() < 0.2) spec.labels = [pick(labelPool)];
    if (all && rand() < 0.01) spec.durationMin = 600;
    stops.push(spec);
  }
  return buildProblem({
    surface,
    vehicles,
    stops,
    squashMin: all && rand() < 0.5 ? 2 : null,
    allowOverload: all && rand() < 0.2,
    objective: {
      minimizeRoutes: all && rand() < 0.3,
      cost: rand() < 0.3 ? 'distance' : 'time',
      balance: all ? pick(['none', 'none', 'time', 'orders'] as const) : 'none',
    },
  });
}

/** Whether vehicle `vehicle` may serve stop `stop`: the Problem's compatibility matrix, read as model/problem.ts documents it. */
export function mayServe(problem: Problem, vehicle: number, stop: number): boolean {
  return problem.compatible[vehicle * problem.stops.length + stop] === 1;
}

/**
 * `problem` with random locks (decisions.md "Locks"), as the input layer makes them: about `share`
 * of the stops locked to a random vehicle, half of those with a sequence from 1 to 5 (repeats
 * allowed), and compatibility narrowed to that vehicle (a lock does not override types).
 */
export function withRandomLocks(problem: Problem, seed: number, share = 0.3): Problem {
  const rand = seededRandom(seed);
  const n = problem.stops.length;
  const names = problem.vehicles.map((v) => v.name);
  if (new Set(names).size !== names.length) throw new Error('locks name their driver: vehicle names must be distinct');
  const compatible = Uint8Array.from(problem.compatible);
  const stops = problem.stops.map((stop, s) => {
    if (names.length === 0 || rand() >= share) return stop;
    const v = Math.floor(rand() * names.length);
    const sequence = rand() < 0.5 ? 1 + Math.floor(rand() * 5) : null;
    for (let w = 0; w < names.length; w++) if (w !== v) compatible[w * n + s] = 0;
    return { ...stop, lock: { driver: names[v]!, sequence } };
  });
  return { ...problem, stops, compatible };
}

/**
 * `problem` as a re-optimization after dispatch makes it (issue 24): about `share` of the stops
 * prefer a random vehicle (their "dispatched driver"), and some vehicles go on from a stop's place
 * at a later earliest start (the day under way), as the input layer's `resume` does.
 */
export function withRandomDayUnderWay(problem: Problem, seed: number, share = 0.6): Problem {
  const rand = seededRandom(seed);
  const names = problem.vehicles.map((v) => v.name);
  const stops = problem.stops.map((stop) =>
    names.length > 0 && rand() < share ? { ...stop, prefer: names[Math.floor(rand() * names.length)]! } : stop,
  );
  const placed = problem.stops.filter((stop) => stop.location >= 0);
  const vehicles = problem.vehicles.map((vehicle) => {
    if (placed.length === 0 || rand() >= 0.5) return vehicle;
    const from = placed[Math.floor(rand() * placed.length)]!;
    const at = vehicle.earliestStart + Math.floor(rand() * 2 * 3600);
    return { ...vehicle, startLocation: from.location, earliestStart: at, shiftStartGiven: true };
  });
  return { ...problem, stops, vehicles };
}
