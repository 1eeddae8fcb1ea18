/**
 * The surface-neutral description both surfaces are first converted into (already validated,
 * clock times parsed, durations in seconds and defaulted); `buildProblem` turns it into the
 * immutable `Problem`.
 */
import type { Objective, Point, StopLock, Surface } from '../model/problem.js';

export type LoadInput = number | Record<string, number>;

/** A clock interval as given: seconds since midnight, either end may be missing. */
export interface ClockSpan {
  start: number | null;
  end: number | null;
}

export interface VehicleSpec {
  /** The user's path to this entry, e.g. `drivers[2]`, for warnings. */
  path: string;
  name: string;
  /** Null while its address waits for the geocoder (`startAddress`). */
  start: Point | null;
  /** Null for an open route, or while `endAddress` waits for the geocoder. */
  end: Point | null;
  startAddress?: PendingAddress;
  endAddress?: PendingAddress;
  shiftStart: number | null;
  shiftEnd: number | null;
  /** When the shift start is given: may the route depart later (non-strict / flexibleStartTime)? */
  flexibleWhenGiven: boolean;
  capacity: LoadInput | null;
  speed: number;
  labels: string[];
  breaks: Array<{ start: number; end: number }>;
  passthrough: Record<string, unknown>;
  /** A day under way: the driver goes on from `point`, not before `at` (seconds since midnight). */
  resume?: { point: Point; at: number };
}

export interface StopSpec {
  path: string;
  name: string;
  point: Point | null;
  /** The address of a stop given without coordinates, for the geocoder. */
  address?: PendingAddress;
  windows: ClockSpan[];
  /** Seconds, already defaulted; null when neither the stop nor a default gave one. */
  duration: number | null;
  /** Null: use the surface's default load. */
  load: LoadInput | null;
  priority: number;
  labels: string[];
  passthrough: Record<string, unknown>;
  /** A project stop's lock to a driver (validated: it names exactly one driver). */
  lock?: StopLock;
  /** A project stop's preferred driver (a name): the stability level of the objective. */
  prefer?: string;
}

/** A place given by its address only: geocoded before the problem is built (input/locate.ts). */
export interface PendingAddress {
  address: string;
  /** The user's path to the location, e.g. `stops[3].location`. */
  path: string;
}

export interface ProblemSpec {
  surface: Exclude<Surface, 'benchmark'>;
  name: string | null;
  date: string | null;
  vehicles: VehicleSpec[];
  stops: StopSpec[];
  /** Types (project): any-of, untyped vehicles serve untyped stops only. Tags (one-off): all-of. */
  matching: 'types-any-of' | 'tags-all-of';
  defaultLoad: LoadInput;
  maxLateness: number;
  maxOvertime: number;
  objective: Objective;
  squashDuration: number | null;
  allowOverload: boolean;
  traffic: number;
  /** Avoid toll roads / ferries: passed to a road travel source, no effect offline. */
  excludeTolls: boolean;
  excludeFerry: boolean;
  /** The paths of the exclusions the input asked for, to name them in a warning. */
  excludePaths: string[];
}
