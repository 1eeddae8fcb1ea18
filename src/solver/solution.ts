/**
 * A working solution: one stop sequence per vehicle with exact per-route figures and forward
 * caches (priced by its CostEvaluator). Every route stored here has passed the exact evaluator.
 */
import { movedAway, type CostEvaluator } from './cost.js';
import type { SolverInstance } from './instance.js';
import { RouteCache } from './route/cache.js';
import type { RouteEvaluator } from './route/evaluator.js';

let stampCounter = 0;

/**
 * A fresh value of the global change counter. Every change of a route gives it a new stamp, and
 * only whole-solution copies keep the stamps, so equal stamps mean equal routes and a stamp
 * older than a moment means "unchanged since then" (caches and the local search rely on it).
 */
export function nextStamp(): number {
  return ++stampCounter;
}

export class Solution {
  readonly inst: SolverInstance;
  /** Prices the routes (`rCost`, `rViol`) and the whole plan. */
  readonly costs: CostEvaluator;
  readonly seq: Int32Array[];
  readonly len: Int32Array;
  readonly cache: RouteCache[];
  /** load[v * dims + k]. */
  readonly load: Float64Array;
  readonly rCost: Float64Array;
  readonly rWork: Float64Array;
  readonly rViol: Float64Array;
  /** Per route: its stops whose preferred vehicle is another one (the stability level). */
  readonly rMoved: Int32Array;
  /** Vehicle serving each stop, or -1. */
  readonly routeOf: Int32Array;
  readonly posOf: Int32Array;
  /** Total priority of the stops served, kept up to date by the mutators. */
  servedPriority = 0;
  /** Routes changed since `clearTouched`, so that two solutions can be synced route by route. */
  readonly touched: Uint8Array;
  readonly touchedList: number[] = [];
  /** Per route: the `nextStamp()` value of its last change. */
  readonly stamp: Float64Array;

  constructor(inst: SolverInstance, costs: CostEvaluator) {
    this.inst = inst;
    this.costs = costs;
    const m = inst.nVehicles;
    this.seq = [];
    this.cache = [];
    for (let v = 0; v < m; v++) {
      this.seq.push(new Int32Array(8));
      this.cache.push(new RouteCache());
    }
    this.len = new Int32Array(m);
    this.load = new Float64Array(m * inst.dims);
    this.rCost = new Float64Array(m);
    this.rWork = new Float64Array(m);
    this.rViol = new Float64Array(m);
    this.rMoved = new Int32Array(m);
    this.routeOf = new Int32Array(inst.nStops).fill(-1);
    this.posOf = new Int32Array(inst.nStops).fill(-1);
    this.touched = new Uint8Array(m);
    this.stamp = new Float64Array(m);
    for (let v = 0; v < m; v++) this.stamp[v] = nextStamp();
  }

  private touch(v: number): void {
    this.stamp[v] = nextStamp();
    if (this.touched[v] === 0) {
      this.touched[v] = 1;
      this.touchedList.push(v);
    }
  }

  clearTouched(): void {
    for (const v of this.touchedList) this.touched[v] = 0;
    this.touchedList.length = 0;
  }

  /** Makes routes `vehicles` (and the stops in them) equal to `other`'s. */
  copyRoutesFrom(other: Solution, vehicles: readonly number[]): void {
    const dims = this.inst.dims;
    for (const v of vehicles) {
      const seq = this.seq[v]!;
      for (let i = 0, n = this.len[v]!; i < n; i++) {
        this.routeOf[seq[i]!] = -1;
        this.posOf[seq[i]!] = -1;
      }
    }
    for (const v of vehicles) {
      const n = other.len[v]!;
      this.ensureCapacity(v, n);
      const seq = this.seq[v]!;
      seq.set(other.seq[v]!.subarray(0, n));
      this.cache[v]!.copyFrom(other.cache[v]!, n + 1);
      this.len[v] = n;
      for (let i = 0; i < n; i++) {
        this.routeOf[seq[i]!] = v;
        this.posOf[seq[i]!] = i;
      }
      for (let k = 0; k < dims; k++) this.load[v * dims + k] = other.load[v * dims + k]!;
      this.rCost[v] = other.rCost[v]!;
      this.rWork[v] = other.rWork[v]!;
      this.rViol[v] = other.rViol[v]!;
      this.rMoved[v] = other.rMoved[v]!;
      // A fresh stamp, not the other's: a route that returns to an earlier state must still
      // look changed to the local search (which compares stamps with when it last looked).
      this.stamp[v] = nextStamp();
    }
    this.servedPriority = other.servedPriority;
  }

