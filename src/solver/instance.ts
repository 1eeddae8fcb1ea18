/**
 * The solver's flat view of a `Problem`: typed arrays indexed by stop / vehicle so that the
 * hot loops never touch objects. Built once per problem and cached.
 */
import type { Problem } from '../model/problem.js';
import { NO_ROAD } from '../model/travel.js';
import { FAR, NEIGHBOUR_TILE } from './params.js';
import { SmallestK } from './smallest-k.js';

export { FAR } from './params.js';

export interface SolverInstance {
  problem: Problem;
  nStops: number;
  nVehicles: number;
  nLoc: number;
  dims: number;
  /** Per stop. */
  stopLoc: Int32Array;
  stopDur: Float64Array;
  stopPriority: Float64Array;
  stopMaxLate: Float64Array;
  /** Windows of stop s are winStart/winEnd[winOffset[s] .. winOffset[s+1]). */
  winOffset: Int32Array;
  winStart: Float64Array;
  winEnd: Float64Array;
  /** stopLoad[s * dims + k]. */
  stopLoad: Float64Array;
  /** The lock's sequence of each stop, 0 for none (route/sequence.ts). */
  stopSeq: Float64Array;
  /** The vehicle each stop prefers (Stop.prefer, by name), -1 for none: the stability level of cost.ts. */
  stopPref: Int32Array;
  /** Whether some stop prefers a vehicle (else the stability level is 0 everywhere and never computed). */
  preferences: boolean;
  /** Whether some stop has a sequence: the rule then applies to every route evaluated. */
  sequenced: boolean;
  /** Per vehicle. */
  vStartLoc: Int32Array;
  vEndLoc: Int32Array;
  vEarliest: Float64Array;
  /** Departure before any stop is considered: `earliestStart`, moved past a break it falls in. */
  vDepart0: Float64Array;
  vFlexible: Uint8Array;
  vShiftEnd: Float64Array;
  vMaxOvertime: Float64Array;
  /** vCap[v * dims + k]; Infinity = unconstrained. */
  vCap: Float64Array;
  vDur: Int32Array[];
  /** Breaks of vehicle v are brStart/brEnd[brOffset[v] .. brOffset[v+1]). */
  brOffset: Int32Array;
  brStart: Float64Array;
  brEnd: Float64Array;
  /** Vehicles with identical properties share a class; empty vehicles of one class are interchangeable. */
  vClass: Int32Array;
  dist: Int32Array;
  /** `dist` is symmetric by construction (TravelMatrix.symmetric). */
  distSymmetric: boolean;
  compatible: Uint8Array;
  /** Squash duration in time units, or -1 for none. */
  squash: number;
  allowOverload: boolean;
  /** True when any dimension is constrained by some vehicle. */
  capacityActive: boolean;
  costIsDistance: boolean;
  minimizeRoutes: boolean;
  balance: 'none' | 'time' | 'orders';
  /**
   * No breaks, single windows, no lateness, no overtime, no overload, no squash: route
   * feasibility and working time can be computed by segment concatenation.
   */
  simple: boolean;
  /**
   * The problem's location of each solver location when the solver renumbered them for the cache
   * (local-order.ts; read problem.locations through problemLocation there), null when they are the problem's.
   */
  locOrigin: Int32Array | null;
}

const cache = new WeakMap<Problem, SolverInstance>();

/** The solver's view of `problem`, in the problem's own numbering of locations (the search's: local-order.ts, orderedInstanceOf). */
export function instanceOf(problem: Problem): SolverInstance {
  let inst = cache.get(problem);
  if (!inst) {
    inst = buildInstance(problem);
    cache.set(problem, inst);
  }
  return inst;
}

type StopArrays = Pick<
  SolverInstance,
  'stopLoc' | 'stopDur' | 'stopPriority' | 'stopMaxLate' | 'winOffset' | 'winStart' | 'winEnd' | 'stopLoad' | 'stopSeq' | 'sequenced'
>;
type VehicleArrays = Pick<
  SolverInstance,
  | 'vStartLoc'
  | 'vEndLoc'
  | 'vEarliest'
  | 'vDepart0'
  | 'vFlexible'
  | 'vShiftEnd'
  | 'vMaxOvertime'
  | 'vCap'
  | 'vDur'
  | 'brOffset'
  | 'brStart'
  | 'brEnd'
