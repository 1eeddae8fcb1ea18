/**
 * Cheapest insertion of one stop: into one route (every position) or into the best route.
 * Keys compare as (Δviolations, Δcost-key) where the cost key is Δcost plus the level-3
 * route weight when a new route opens under `minimizeRoutes`, plus a balancing proxy.
 * Every candidate is checked with the exact evaluator; cheap bounds only skip candidates
 * that cannot beat the best so far.
 */
import type { Rng } from './rng.js';
import { vehicleClassCount, type SolverInstance } from './instance.js';
import { KEY_EPS } from './params.js';
import { loadExceeds } from './route/capacity.js';
import type { RouteEvaluator } from './route/evaluator.js';
import type { Solution } from './solution.js';

export class Inserter {
  readonly inst: SolverInstance;
  readonly evaluator: RouteEvaluator;
  private readonly loadBuf: Float64Array;
  private readonly candidateBuf: Int32Array;
  private readonly classSeen: Uint8Array;
  /** Result of `bestInRoute` / `bestOverall`. */
  pos = -1;
  vehicle = -1;
  viol = Infinity;
  key = Infinity;

  constructor(inst: SolverInstance, evaluator: RouteEvaluator) {
    this.inst = inst;
    this.evaluator = evaluator;
    this.loadBuf = new Float64Array(inst.dims);
    this.candidateBuf = new Int32Array(inst.nVehicles);
    this.classSeen = new Uint8Array(vehicleClassCount(inst));
  }

  /**
   * Vehicles worth trying: every used route, plus the first empty vehicle of each class
   * (empty vehicles of one class are interchangeable). Returns the count; list in `candidates`.
   */
  collectCandidates(sol: Solution): number {
    const inst = this.inst;
    this.classSeen.fill(0);
    let count = 0;
    for (let v = 0; v < inst.nVehicles; v++) {
      if (sol.len[v]! > 0) {
        this.candidateBuf[count++] = v;
      } else {
        const c = inst.vClass[v]!;
        if (this.classSeen[c] === 0) {
          this.classSeen[c] = 1;
          this.candidateBuf[count++] = v;
        }
      }
    }
    return count;
  }

  get candidates(): Int32Array {
    return this.candidateBuf;
  }

  /** Best insertion of `u` over the candidate vehicles; false when it fits nowhere. */
  bestOverall(sol: Solution, u: number, rng: Rng | null = null, blinkRate = 0): boolean {
    const count = this.collectCandidates(sol);
    return this.bestAmong(sol, u, this.candidateBuf, count, rng, blinkRate);
  }

  /**
   * Vehicles worth trying for `u` in a large fleet: the routes of its nearest neighbours,
   * the routes in `extra`, and the first empty vehicle of each class. Returns the count.
   */
  collectNear(
    sol: Solution,
    u: number,
    neighbours: Int32Array,
    k: number,
    extra: readonly number[],
    out: Int32Array,
    mark: Uint8Array,
    use: number,
  ): number {
    const inst = this.inst;
    let count = 0;
    const add = (v: number): void => {
      if (mark[v] === 0) {
        mark[v] = 1;
        out[count++] = v;
      }
    };
    for (let i = 0; i < use; i++) {
      const t = neighbours[u * k + i]!;
      if (t < 0) break;
      const v = sol.routeOf[t]!;
      if (v >= 0) add(v);
    }
    for (const v of extra) if (sol.len[v]! > 0) add(v);
    this.classSeen.fill(0);
    for (let v = 0; v < inst.nVehicles; v++) {
      if (sol.len[v] !== 0) continue;
      const c = inst.vClass[v]!;
      if (this.classSeen[c] === 0) {
        this.classSeen[c] = 1;
        add(v);
      }
    }
    for (let i = 0; i < count; i++) mark[out[i]!] = 0;
    // Vehicle order keeps ties deterministic and independent of how the list was gathered.
    out.subarray(0, count).sort();
    return count;
  }

