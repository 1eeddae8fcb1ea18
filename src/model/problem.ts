/**
 * The one internal problem every input shape is normalized into, and that the solver,
 * the output layer and the service all read. Immutable after normalization.
 *
 * Units: all times are integer "time units" since midnight of the plan's day and all
 * distances integer "distance units". For projects and one-off problems a time unit is
 * one second and a distance unit one metre (`units.timePerSecond === 1`). Benchmark
 * instances use tenths of the instance's own unit for both (see `Units`).
 */
import type { TravelSourceName } from './travel-sources.js';

export type Surface = 'project' | 'oneoff' | 'benchmark';

export interface Point {
  /** Latitude (or y for planar benchmark coordinates). */
  lat: number;
  /** Longitude (or x for planar benchmark coordinates). */
  lng: number;
}

/** A half-open time window: service must start at or after `start` and finish by `end`. */
export interface TimeWindow {
  start: number;
  /** `Infinity` when the window has no end ("any time after start"). */
  end: number;
}

/** A fixed break: no driving and no service happen inside [start, end]. */
export interface BreakInterval {
  start: number;
  end: number;
}

export interface Vehicle {
  /** Index in `drivers` (project) or `routesData` (one-off) or the benchmark fleet. */
  index: number;
  name: string;
  /** Index into `Problem.locations`. */
  startLocation: number;
  /** Index into `Problem.locations`, or -1 for an open route (ends at the last stop). */
  endLocation: number;
  /** Earliest departure. 0 when the shift start was not given (a resumed day: the later of it and the resume time). */
  earliestStart: number;
  /** Whether the shift start was given by the user. */
  shiftStartGiven: boolean;
  /**
   * True when the route may depart later than `earliestStart` to remove waiting
   * (no shift start given, non-strict project start, or `flexibleStartTime: true`).
   */
  flexibleStart: boolean;
  /**
   * Latest arrival at the end location, or, for an open route, latest finish of the
   * last service. `Infinity` when no shift end was given.
   */
  shiftEnd: number;
  /** Overtime permitted past `shiftEnd`: 0, a bound (project), or Infinity (allowRouteOvertime). */
  maxOvertime: number;
  /** Capacity per dimension of `Problem.dimensions`; Infinity where unconstrained. */
  capacity: Float64Array;
  /** Speed factor (1 = normal). */
  speed: number;
  /** Index into `Problem.travel.durations`: the duration matrix for this vehicle's speed. */
  profile: number;
  /** Fixed breaks, sorted by start, non-overlapping. */
  breaks: BreakInterval[];
  /** Types (project) or tags (one-off) as given, for display; compatibility is in `Problem.compatible`. */
  labels: string[];
  /** Fields carried through unchanged to the output (e.g. phone_number). */
  passthrough: Record<string, unknown>;
}

export interface Stop {
  /** Index in `stops` (project) or `ordersData` (one-off); customer number - 1 for benchmarks. */
  index: number;
  name: string;
  /** Index into `Problem.locations`, or -1 when the stop has no usable location. */
  location: number;
  /** Non-empty, sorted by start, non-overlapping. "Any time" is a single [0, Infinity] window. */
  windows: TimeWindow[];
  /** Service duration in time units (already defaulted). */
  duration: number;
  /** False when neither the stop nor a default gave a duration (project ETAs are then null). */
  durationGiven: boolean;
  /** Load per dimension of `Problem.dimensions`. */
  load: Float64Array;
  /** 1..10000; higher is more important. */
  priority: number;
  /** Lateness permitted past a window's end: 0, a bound (project), or Infinity (allowVisitLateness). */
  maxLateness: number;
  /** Types (project) or tags (one-off) as given, for display. */
  labels: string[];
  /** Fields carried through unchanged to the output (notes, custom_notes, phone_number, email, displayOrderId, customerOrderNumber). */
  passthrough: Record<string, unknown>;
  /** The stop's lock (pin), absent when it has none (one-off and benchmark stops never have one). */
  lock?: StopLock;
  /**
   * The `name` of the vehicle the stop prefers, absent for none: serving it on another costs the
   * stability level of the objective (below priority, above cost; solver/cost.ts). A re-optimization
   * after dispatch gives each undone stop its dispatched driver.
   */
  prefer?: string;
}