>;

function buildInstance(problem: Problem): SolverInstance {
  const dims = problem.dimensions.length;
  const stops = stopArrays(problem, dims);
  const vehicles = vehicleArrays(problem, dims);
  const capacityActive = vehicles.vCap.some((cap) => cap !== Infinity);
  const squash = problem.squashDuration !== null && problem.squashDuration > 0 ? problem.squashDuration : -1;
  const allowOverload = problem.allowOverload && capacityActive;
  const simple =
    problem.stops.every((stop) => stop.windows.length === 1) &&
    vehicles.brStart.length === 0 &&
    !problem.stops.some((stop) => stop.maxLateness > 0) &&
    !problem.vehicles.some((vehicle) => vehicle.maxOvertime > 0) &&
    !allowOverload &&
    squash < 0;
  return {
    problem,
    nStops: problem.stops.length,
    nVehicles: problem.vehicles.length,
    nLoc: problem.travel.size,
    dims,
    ...stops,
    ...vehicles,
    ...preferenceArrays(problem),
    vClass: vehicleClasses(problem),
    dist: problem.travel.distance,
    distSymmetric: problem.travel.symmetric === true,
    compatible: problem.compatible,
    squash,
    allowOverload,
    capacityActive,
    costIsDistance: problem.objective.cost === 'distance',
    minimizeRoutes: problem.objective.minimizeRoutes,
    balance: problem.objective.balance,
    simple,
    locOrigin: null,
  };
}

function stopArrays(problem: Problem, dims: number): StopArrays {
  const nStops = problem.stops.length;
  const stopLoc = new Int32Array(nStops);
  const stopDur = new Float64Array(nStops);
  const stopPriority = new Float64Array(nStops);
  const stopMaxLate = new Float64Array(nStops);
  const winOffset = new Int32Array(nStops + 1);
  const stopLoad = new Float64Array(nStops * dims);
  const stopSeq = new Float64Array(nStops);
  let windowCount = 0;
  for (const stop of problem.stops) windowCount += stop.windows.length;
  const winStart = new Float64Array(windowCount);
  const winEnd = new Float64Array(windowCount);
  let w = 0;
  problem.stops.forEach((stop, s) => {
    stopLoc[s] = stop.location;
    stopDur[s] = stop.duration;
    stopPriority[s] = stop.priority;
    stopMaxLate[s] = stop.maxLateness;
    winOffset[s] = w;
    for (const window of stop.windows) {
      winStart[w] = window.start;
      winEnd[w] = window.end;
      w++;
    }
    for (let k = 0; k < dims; k++) stopLoad[s * dims + k] = stop.load[k] ?? 0;
    stopSeq[s] = stop.lock?.sequence ?? 0;
  });
  winOffset[nStops] = w;
  const sequenced = stopSeq.some((q) => q > 0);
  return { stopLoc, stopDur, stopPriority, stopMaxLate, winOffset, winStart, winEnd, stopLoad, stopSeq, sequenced };
}

/** Each stop's preferred vehicle by index: named, so that a sub-problem that renumbers the vehicles reads the same. */
function preferenceArrays(problem: Problem): Pick<SolverInstance, 'stopPref' | 'preferences'> {
  const indexOf = new Map<string, number>();
  problem.vehicles.forEach((vehicle, v) => {
    if (!indexOf.has(vehicle.name)) indexOf.set(vehicle.name, v);
  });
  const stopPref = new Int32Array(problem.stops.length).fill(-1);
  problem.stops.forEach((stop, s) => {
    if (stop.prefer !== undefined) stopPref[s] = indexOf.get(stop.prefer) ?? -1;
  });
  return { stopPref, preferences: stopPref.some((v) => v >= 0) };
}

/** Latest end of any route, overtime included twice over, still well before a no-road leg's arrival. */
export const ROUTE_HORIZON = NO_ROAD / 4;