  /** Best insertion of `u` over `list[0..count)`; false when it fits nowhere. */
  bestAmong(sol: Solution, u: number, list: Int32Array, count: number, rng: Rng | null = null, blinkRate = 0): boolean {
    let bestV = -1;
    let bestP = -1;
    let bestViol = Infinity;
    let bestKey = Infinity;
    const nStops = this.inst.nStops;
    for (let i = 0; i < count; i++) {
      const v = list[i]!;
      if (this.inst.compatible[v * nStops + u] !== 1) continue;
      if (!this.bestInRoute(sol, u, v, rng, blinkRate, bestViol, bestKey)) continue;
      if (this.viol < bestViol - KEY_EPS || (this.viol <= bestViol + KEY_EPS && this.key < bestKey - KEY_EPS)) {
        bestV = v;
        bestP = this.pos;
        bestViol = this.viol;
        bestKey = this.key;
      }
    }
    this.vehicle = bestV;
    this.pos = bestP;
    this.viol = bestViol;
    this.key = bestKey;
    return bestV >= 0;
  }

  /**
   * Best position for `u` in route `v` that beats (boundViol, boundKey); false when none.
   * Results in pos / viol / key.
   */
  bestInRoute(
    sol: Solution,
    u: number,
    v: number,
    rng: Rng | null = null,
    blinkRate = 0,
    boundViol = Infinity,
    boundKey = Infinity,
  ): boolean {
    const inst = this.inst;
    if (inst.stopLoc[u]! < 0 || inst.compatible[v * inst.nStops + u] !== 1) return false;
    const dims = inst.dims;
    const load = this.loadBuf;
    for (let k = 0; k < dims; k++) {
      load[k] = sol.load[v * dims + k]! + inst.stopLoad[u * dims + k]!;
      if (!inst.allowOverload && loadExceeds(load[k]!, inst.vCap[v * dims + k]!)) return false;
    }
    const n = sol.len[v]!;
    const seq = sol.seq[v]!;
    const cache = sol.cache[v]!;
    const evaluator = this.evaluator;
    const costs = sol.costs;
    const oldViol = sol.rViol[v]!;
    const oldCost = sol.rCost[v]!;
    const fixedKey = costs.insertionBaseKey(n);
    const N = inst.nLoc;
    const dist = inst.dist;
    const uLoc = inst.stopLoc[u]!;
    const endLoc = inst.vEndLoc[v]!;
    let bestP = -1;
    let bestViol = boundViol;
    let bestKey = boundKey;
    for (let p = 0; p <= n; p++) {
      if (blinkRate > 0 && rng && rng.next() < blinkRate) continue;
      if (inst.costIsDistance && bestViol <= KEY_EPS) {
        // Distance does not depend on timing, so the detour bounds the key from below.
        const prev = p === 0 ? inst.vStartLoc[v]! : inst.stopLoc[seq[p - 1]!]!;
        const next = p === n ? endLoc : inst.stopLoc[seq[p]!]!;
        let detour = dist[prev * N + uLoc]!;
        if (next >= 0) detour += dist[uLoc * N + next]! - dist[prev * N + next]!;
        if (detour + fixedKey >= bestKey - KEY_EPS) continue;
      }
      const route = evaluator.evaluateInsertion(v, seq, n, cache, p, u, load);
      if (!route) continue;
      const viol = costs.violations(route) - oldViol;
      const key = costs.insertionKey(costs.routeCost(route) - oldCost, fixedKey, route);
      if (viol < bestViol - KEY_EPS || (viol <= bestViol + KEY_EPS && key < bestKey - KEY_EPS)) {
        bestP = p;
        bestViol = viol;
        bestKey = key;
      }
    }
    if (bestP < 0) return false;
    this.pos = bestP;
    this.viol = bestViol;
    this.key = bestKey;
    return true;
  }
}