  copyFrom(other: Solution): void {
    const inst = this.inst;
    for (let v = 0; v < inst.nVehicles; v++) {
      const n = other.len[v]!;
      if (this.seq[v]!.length < n) this.seq[v] = new Int32Array(Math.max(n, this.seq[v]!.length * 2));
      this.seq[v]!.set(other.seq[v]!.subarray(0, n));
      this.cache[v]!.copyFrom(other.cache[v]!, n + 1);
    }
    this.len.set(other.len);
    this.load.set(other.load);
    this.rCost.set(other.rCost);
    this.rWork.set(other.rWork);
    this.rViol.set(other.rViol);
    this.rMoved.set(other.rMoved);
    this.stamp.set(other.stamp);
    this.routeOf.set(other.routeOf);
    this.posOf.set(other.posOf);
    this.servedPriority = other.servedPriority;
  }

  clone(): Solution {
    const copy = new Solution(this.inst, this.costs);
    copy.copyFrom(this);
    return copy;
  }

  /** Re-evaluates route `v` exactly after its sequence changed. False when it breaks a rule. */
  refreshRoute(v: number, evaluator: RouteEvaluator): boolean {
    const inst = this.inst;
    const n = this.len[v]!;
    const seq = this.seq[v]!;
    const dims = inst.dims;
    const base = v * dims;
    this.touch(v);
    for (let k = 0; k < dims; k++) this.load[base + k] = 0;
    let moved = 0;
    for (let i = 0; i < n; i++) {
      const s = seq[i]!;
      this.posOf[s] = i;
      this.routeOf[s] = v;
      for (let k = 0; k < dims; k++) this.load[base + k]! += inst.stopLoad[s * dims + k]!;
      if (inst.preferences && movedAway(inst, s, v)) moved++;
    }
    this.rMoved[v] = moved;
    const route = evaluator.evaluate(v, seq, n, this.load, base, this.cache[v]);
    if (!route) return false;
    this.rWork[v] = route.working;
    this.rCost[v] = this.costs.routeCost(route);
    this.rViol[v] = this.costs.violations(route);
    return true;
  }

  /**
   * Sets route v's sequence to `stops[0..len)` without re-evaluating it; the caller refreshes
   * it (the stops' route and position are set by `refreshRoute`).
   */
  assignRoute(v: number, stops: Int32Array, len: number): void {
    this.ensureCapacity(v, len);
    this.seq[v]!.set(stops.subarray(0, len));
    this.len[v] = len;
    this.touch(v);
  }

  private ensureCapacity(v: number, size: number): void {
    const seq = this.seq[v]!;
    if (seq.length >= size) return;
    const next = new Int32Array(Math.max(size, seq.length * 2));
    next.set(seq);
    this.seq[v] = next;
  }

  /** Inserts stop `u` before position `p` of route `v`; the caller has checked feasibility. */
  insert(v: number, p: number, u: number, evaluator: RouteEvaluator): boolean {
    const n = this.len[v]!;
    this.ensureCapacity(v, n + 1);
    const seq = this.seq[v]!;
    seq.copyWithin(p + 1, p, n);
    seq[p] = u;
    this.len[v] = n + 1;
    this.servedPriority += this.inst.stopPriority[u]!;
    return this.refreshRoute(v, evaluator);
  }

  /** Takes stop `u` out of its route without re-evaluating (see `refreshRoute`). */
  detach(u: number): number {
    const v = this.routeOf[u]!;
    if (v < 0) return -1;
    const seq = this.seq[v]!;
    const n = this.len[v]!;
    const p = this.posOf[u]!;
    this.touch(v);
    seq.copyWithin(p, p + 1, n);
    this.len[v] = n - 1;
    for (let i = p; i < n - 1; i++) this.posOf[seq[i]!] = i;
    this.routeOf[u] = -1;
    this.posOf[u] = -1;
    this.servedPriority -= this.inst.stopPriority[u]!;
    return v;
  }

  /** Empties route `v`, returning its stops. */
  clearRoute(v: number, evaluator: RouteEvaluator): number[] {
    const n = this.len[v]!;
    const stops = Array.from(this.seq[v]!.subarray(0, n));
    for (const s of stops) {
      this.routeOf[s] = -1;
      this.posOf[s] = -1;
      this.servedPriority -= this.inst.stopPriority[s]!;
    }
    this.len[v] = 0;
    this.refreshRoute(v, evaluator);
    return stops;
  }

  routesUsed(): number {
    let count = 0;
    for (let v = 0; v < this.inst.nVehicles; v++) if (this.len[v]! > 0) count++;
    return count;
  }

  /** Fills `out[c]` with the first unused vehicle of class c, or -1 (unused vehicles of a class are alike). */
  firstEmptyOfEachClass(out: Int32Array): void {
    out.fill(-1);
    // Done once every class has its first: a large fleet's unused vehicles are most of it (CVRP X: a thousand for some fifty routes).
    let missing = out.length;
    for (let v = 0; v < this.inst.nVehicles && missing > 0; v++) {
      if (this.len[v] !== 0) continue;
      const c = this.inst.vClass[v]!;
      if (out[c] === -1) {
        out[c] = v;
        missing--;
      }
    }
  }

  unservedStops(): number[] {
    const out: number[] = [];
    for (let s = 0; s < this.inst.nStops; s++) if (this.routeOf[s] === -1) out.push(s);
    return out;
  }
}