function vehicleArrays(problem: Problem, dims: number): VehicleArrays {
  const nVehicles = problem.vehicles.length;
  const vStartLoc = new Int32Array(nVehicles);
  const vEndLoc = new Int32Array(nVehicles);
  const vEarliest = new Float64Array(nVehicles);
  const vFlexible = new Uint8Array(nVehicles);
  const vShiftEnd = new Float64Array(nVehicles);
  const vMaxOvertime = new Float64Array(nVehicles);
  const vCap = new Float64Array(nVehicles * dims);
  const vDur: Int32Array[] = [];
  problem.vehicles.forEach((vehicle, v) => {
    vStartLoc[v] = vehicle.startLocation;
    vEndLoc[v] = vehicle.endLocation;
    vEarliest[v] = vehicle.earliestStart;
    vFlexible[v] = vehicle.flexibleStart ? 1 : 0;
    // No route lasts anywhere near the horizon: bounding the shift by it makes any route that
    // takes a no-road leg (NO_ROAD seconds) end too late, so it is infeasible like any other.
    vShiftEnd[v] = Math.min(vehicle.shiftEnd, ROUTE_HORIZON);
    vMaxOvertime[v] = Math.min(vehicle.maxOvertime, ROUTE_HORIZON);
    for (let k = 0; k < dims; k++) vCap[v * dims + k] = vehicle.capacity[k] ?? Infinity;
    const matrix = problem.travel.durations[vehicle.profile];
    if (!matrix) throw new Error(`vehicle ${v} has travel profile ${vehicle.profile}, which the travel matrix lacks`);
    vDur.push(matrix);
  });
  return { vStartLoc, vEndLoc, vEarliest, vFlexible, vShiftEnd, vMaxOvertime, vCap, vDur, ...breakArrays(problem) };
}

/** Breaks in offset lists, and each vehicle's departure before any stop (moved past a break it falls in). */
function breakArrays(problem: Problem): Pick<SolverInstance, 'vDepart0' | 'brOffset' | 'brStart' | 'brEnd'> {
  const nVehicles = problem.vehicles.length;
  const vDepart0 = new Float64Array(nVehicles);
  const brOffset = new Int32Array(nVehicles + 1);
  let breakCount = 0;
  for (const vehicle of problem.vehicles) breakCount += vehicle.breaks.length;
  const brStart = new Float64Array(breakCount);
  const brEnd = new Float64Array(breakCount);
  let b = 0;
  problem.vehicles.forEach((vehicle, v) => {
    brOffset[v] = b;
    let depart = vehicle.earliestStart;
    for (const brk of vehicle.breaks) {
      brStart[b] = brk.start;
      brEnd[b] = brk.end;
      if (depart >= brk.start && depart < brk.end) depart = brk.end;
      b++;
    }
    vDepart0[v] = depart;
  });
  brOffset[nVehicles] = b;
  return { vDepart0, brOffset, brStart, brEnd };
}

function vehicleClasses(problem: Problem): Int32Array {
  const nStops = problem.stops.length;
  const classes = new Int32Array(problem.vehicles.length);
  const seen = new Map<string, number>();
  problem.vehicles.forEach((vehicle, v) => {
    let compatHash = 2166136261;
    for (let s = 0; s < nStops; s++) {
      compatHash = Math.imul(compatHash ^ problem.compatible[v * nStops + s]!, 16777619);
    }
    const key = JSON.stringify([
      vehicle.startLocation,
      vehicle.endLocation,
      vehicle.earliestStart,
      vehicle.flexibleStart,
      String(vehicle.shiftEnd),
      String(vehicle.maxOvertime),
      Array.from(vehicle.capacity, String),
      vehicle.profile,
      vehicle.breaks,
      compatHash,
    ]);
    let id = seen.get(key);
    if (id === undefined) {
      id = seen.size;
      seen.set(key, id);
    }
    classes[v] = id;
  });
  return classes;
}

/** How many vehicle classes there are (vClass runs from 0 to this minus one). */
export function vehicleClassCount(inst: SolverInstance): number {
  let classes = 0;
  for (let v = 0; v < inst.nVehicles; v++) classes = Math.max(classes, inst.vClass[v]! + 1);
  return classes;
}

