/**
 * Cheapest insertion of one stop: into one route (every position) or into the best route.
 * Keys compare as (Δviolations, Δcost-key) where Δviolations carries the stability weight when
 * the route is not the stop's preferred vehicle's (cost.ts level 1b) and the cost key is Δcost
 * plus the level-3 route weight when a new route opens under `minimizeRoutes`, plus a balancing proxy.
 * On problems the segment summaries describe exactly (ls/segments.ts), positions are priced
 * in O(1) each and only the best one goes through the exact evaluator; elsewhere every
 * candidate is checked with the exact evaluator. Cheap bounds only skip candidates that
 * cannot beat the best so far.
 */
import type { Rng } from './rng.js';
import { vehicleClassCount, type SolverInstance } from './instance.js';
import { KEY_EPS } from './params.js';
import { loadExceeds } from './route/capacity.js';
import type { RouteEvaluator } from './route/evaluator.js';
import type { Solution } from './solution.js';
import { RouteSegments, SegmentAcc, segmentsApply } from './ls/segments.js';
import { RouteTimeBounds } from './ls/time-bounds.js';
import { windowsBind } from './ls/windows-bind.js';
import { nearPositions } from './near-positions.js';

export class Inserter {
  readonly inst: SolverInstance;
  readonly evaluator: RouteEvaluator;
  private readonly loadBuf: Float64Array;
  private readonly candidateBuf: Int32Array;
  private readonly classSeen: Uint8Array;
  /** Segment summaries of the routes, where they price an insertion exactly (else null). */
  private readonly summaries: RouteSegments | null;
  /**
   * The routes' time bounds where the summaries price and windows bind (else null): a position
   * where u must break a window is left before the summaries price it (bestBySummaries).
   */
  private readonly times: RouteTimeBounds | null;
  private readonly acc: SegmentAcc;
  /** While `estimateNear` runs: the positions to price (else null: all of them). */
  private onlyPositions: Int32Array | null = null;
  private onlyCount = 0;
  private nearBuf = new Int32Array(0);
  /** Insertion positions priced by the segment summaries so far: part of the search's measure of work (search/work.ts). */
  positions = 0;
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
    this.summaries = segmentsApply(inst) ? new RouteSegments(inst) : null;
    this.times = this.summaries !== null && windowsBind(inst) ? new RouteTimeBounds(inst) : null;
    this.acc = new SegmentAcc(inst.dims);
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

  /** Whether insertions are estimated by the segment summaries (else every one is priced exactly). */
  get estimates(): boolean {
    return this.summaries !== null;
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
    // Done once every class has its first unused vehicle: a recreate asks this for every stop it
    // puts back, and a large fleet's unused vehicles are most of it (GH1000: 250 vehicles, some 95 routes).
    let missing = this.classSeen.length;
    for (let v = 0; v < inst.nVehicles && missing > 0; v++) {
      if (sol.len[v] !== 0) continue;
      const c = inst.vClass[v]!;
      if (this.classSeen[c] === 0) {
        this.classSeen[c] = 1;
        missing--;
        add(v);
      }
    }
    for (let i = 0; i < count; i++) mark[out[i]!] = 0;
    // Vehicle order keeps ties deterministic and independent of how the list was gathered.
    out.subarray(0, count).sort();
    return count;
  }

  /**
   * Best insertion of `u` over `list[0..count)`; false when it fits nowhere. Where the segment
   * summaries apply, the routes are compared by their estimates and only the winner is priced
   * by the exact evaluator (all of them exactly, should it disagree).
   */
  bestAmong(sol: Solution, u: number, list: Int32Array, count: number, rng: Rng | null = null, blinkRate = 0): boolean {
    if (this.summaries !== null) {
      if (!this.scanRoutes(sol, u, list, count, rng, blinkRate, false)) return false;
      const v = this.vehicle;
      if (this.loadWith(sol, u, v) && this.priceExactly(sol, u, v, this.pos, sol.costs.insertionBaseKey(sol.len[v]!))) return true;
    }
    return this.scanRoutes(sol, u, list, count, rng, blinkRate, true);
  }

