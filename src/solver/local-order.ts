/**
 * Location numbering for the cache (issue 26): benchmark files (X, Gehring–Homberger) number their
 * locations in random order, so a stop's near neighbours sit in random columns of its row of the
 * distance matrix, and on 1,000 locations (4 MB, more than a core's L2) nearly every read the local
 * search makes misses the cache. Renumbering the solver's own locations so that near locations get
 * near indices puts the cells the moves read into few cache lines.
 *
 * Only the solver's instance sees the new numbers: stops and vehicles keep their indices (plans are
 * stop sequences), every location the instance exposes is mapped, and `locOrigin` answers the
 * problem's own location of each solver location (for coordinates: ls/moves/sectors.ts).
 */
import type { Point, Problem } from '../model/problem.js';
import { instanceOf, type SolverInstance } from './instance.js';
import { LOCAL_ORDER_BY, LOCAL_ORDER_BY_DEFAULT, LOCAL_ORDER_MAX_LOCATIONS, LOCAL_ORDER_MIN_LOCATIONS } from './params.js';

const ordered = new WeakMap<Problem, SolverInstance>();

/**
 * The instance the search works on: with `localOrder` (SolveOptions.localOrder,
 * LOCAL_ORDER_BY_DEFAULT when absent) its locations renumbered for the cache where that pays, else
 * the problem's own (instanceOf).
 */
export function orderedInstanceOf(problem: Problem, localOrder = LOCAL_ORDER_BY_DEFAULT): SolverInstance {
  if (!localOrder) return instanceOf(problem);
  let inst = ordered.get(problem);
  if (!inst) {
    inst = withLocalOrder(instanceOf(problem));
    ordered.set(problem, inst);
  }
  return inst;
}

/** The instance with its locations renumbered for locality, or the instance itself outside the sizes it pays at. */
export function withLocalOrder(inst: SolverInstance): SolverInstance {
  if (inst.nLoc < LOCAL_ORDER_MIN_LOCATIONS || inst.nLoc > LOCAL_ORDER_MAX_LOCATIONS || inst.locOrigin !== null) return inst;
  const points = inst.problem.locations;
  const order = LOCAL_ORDER_BY === 'curve' && hasSpread(points, inst.nLoc) ? curveOrder(points, inst.nLoc) : chainOrder(inst);
  return renumbered(inst, order);
}

/** The instance with solver location a standing for the problem's location order[a]. */
export function renumbered(inst: SolverInstance, order: Int32Array): SolverInstance {
  const N = inst.nLoc;
  const newOf = new Int32Array(N);
  for (let a = 0; a < N; a++) newOf[order[a]!] = a;
  const permutedOf = new Map<Int32Array, Int32Array>();
  const permute = (matrix: Int32Array): Int32Array => {
    let out = permutedOf.get(matrix);
    if (!out) {
      out = permutedMatrix(matrix, order);
      permutedOf.set(matrix, out);
    }
    return out;
  };
  return {
    ...inst,
    stopLoc: mapped(inst.stopLoc, newOf),
    vStartLoc: mapped(inst.vStartLoc, newOf),
    vEndLoc: mapped(inst.vEndLoc, newOf),
    dist: permute(inst.dist),
    vDur: inst.vDur.map(permute),
    locOrigin: order,
  };
}

/** The problem's location of solver location `loc` (-1 stays -1). */
export function problemLocation(inst: SolverInstance, loc: number): number {
  return loc < 0 || inst.locOrigin === null ? loc : inst.locOrigin[loc]!;
}

/** Location indices through `newOf`; -1 (no location, open end) stays. */
function mapped(locs: Int32Array, newOf: Int32Array): Int32Array {
  return locs.map((loc) => (loc < 0 ? loc : newOf[loc]!));
}

/** out[a][b] = matrix[order[a]][order[b]]. */
function permutedMatrix(matrix: Int32Array, order: Int32Array): Int32Array {
  const N = order.length;
  const out = new Int32Array(N * N);
  for (let a = 0; a < N; a++) {
    const from = order[a]! * N;
    const to = a * N;
    for (let b = 0; b < N; b++) out[to + b] = matrix[from + order[b]!]!;
  }
  return out;
}

/** Whether the first n points have finite coordinates that are not all one point (else the curve says nothing). */
function hasSpread(points: readonly Point[], n: number): boolean {
  if (points.length < n) return false;
  for (let i = 0; i < n; i++) if (!Number.isFinite(points[i]!.lat) || !Number.isFinite(points[i]!.lng)) return false;
  for (let i = 1; i < n; i++) if (points[i]!.lat !== points[0]!.lat || points[i]!.lng !== points[0]!.lng) return true;
  return false;
}

/** Cells per side of the grid the Hilbert curve runs over: finer than any two distinct benchmark points. */
const CURVE_SIDE = 1 << 15;

/** Locations in the order of a Hilbert curve over their coordinates (ties by location index). */
function curveOrder(points: readonly Point[], n: number): Int32Array {
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = points[i]!.lng;
    ys[i] = points[i]!.lat;
  }
  const lowest = (values: Float64Array): number => values.reduce((a, b) => Math.min(a, b), Infinity);
  const highest = (values: Float64Array): number => values.reduce((a, b) => Math.max(a, b), -Infinity);
  const [minX, maxX, minY, maxY] = [lowest(xs), highest(xs), lowest(ys), highest(ys)];
  const scale = (CURVE_SIDE - 1) / Math.max(maxX - minX, maxY - minY);
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    key[i] = hilbertIndex(Math.round((xs[i]! - minX) * scale), Math.round((ys[i]! - minY) * scale));
  }
  const order = Int32Array.from({ length: n }, (_, i) => i);
  return order.sort((a, b) => key[a]! - key[b]! || a - b);
}

/** Position of cell (x, y) along the Hilbert curve over a CURVE_SIDE × CURVE_SIDE grid. */
function hilbertIndex(x: number, y: number): number {
  let d = 0;
  for (let s = CURVE_SIDE >> 1; s > 0; s >>= 1) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = CURVE_SIDE - 1 - x;
        y = CURVE_SIDE - 1 - y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

/**
 * Locations as a greedy nearest-neighbour chain over the distance matrix, from the first vehicle's
 * start (location 0 without vehicles); ties to the lower index. For problems without coordinates;
 * reads the matrix once per location (n² cells).
 */
function chainOrder(inst: SolverInstance): Int32Array {
  const N = inst.nLoc;
  const dist = inst.dist;
  const taken = new Uint8Array(N);
  const order = new Int32Array(N);
  let at = inst.nVehicles > 0 && inst.vStartLoc[0]! >= 0 ? inst.vStartLoc[0]! : 0;
  for (let a = 0; a < N; a++) {
    order[a] = at;
    taken[at] = 1;
    let next = -1;
    let best = Infinity;
    for (let b = 0, row = at * N; b < N; b++) {
      if (taken[b] === 0 && dist[row + b]! < best) {
        best = dist[row + b]!;
        next = b;
      }
    }
    at = next;
  }
  return order;
}