/** Each stop's nearest stops, `k` per stop (nearestNeighbours below). */
export interface NearStops {
  neighbours: Int32Array;
  k: number;
}

/**
 * For each stop t, the stops that have t among the first `use` of their `k` near stops
 * (`neighbours`, -1 padded), as compressed lists: list[start[t] .. start[t + 1]).
 */
export function reverseNeighbours(neighbours: Int32Array, n: number, k: number, use = k): { start: Int32Array; list: Int32Array } {
  const start = new Int32Array(n + 1);
  for (let s = 0; s < n; s++) {
    for (let i = 0; i < use; i++) {
      const t = neighbours[s * k + i]!;
      if (t >= 0) start[t + 1]!++;
    }
  }
  for (let t = 0; t < n; t++) start[t + 1]! += start[t]!;
  const fill = start.slice(0, n);
  const list = new Int32Array(start[n]!);
  for (let s = 0; s < n; s++) {
    for (let i = 0; i < use; i++) {
      const t = neighbours[s * k + i]!;
      if (t >= 0) list[fill[t]!++] = s;
    }
  }
  return { start, list };
}

/** For each stop, up to k other stops ordered by increasing distance from it (both directions); -1 pads. */
export function nearestNeighbours(inst: SolverInstance, k: number): Int32Array {
  if (inst.distSymmetric) return nearestBySymmetricRows(inst, k);
  const n = inst.nStops;
  const kk = Math.min(k, Math.max(0, n - 1));
  const out = new Int32Array(n * kk).fill(-1);
  const nearest = Array.from({ length: NEIGHBOUR_TILE }, () => new SmallestK(kk));
  const bound = new Float64Array(NEIGHBOUR_TILE);
  const N = inst.nLoc;
  const dist = inst.dist;
  const stopLoc = inst.stopLoc;
  // Stops are taken a tile at a time, so that the way back (t → s, a column of the matrix) reads
  // neighbouring cells of one row instead of one cache line per cell: on 5,000 stops the matrix
  // is 200 MB. Each stop still sees the others in the same order, so the lists are unchanged.
  for (let s0 = 0; s0 < n; s0 += NEIGHBOUR_TILE) {
    const s1 = Math.min(n, s0 + NEIGHBOUR_TILE);
    for (let s = s0; s < s1; s++) nearest[s - s0]!.reset();
    bound.fill(Infinity);
    for (let t = 0; t < n; t++) {
      const lt = stopLoc[t]!;
      for (let s = s0; s < s1; s++) {
        if (t === s) continue;
        const ls = stopLoc[s]!;
        const key = ls < 0 || lt < 0 ? FAR : dist[ls * N + lt]! + dist[lt * N + ls]!;
        if (key >= bound[s - s0]!) continue;
        const list = nearest[s - s0]!;
        list.offer(key, t);
        bound[s - s0] = list.bound;
      }
    }
    for (let s = s0; s < s1; s++) nearest[s - s0]!.copyIdsTo(out, s * kk);
  }
  return out;
}

/**
 * The same lists on a symmetric matrix, where a stop's key to another (both ways) is twice the
 * way out: each stop reads its own row, in order. On 5,000 stops some four times faster than the
 * tiles above, which read the matrix both ways (issue 26: the 5,000-stop first plan).
 */
function nearestBySymmetricRows(inst: SolverInstance, k: number): Int32Array {
  const n = inst.nStops;
  const kk = Math.min(k, Math.max(0, n - 1));
  const out = new Int32Array(n * kk).fill(-1);
  const nearest = new SmallestK(kk);
  const N = inst.nLoc;
  const dist = inst.dist;
  const stopLoc = inst.stopLoc;
  for (let s = 0; s < n; s++) {
    nearest.reset();
    let bound = Infinity;
    const ls = stopLoc[s]!;
    for (let t = 0; t < n; t++) {
      if (t === s) continue;
      const lt = stopLoc[t]!;
      const key = ls < 0 || lt < 0 ? FAR : 2 * dist[ls * N + lt]!;
      if (key >= bound) continue;
      nearest.offer(key, t);
      bound = nearest.bound;
    }
    nearest.copyIdsTo(out, s * kk);
  }
  return out;
}