/**
 * A stop locked to one driver (decisions.md "Locks"): only that driver may serve it, and the stops
 * locked to one driver with a `sequence` are served in increasing sequence order (others may go
 * between them). The driver is named, not numbered, so that a lock reads the same in a
 * sub-problem that renumbers the vehicles; `compatible` already allows that driver's vehicle only.
 */
export interface StopLock {
  /** The `name` of the one vehicle that may serve the stop. */
  driver: string;
  /** Its place among the stops locked to the same driver (≥ 1), or null when only the driver is locked. */
  sequence: number | null;
}

export interface TravelMatrix {
  /** Number of locations; matrices are row-major n×n. */
  size: number;
  /** Distance in distance units from i to j at `i * size + j`. */
  distance: Int32Array;
  /** One duration matrix (time units) per travel profile; `Vehicle.profile` indexes it. */
  durations: Int32Array[];
  /**
   * True when `distance` is symmetric by construction (the offline model, Euclidean benchmarks),
   * so that its readers may read one direction only; absent when nobody vouches for it.
   */
  symmetric?: boolean;
}

export interface Objective {
  /** Level 3: minimise the number of routes used. */
  minimizeRoutes: boolean;
  /** Level 4: `time` = total working time; `distance` = total distance (`shortest_distance`). */
  cost: 'time' | 'distance';
  /** Balancing adds a spread penalty to the cost: `auto_balance` (working time) or `balanceType: orders`. */
  balance: 'none' | 'time' | 'orders';
}

export interface Units {
  /** Time units per second (1 for real problems, 10 for benchmarks in tenths). */
  timePerSecond: number;
  /** Distance units per reported distance unit (1 = metres; 10 for benchmarks in tenths). */
  distancePerReported: number;
}

/**
 * How `travel` was made, so that an independent checker can re-derive every leg:
 * `geo` = the offline model of decisions.md (haversine × road factor, speed, traffic);
 * `euclidean` = benchmark x/y with DIMACS truncation to one decimal (`trunc1`, stored in
 * tenths) or CVRPLIB rounding to integers (`round`), travel time = distance;
 * `matrix` = a user-given or road-network matrix.
 */
export type TravelSource =
  | { kind: 'geo'; roadFactor: number; baseSpeedKmh: number; traffic: number }
  | { kind: 'euclidean'; rounding: 'trunc1' | 'round' }
  | { kind: 'matrix' }
  | RoadSource;

/**
 * Road travel times from a routing provider or a user's matrix file (decisions.md, "Road travel
 * times"): the matrices hold the table's values with each speed factor and the traffic applied.
 */
export interface RoadSource {
  kind: 'road';
  source: Exclude<TravelSourceName, 'haversine'>;
  profile?: string;
  /** The provider's base URL, or the matrix file as given. */
  url?: string;
  traffic: number;
  /** Roads the provider was asked to avoid: the routes' shapes avoid them too. */
  excludeTolls?: boolean;
  excludeFerry?: boolean;
}

export interface Problem {
  surface: Surface;
  /** Project name or benchmark instance name; null for a one-off. */
  name: string | null;
  /** YYYY-MM-DD for projects; null otherwise. */
  date: string | null;
  locations: Point[];
  vehicles: Vehicle[];
  stops: Stop[];
  /** Names of the load dimensions; the number form of load/capacity is the dimension "". Empty when loads are ignored. */
  dimensions: string[];
  /** `compatible[v * stops.length + s]` is 1 when vehicle v may serve stop s (types any-of / tags all-of). */
  compatible: Uint8Array;
  travel: TravelMatrix;
  travelSource: TravelSource;
  objective: Objective;
  /** One-off `squashDuration` in time units, or null for no squashing. */
  squashDuration: number | null;
  /** One-off `allowCapacityOverload`: capacity becomes a minimised soft limit. */
  allowOverload: boolean;
  units: Units;
}

/** The scalar dimension: number loads and number capacities use it. */
export const SCALAR_DIMENSION = '';
