/**
 * The forward state of a route pass before a position: ready time, waiting so far, the least
 * slack (how much later the departure could be), lateness, distance, driving and service
 * time so far, and the previous location (a stop's, for squashing, at every position but the
 * first).
 * One state is `STATE_SIZE` numbers of a Float64Array (locations are small integers, exact
 * as doubles), so a pass keeps it unboxed and a cache stores one per position in one array.
 */
export const READY = 0;
export const WAIT = 1;
export const MIN_SLACK = 2;
export const LATE = 3;
export const DIST = 4;
export const DRIVE = 5;
export const SERVICE = 6;
export const PREV_LOC = 7;
export const STATE_SIZE = 8;

export type ForwardState = Float64Array;

export function newState(): ForwardState {
  return new Float64Array(STATE_SIZE);
}

/** The state at the vehicle's start: nothing done yet, departing at `depart` from `startLoc`. */
export function startState(state: ForwardState, depart: number, startLoc: number): void {
  storeState(state, 0, depart, 0, Infinity, 0, 0, 0, 0, startLoc);
}

/** Stores a state given field by field as state number `pos` of `to`: the one place that lists them in order. */
export function storeState(
  to: Float64Array,
  pos: number,
  ready: number,
  wait: number,
  minSlack: number,
  late: number,
  dist: number,
  drive: number,
  service: number,
  prevLoc: number,
): void {
  const b = pos * STATE_SIZE;
  to[b + READY] = ready;
  to[b + WAIT] = wait;
  to[b + MIN_SLACK] = minSlack;
  to[b + LATE] = late;
  to[b + DIST] = dist;
  to[b + DRIVE] = drive;
  to[b + SERVICE] = service;
  to[b + PREV_LOC] = prevLoc;
}

/**
 * Forward states of a route before each position (and after the last), from the pass that
 * departs at the earliest departure. Lets an insertion be evaluated from its position onward.
 */
export class RouteCache {
  capacity = 0;
  states: Float64Array = new Float64Array(0);

  ensure(size: number): void {
    if (size <= this.capacity) return;
    const capacity = Math.max(size, this.capacity * 2, 8);
    const states = new Float64Array(capacity * STATE_SIZE);
    states.set(this.states);
    this.states = states;
    this.capacity = capacity;
  }

  /** Takes the first `size` states of `other`. */
  copyFrom(other: RouteCache, size: number): void {
    this.ensure(size);
    this.states.set(other.states.subarray(0, size * STATE_SIZE));
  }
}