  private scanRoutes(
    sol: Solution,
    u: number,
    list: Int32Array,
    count: number,
    rng: Rng | null,
    blinkRate: number,
    exact: boolean,
  ): boolean {
    let bestV = -1;
    let bestP = -1;
    let bestViol = Infinity;
    let bestKey = Infinity;
    const nStops = this.inst.nStops;
    for (let i = 0; i < count; i++) {
      const v = list[i]!;
      if (this.inst.compatible[v * nStops + u] !== 1) continue;
      const found = exact
        ? this.bestInRoute(sol, u, v, rng, blinkRate, bestViol, bestKey)
        : this.estimateInRoute(sol, u, v, rng, blinkRate, bestViol, bestKey);
      if (!found) continue;
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
    if (!this.mayTake(sol, u, v)) return false;
    if (this.summaries !== null) {
      const found = this.bestBySummaries(sol, u, v, rng, blinkRate, boundViol, boundKey);
      // The summaries are exact here, so the exact evaluator disagrees only by round-off.
      if (found !== DISAGREED) return found === FOUND;
    }
    return this.bestByEvaluator(sol, u, v, rng, blinkRate, boundViol, boundKey);
  }

  /**
   * Like `bestInRoute`, but where the segment summaries apply their price is taken as it is,
   * without the exact evaluator's confirmation: for comparing many routes of which one is
   * taken, and then priced exactly before the insertion.
   */
  estimateInRoute(
    sol: Solution,
    u: number,
    v: number,
    rng: Rng | null = null,
    blinkRate = 0,
    boundViol = Infinity,
    boundKey = Infinity,
  ): boolean {
    if (this.summaries === null) return this.bestInRoute(sol, u, v, rng, blinkRate, boundViol, boundKey);
    if (!this.mayTake(sol, u, v)) return false;
    return this.bestBySummaries(sol, u, v, rng, blinkRate, boundViol, boundKey, false) === FOUND;
  }

  /**
   * Like `estimateInRoute`, at the bounded positions of near-positions.ts only (next to u's
   * first `use` near stops in route v, and its ends), or at every position when none of those
   * stops is in v. Where the summaries do not apply, every position is priced exactly instead.
   */
  estimateNear(sol: Solution, u: number, v: number, neighbours: Int32Array, k: number, use: number): boolean {
    if (this.summaries === null) return this.bestInRoute(sol, u, v);
    if (this.nearBuf.length < 2 * use + 2) this.nearBuf = new Int32Array(2 * use + 2);
    const count = nearPositions(sol, u, v, neighbours, k, use, this.nearBuf);
    if (count === 0) return this.estimateInRoute(sol, u, v);
    this.onlyPositions = this.nearBuf;
    this.onlyCount = count;
    const found = this.estimateInRoute(sol, u, v);
    this.onlyPositions = null;
    return found;
  }

  /** Whether route v may take u at all (u has a place, v may serve it, its load fits); fills `loadBuf`. */
  private mayTake(sol: Solution, u: number, v: number): boolean {
    const inst = this.inst;
    if (inst.stopLoc[u]! < 0 || inst.compatible[v * inst.nStops + u] !== 1) return false;
    return this.loadWith(sol, u, v);
  }

  /** Fills `loadBuf` with route v's load plus u's; false when a capacity cannot take it. */
  private loadWith(sol: Solution, u: number, v: number): boolean {
    const inst = this.inst;
    const dims = inst.dims;
    const load = this.loadBuf;
    for (let k = 0; k < dims; k++) {
      load[k] = sol.load[v * dims + k]! + inst.stopLoad[u * dims + k]!;
      if (!inst.allowOverload && loadExceeds(load[k]!, inst.vCap[v * dims + k]!)) return false;
    }
    return true;
  }

  /** Every position through the exact evaluator. */
  private bestByEvaluator(
    sol: Solution,
    u: number,
    v: number,
    rng: Rng | null,
    blinkRate: number,
    boundViol: number,
    boundKey: number,
  ): boolean {
    const n = sol.len[v]!;
    const seq = sol.seq[v]!;
    const cache = sol.cache[v]!;
    const evaluator = this.evaluator;
    const costs = sol.costs;
    // Every position of this route carries u's stability weight: violations never fall below it.
    const stability = costs.stabilityWeight(u, v);
    const oldViol = sol.rViol[v]! - stability;
    const oldCost = sol.rCost[v]!;
    const fixedKey = costs.insertionBaseKey(n);
    let bestP = -1;
    let bestViol = boundViol;
    let bestKey = boundKey;
    for (let p = 0; p <= n; p++) {
      if (blinkRate > 0 && rng && rng.next() < blinkRate) continue;
      if (bestViol <= stability + KEY_EPS && this.detourBound(sol, u, v, p) + fixedKey >= bestKey - KEY_EPS) continue;
      const route = evaluator.evaluateInsertion(v, seq, n, cache, p, u, this.loadBuf);
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

  /**
   * Every position priced by the segment summaries in O(1), the best one then checked and
   * priced by the exact evaluator. No violations are possible where the summaries apply.
   */
  private bestBySummaries(
    sol: Solution,
    u: number,
    v: number,
    rng: Rng | null,
    blinkRate: number,
    boundViol: number,
    boundKey: number,
    confirm = true,
  ): number {
    const segments = this.summaries!;
    const acc = this.acc;
    segments.ensure(sol, v, acc);
    // Most positions priced where windows bind break one (RC1_10_1: 83 %): the time bounds refuse
    // them in a few reads, and only positions the summaries would price Infinity (time-bounds.ts).
    const times = this.times;
    times?.ensure(sol, v);
    const n = sol.len[v]!;
    const fixedKey = sol.costs.insertionBaseKey(n);
    const oldCost = segments.routeCost[v]!;
    // No violations are possible here: every position's figure is u's stability weight in v.
    const stability = sol.costs.stabilityWeight(u, v);
    if (boundViol < stability - KEY_EPS) return NONE;
    let bestP = -1;
    let bestKey = boundViol > stability + KEY_EPS ? Infinity : boundKey;
    const only = this.onlyPositions;
    const count = only === null ? n + 1 : this.onlyCount;
    this.positions += count;
    for (let i = 0; i < count; i++) {
      const p = only === null ? i : only[i]!;
      if (blinkRate > 0 && rng && rng.next() < blinkRate) continue;
      if (this.detourBound(sol, u, v, p) + fixedKey >= bestKey - KEY_EPS) continue;
      if (times !== null && !times.mayJoin(sol, v, p, u, v, p)) continue;
      segments.startRoute(acc, v);
      segments.appendPrefix(acc, sol, v, p);
      segments.appendStop(acc, u);
      segments.appendSuffix(acc, sol, v, p);
      const cost = segments.finishRoute(acc, v);
      if (cost === Infinity) continue;
      const key = cost - oldCost + fixedKey;
      if (key < bestKey - KEY_EPS) {
        bestP = p;
        bestKey = key;
      }
    }
    if (bestP < 0) return NONE;
    if (!confirm) {
      this.pos = bestP;
      this.viol = stability;
      this.key = bestKey;
      return FOUND;
    }
    return this.priceExactly(sol, u, v, bestP, fixedKey) ? FOUND : DISAGREED;
  }

  /** The exact evaluation of u before position p of route v into pos / viol / key; false when infeasible. */
  private priceExactly(sol: Solution, u: number, v: number, p: number, fixedKey: number): boolean {
    const route = this.evaluator.evaluateInsertion(v, sol.seq[v]!, sol.len[v]!, sol.cache[v]!, p, u, this.loadBuf);
    if (!route) return false;
    const costs = sol.costs;
    this.pos = p;
    this.viol = costs.violations(route) - sol.rViol[v]! + costs.stabilityWeight(u, v);
    this.key = costs.insertionKey(costs.routeCost(route) - sol.rCost[v]!, fixedKey, route);
    return true;
  }

  /**
   * A lower bound of the cost change of inserting u before position p of route v: the detour
   * when the cost is the distance (which does not depend on timing); when it is the working time,
   * into an empty route (whose cost was 0) the driving out to u and on to the route's end, which
   * its working time holds; else none. The greedy floor of a fleet of many vehicle classes tries
   * an empty vehicle of each (on the 5,000-stop one-off 533,000 of its 846,000 evaluations).
   */
  private detourBound(sol: Solution, u: number, v: number, p: number): number {
    const inst = this.inst;
    if (!inst.costIsDistance) return sol.len[v] === 0 ? this.drivingAlone(u, v) : -Infinity;
    const N = inst.nLoc;
    const dist = inst.dist;
    const seq = sol.seq[v]!;
    const n = sol.len[v]!;
    const uLoc = inst.stopLoc[u]!;
    const prev = p === 0 ? inst.vStartLoc[v]! : inst.stopLoc[seq[p - 1]!]!;
    const next = p === n ? inst.vEndLoc[v]! : inst.stopLoc[seq[p]!]!;
    let detour = dist[prev * N + uLoc]!;
    if (next >= 0) detour += dist[uLoc * N + next]! - dist[prev * N + next]!;
    return detour;
  }
  /** The driving of vehicle v from its start to u and on to its end (none for an open route). */
  private drivingAlone(u: number, v: number): number {
    const inst = this.inst;
    const N = inst.nLoc;
    const dur = inst.vDur[v]!;
    const uLoc = inst.stopLoc[u]!;
    const start = inst.vStartLoc[v]!;
    const end = inst.vEndLoc[v]!;
    return (start >= 0 ? dur[start * N + uLoc]! : 0) + (end >= 0 ? dur[uLoc * N + end]! : 0);
  }
}

/** Outcomes of pricing by the summaries. */
const NONE = 0;
const FOUND = 1;
const DISAGREED = 2;
