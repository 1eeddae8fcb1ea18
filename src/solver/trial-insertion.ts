/**
 * Trial insertion of one stop into one route of a plan as it stands, at every position, under
 * the rules of a given evaluator (the problem's own, or a RelaxedView's): what the unserved
 * reasons and hints (unserved-blocks.ts, unserved-hints.ts) are checked with. A position continues
 * the route's forward cache when the rule changed leaves the stops before it as they were, and is
 * evaluated over the whole route otherwise.
 */
import { overloadOf } from './route/capacity.js';
import type { RouteEvaluator, RouteResult } from './route/evaluator.js';
import type { Solution } from './solution.js';

/** The cheapest position found and what the route would then be. */
export interface TrialFit {
  vehicle: number;
  pos: number;
  /** Level-4 cost of the route with the stop, minus its cost without. */
  costAdded: number;
  /** Working time and distance of the route with the stop, minus without (time and distance units). */
  workAdded: number;
  distanceAdded: number;
}

export class TrialInsertion {
  private readonly sol: Solution;
  private buf: Int32Array;
  private readonly load: Float64Array;
  /** Evaluations made: the bounded work of explaining a plan's unserved stops. */
  evaluations = 0;

  constructor(sol: Solution) {
    this.sol = sol;
    this.buf = new Int32Array(16);
    this.load = new Float64Array(sol.inst.dims);
  }

  /**
   * The cheapest position of stop s in vehicle v's route under `evaluator`'s rules, or null when
   * none fits. `prefixKept`: the rules changed leave the route's stops before the insertion as
   * they were (any change but other stops' windows), so each position continues the route's
   * forward cache instead of walking the whole route.
   */
  best(evaluator: RouteEvaluator, v: number, s: number, prefixKept = true): TrialFit | null {
    const sol = this.sol;
    const n = sol.len[v]!;
    if (overloadOf(evaluator.inst, v, this.loadWith(v, s), 0) < 0) return null;
    this.prepare(v, s, n);
    let found: TrialFit | null = null;
    for (let p = 0; p <= n; p++) {
      const route = this.evaluateAt(evaluator, v, s, n, p, prefixKept);
      if (!route) continue;
      const costAdded = sol.costs.routeCost(route) - sol.rCost[v]!;
      if (found && costAdded >= found.costAdded) continue;
      found = { vehicle: v, pos: p, costAdded, workAdded: route.working - sol.rWork[v]!, distanceAdded: route.distance };
    }
    if (found) found.distanceAdded -= this.routeDistance(evaluator, v, n);
    return found;
  }

  /** The earliest end of vehicle v's route with s inserted at any position that fits, or Infinity. */
  earliestEnd(evaluator: RouteEvaluator, v: number, s: number): number {
    const n = this.sol.len[v]!;
    this.prepare(v, s, n);
    let end = Infinity;
    for (let p = 0; p <= n; p++) {
      const route = this.evaluateAt(evaluator, v, s, n, p, true);
      if (route && route.end < end) end = route.end;
    }
    return end;
  }

  /** Whether stop s fits vehicle v's route at some position under `evaluator`'s rules (`prefixKept` as for `best`). */
  fits(evaluator: RouteEvaluator, v: number, s: number, prefixKept = true): boolean {
    const n = this.sol.len[v]!;
    // Over capacity at every position alike: told without walking the route.
    if (overloadOf(evaluator.inst, v, this.loadWith(v, s), 0) < 0) return false;
    this.prepare(v, s, n);
    for (let p = 0; p <= n; p++) if (this.evaluateAt(evaluator, v, s, n, p, prefixKept)) return true;
    return false;
  }

  private evaluateAt(evaluator: RouteEvaluator, v: number, s: number, n: number, p: number, prefixKept: boolean): RouteResult | null {
    this.evaluations++;
    const sol = this.sol;
    if (prefixKept) return evaluator.evaluateInsertion(v, sol.seq[v]!, n, sol.cache[v]!, p, s, this.load);
    this.place(v, s, n, p);
    return evaluator.evaluate(v, this.buf, n + 1, this.load);
  }

  /** The route's load with stop s, in `load`. */
  private loadWith(v: number, s: number): Float64Array {
    const { inst, load } = this.sol;
    const dims = inst.dims;
    for (let k = 0; k < dims; k++) this.load[k] = load[v * dims + k]! + inst.stopLoad[s * dims + k]!;
    return this.load;
  }

  private prepare(v: number, s: number, n: number): void {
    const { inst, load } = this.sol;
    const dims = inst.dims;
    if (this.buf.length < n + 1) this.buf = new Int32Array(2 * (n + 1));
    for (let k = 0; k < dims; k++) this.load[k] = load[v * dims + k]! + inst.stopLoad[s * dims + k]!;
  }

  /** The route's stops with s before position p, in `buf`. */
  private place(v: number, s: number, n: number, p: number): void {
    const seq = this.sol.seq[v]!;
    this.buf.set(seq.subarray(0, p), 0);
    this.buf[p] = s;
    this.buf.set(seq.subarray(p, n), p + 1);
  }

  /** The distance of the route as it stands (the plan's routes keep no distance of their own). */
  private routeDistance(evaluator: RouteEvaluator, v: number, n: number): number {
    if (n === 0) return 0;
    const dims = this.sol.inst.dims;
    const route = evaluator.evaluate(v, this.sol.seq[v]!, n, this.sol.load, v * dims);
    return route ? route.distance : 0;
  }
}
