/**
 * Prize moves: local-search moves for objective level 1 (total priority served). For each
 * unserved stop u that some vehicle could serve alone, highest priority first, the first of
 * these that is feasible is applied (each raises the priority served, whatever it does to
 * violations and cost; among the candidates of one kind the best by gain, then violations,
 * then cost wins):
 *
 * - insert: u at its cheapest feasible position (the Inserter's);
 * - relocate and insert: a served stop w leaves its route r (moving next to one of its own
 *   neighbours, into another route or elsewhere in r, or alone into an unused vehicle) and u
 *   takes the cheapest position in r;
 * - swap: a served stop w of lower priority than u becomes unserved and u takes the cheapest
 *   position in r without w (not only w's slot).
 *
 * Candidates are granular: w among u's nearest neighbours (served ones), w's new place next to
 * w's nearest neighbours (thorough: anywhere in their routes). Moves are priced by the
 * `MoveEvaluator` and applied through the exact evaluator, so the plan stays feasible. The search
 * ends with thorough passes on its best plan (search/claim.ts): the whole neighbour lists,
 * repeated until nothing applies. The granular pass
 * (`thorough` false: fewer neighbours and stops, a stop looked at again only once a route near
 * it changed) is for the search's candidates, off by default (SolveOptions.prizeInSearch says why).
 */
import { vehicleClassCount, type SolverInstance } from '../instance.js';
import type { Inserter } from '../insertion.js';
import { IMPROVEMENT_EPS, PRIZE_NEIGHBOURS, PRIZE_STOPS_PER_RUN } from '../params.js';
import { loadExceeds } from '../route/capacity.js';
import type { RouteEvaluator } from '../route/evaluator.js';
import { nextStamp, type Solution } from '../solution.js';
import { MoveEvaluator, type RoutePlan } from './move.js';

/** Priorities are whole numbers: sums closer than this are equal. */
const PRIORITY_EPS = 1e-6;

export interface PrizeStats {
  inserts: number;
  relocations: number;
  swaps: number;
}

/** A candidate being kept: its gain, change of violations and change of cost. */
class Best {
  gain = -Infinity;
  viol = Infinity;
  cost = Infinity;
  /** Kind-specific choices. */
  w = -1;
  at = -1;
  target = -1;
  targetAt = -1;
  /** Within one route, whether u comes before w when both go before the same index. */
  uFirst = false;

  reset(): void {
    this.gain = -Infinity;
    this.viol = Infinity;
    this.cost = Infinity;
    this.w = -1;
  }

  beats(gain: number, viol: number, cost: number): boolean {
    if (gain !== this.gain) return gain > this.gain;
    if (viol < this.viol - IMPROVEMENT_EPS) return true;
    return viol <= this.viol + IMPROVEMENT_EPS && cost < this.cost - IMPROVEMENT_EPS;
  }

  take(gain: number, viol: number, cost: number): void {
    this.gain = gain;
    this.viol = viol;
    this.cost = cost;
  }
}

export class PrizeMoves {
  readonly stats: PrizeStats = { inserts: 0, relocations: 0, swaps: 0 };
  /** Total priority of the eligible stops: a plan serving that much has nothing left to claim. */
  readonly eligiblePriority: number;
  private readonly inst: SolverInstance;
  private readonly moves: MoveEvaluator;
  /** Eligible stops, highest priority first. */
  private readonly order: Int32Array;
  private readonly lastTested: Float64Array;
  private readonly vehicleList: Int32Array;
  private readonly vehicleMark: Uint8Array;
  private readonly emptyOfClass: Int32Array;
  private readonly best = new Best();
  /** Positions (indexes of the route as it is) u may take in the route being priced: `uAt[0..uCount)`. */
  private readonly uAt: Int32Array;
  private uCount = 0;
  private readonly atMark: Int32Array;
  /** Per vehicle: the `markStamp` of the last placement that priced every position of its route. */
  private readonly routeSeen: Int32Array;
  private markStamp = 0;
  private thorough = false;
  private readonly place = new Best();

  /** `neighbours`: `k` nearest stops per stop (the search's lists); `eligible`: stops some vehicle could serve alone. */
  constructor(
    inst: SolverInstance,
    private readonly evaluator: RouteEvaluator,
    private readonly inserter: Inserter,
    private readonly neighbours: Int32Array,
    private readonly k: number,
    eligible: readonly number[],
  ) {
    this.inst = inst;
    this.moves = new MoveEvaluator(inst, evaluator);
    const priority = inst.stopPriority;
    this.order = Int32Array.from([...eligible].sort((a, b) => priority[b]! - priority[a]! || a - b));
    let total = 0;
    for (const s of eligible) total += priority[s]!;
    this.eligiblePriority = total;
    this.lastTested = new Float64Array(inst.nStops).fill(-1);
    this.uAt = new Int32Array(inst.nStops + 1);
    this.atMark = new Int32Array(inst.nStops + 1);
    this.vehicleList = new Int32Array(inst.nVehicles);
    this.routeSeen = new Int32Array(inst.nVehicles);
    this.vehicleMark = new Uint8Array(inst.nVehicles);
    this.emptyOfClass = new Int32Array(vehicleClassCount(inst));
  }

  /** Moves priced so far: part of the measure of the final claim's work (search/claim.ts). */
  get priced(): number {
    return this.moves.priced;
  }

  /** Eligible stops `sol` leaves unserved. */
  unservedEligible(sol: Solution): number {
    let count = 0;
    for (let i = 0; i < this.order.length; i++) if (sol.routeOf[this.order[i]!] === -1) count++;
    return count;
  }

  /** Whether `sol` leaves some eligible stop unserved and serves at least `floor` priority. */
  worthTrying(sol: Solution, floor = -Infinity): boolean {
    return sol.servedPriority >= floor - PRIORITY_EPS && sol.servedPriority < this.eligiblePriority - PRIORITY_EPS;
  }

  /**
   * Applies prize moves to `sol` until `deadline` (or `outOfWork` says so); returns how many.
   * Granular (`thorough` false): one pass over at most PRIZE_STOPS_PER_RUN stops (highest
   * priority first), u's first PRIZE_NEIGHBOURS neighbours, stops whose neighbourhood did not
   * change skipped, w relocated to other routes only. Thorough: all k neighbours, every stop, w
   * also elsewhere in its own route, passes until none applies; after the first pass a stop is
   * looked at again only where a route near it or near its neighbours changed since (any route
   * for its direct insertion).
   */
  run(sol: Solution, deadline: number, thorough = false, outOfWork: (() => boolean) | null = null): number {
    if (this.order.length === 0 || this.inst.nVehicles === 0) return 0;
    const use = thorough ? this.k : Math.min(this.k, PRIZE_NEIGHBOURS);
    this.thorough = thorough;
    let applied = 0;
    let examined = 0;
    for (let first = true; ; first = false) {
      let pass = 0;
      for (let i = 0; i < this.order.length; i++) {
        const u = this.order[i]!;
        if (sol.routeOf[u] !== -1) continue;
        const near = (thorough && first) || this.changedNear(sol, u, use, thorough);
        if (!thorough && (examined >= PRIZE_STOPS_PER_RUN || !near)) continue;
        // A thorough pass after the first: a route far from u changed, where only a direct insertion can have become possible.
        if (!near && !this.changedSince(sol, this.lastTested[u]!)) continue;
        if (performance.now() > deadline || outOfWork?.() === true) return applied + pass;
        examined++;
        this.lastTested[u] = nextStamp();
        if (this.tryInsert(sol, u, use, thorough) || (near && (this.tryRelocateInsert(sol, u, use) || this.trySwap(sol, u, use)))) pass++;
      }
      applied += pass;
      if (!thorough || pass === 0) return applied;
    }
  }

  /** Whether some route changed after `stamp`. */
  private changedSince(sol: Solution, stamp: number): boolean {
    for (let v = 0; v < this.inst.nVehicles; v++) if (sol.stamp[v]! > stamp) return true;
    return false;
  }

  /**
   * Whether a route of one of u's nearest neighbours changed since u was last looked at; with
   * `second`, also a route of one of their own neighbours (where a relocated neighbour may go).
   */
  private changedNear(sol: Solution, u: number, use: number, second: boolean): boolean {
    const tested = this.lastTested[u]!;
    return tested < 0 || this.routesChanged(sol, u, use, tested, second);
  }

  private routesChanged(sol: Solution, s: number, use: number, since: number, second: boolean): boolean {
    for (let j = 0; j < use; j++) {
      const x = this.neighbours[s * this.k + j]!;
      if (x < 0) break;
      const r = sol.routeOf[x]!;
      // A neighbour left unserved: its route changed after `since` or it was unserved then too.
      if (r < 0) continue;
      if (sol.stamp[r]! > since || (second && this.routesChanged(sol, x, use, since, false))) return true;
    }
    return false;
  }

  /** Direct insertion: near routes (every route when thorough), plus one unused vehicle per class. */
  private tryInsert(sol: Solution, u: number, use: number, thorough: boolean): boolean {
    const inserter = this.inserter;
    let found: boolean;
    if (thorough) found = inserter.bestOverall(sol, u);
    else {
      const count = inserter.collectNear(sol, u, this.neighbours, this.k, [], this.vehicleList, this.vehicleMark, use);
      found = inserter.bestAmong(sol, u, this.vehicleList, count);
    }
    if (!found) return false;
    if (!sol.insert(inserter.vehicle, inserter.pos, u, this.evaluator)) {
      throw new Error('internal error: insertion accepted by the evaluator failed on commit');
    }
    this.stats.inserts++;
    return true;
  }

  /** A served neighbour w of u moves next to one of its own neighbours (or into an unused vehicle); u takes w's route. */
  private tryRelocateInsert(sol: Solution, u: number, use: number): boolean {
    const { inst, moves, best, place } = this;
    const nStops = inst.nStops;
    best.reset();
    sol.firstEmptyOfEachClass(this.emptyOfClass);
    for (let j = 0; j < use; j++) {
      const w = this.neighbours[u * this.k + j]!;
      if (w < 0) break;
      const r = sol.routeOf[w]!;
      if (r < 0 || inst.compatible[r * nStops + u] !== 1) continue;
      if (!this.loadFits(sol, r, u, w)) continue;
      moves.prepare(sol, r);
      // u into r without w, at its cheapest position; w elsewhere in another route, independently.
      this.positionsFor(sol, r, w, u, use, this.thorough);
      if (!this.bestWithout(sol, r, w, u)) continue;
      const uAt = place.at;
      const uViol = place.viol;
      const uCost = place.cost;
      this.placeElsewhere(sol, r, w, u, use);
      if (place.w >= 0 && best.beats(0, uViol + place.viol, uCost + place.cost)) {
        best.take(0, uViol + place.viol, uCost + place.cost);
        best.w = w;
        best.at = uAt;
        best.target = place.target;
        best.targetAt = place.targetAt;
      }
    }
    if (best.w < 0) return false;
    const w = best.w;
    const r = sol.routeOf[w]!;
    let count: number;
    if (best.target === r) {
      if (best.uFirst) buildRoute(moves.plans[0], r, sol.len[r]!, sol.posOf[w]!, best.at, u, best.targetAt, w);
      else buildRoute(moves.plans[0], r, sol.len[r]!, sol.posOf[w]!, best.targetAt, w, best.at, u);
      count = 1;
    } else {
      buildRoute(moves.plans[0], r, sol.len[r]!, sol.posOf[w]!, best.at, u, -1, -1);
      buildRoute(moves.plans[1], best.target, sol.len[best.target]!, -1, best.targetAt, w, -1, -1);
      count = 2;
    }
    if (!this.commit(sol, count, u, -1)) return false;
    this.stats.relocations++;
    return true;
  }

  /**
   * Prices w's new places next to its nearest neighbours: in other routes (or an unused
   * vehicle) into `place`, alone; in its own route r (thorough only), together with u, into `best`.
   */
  private placeElsewhere(sol: Solution, r: number, w: number, u: number, use: number): void {
    const place = this.place;
    place.reset();
    // Within r, u keeps to the granular positions even when thorough: every pair of places is O(route²).
    if (this.thorough) this.positionsFor(sol, r, w, u, use, false);
    const seen = ++this.markStamp;
    for (let x = 0; x < use; x++) {
      const y = this.neighbours[w * this.k + x]!;
      if (y < 0) break;
      const t = sol.routeOf[y]!;
      if (t < 0) continue;
      // Thorough: every position of each other route near w, once (a place next to y alone missed
      // room elsewhere in that route).
      if (t !== r && this.thorough) {
        if (this.routeSeen[t] !== seen) for (let q = 0; q <= sol.len[t]!; q++) this.priceInto(sol, t, w, q, place);
        this.routeSeen[t] = seen;
        continue;
      }
      const py = sol.posOf[y]!;
      for (let side = 0; side < 2; side++) {
        const q = py + side;
        if (t !== r) this.priceInto(sol, t, w, q, place);
        else if (this.thorough) this.priceWithin(sol, r, w, u, q, this.best);
      }
    }
    for (let c = 0; c < this.emptyOfClass.length; c++) {
      const t = this.emptyOfClass[c]!;
      if (t >= 0 && t !== r) this.priceInto(sol, t, w, 0, place);
    }
  }

  /** A served neighbour w of u of lower priority leaves the plan; u takes the cheapest position in w's route. */
  private trySwap(sol: Solution, u: number, use: number): boolean {
    const { inst, moves, best, place } = this;
    const priority = inst.stopPriority;
    best.reset();
    for (let j = 0; j < use; j++) {
      const w = this.neighbours[u * this.k + j]!;
      if (w < 0) break;
      const r = sol.routeOf[w]!;
      const gain = priority[u]! - priority[w]!;
      if (r < 0 || gain <= 0 || inst.compatible[r * inst.nStops + u] !== 1) continue;
      if (gain < best.gain || !this.loadFits(sol, r, u, w)) continue;
      moves.prepare(sol, r);
      this.positionsFor(sol, r, w, u, use, this.thorough);
      if (!this.bestWithout(sol, r, w, u)) continue;
      if (best.beats(gain, place.viol, place.cost)) {
        best.take(gain, place.viol, place.cost);
        best.w = w;
        best.at = place.at;
      }
    }
    if (best.w < 0) return false;
    const w = best.w;
    const r = sol.routeOf[w]!;
    buildRoute(moves.plans[0], r, sol.len[r]!, sol.posOf[w]!, best.at, u, -1, -1);
    if (!this.commit(sol, 1, u, w)) return false;
    this.stats.swaps++;
    return true;
  }

  /**
   * The positions u may take in route r once w leaves it (indexes of r as it is, `pw + 1` left
   * out: it gives the same sequence as `pw`): every one with `every`, else w's slot and the
   * places next to u's nearest neighbours in r (the granular neighbourhood).
   */
  private positionsFor(sol: Solution, r: number, w: number, u: number, use: number, every: boolean): void {
    const n = sol.len[r]!;
    const pw = sol.posOf[w]!;
    let count = 0;
    if (every) {
      for (let at = 0; at <= n; at++) if (at !== pw + 1) this.uAt[count++] = at;
      this.uCount = count;
      return;
    }
    const stamp = ++this.markStamp;
    const add = (at: number): void => {
      const p = at === pw + 1 ? pw : at;
      if (this.atMark[p] !== stamp) {
        this.atMark[p] = stamp;
        this.uAt[count++] = p;
      }
    };
    add(pw);
    for (let j = 0; j < use; j++) {
      const x = this.neighbours[u * this.k + j]!;
      if (x < 0) break;
      if (x === w || sol.routeOf[x] !== r) continue;
      add(sol.posOf[x]!);
      add(sol.posOf[x]! + 1);
    }
    this.uCount = count;
  }

  /**
   * Cheapest position (before original index `at`) of u in route r with w taken out; into
   * `place` (at, viol, cost). False when u fits nowhere there.
   */
  private bestWithout(sol: Solution, r: number, w: number, u: number): boolean {
    const { moves, place } = this;
    const n = sol.len[r]!;
    const pw = sol.posOf[w]!;
    place.reset();
    for (let i = 0; i < this.uCount; i++) {
      const at = this.uAt[i]!;
      buildRoute(moves.plans[0], r, n, pw, at, u, -1, -1);
      moves.priced++;
      const change = moves.delta(sol, 1);
      if (change === Infinity) continue;
      if (place.beats(0, moves.violationDelta, change)) {
        place.take(0, moves.violationDelta, change);
        place.w = w;
        place.at = at;
      }
    }
    return place.w >= 0;
  }

  /** Prices w inserted before position q of route t ≠ w's route; keeps it in `into` when better. */
  private priceInto(sol: Solution, t: number, w: number, q: number, into: Best): void {
    const { inst, moves } = this;
    if (inst.compatible[t * inst.nStops + w] !== 1 || !this.loadFits(sol, t, w, -1)) return;
    moves.prepare(sol, t);
    buildRoute(moves.plans[0], t, sol.len[t]!, -1, q, w, -1, -1);
    moves.priced++;
    const change = moves.delta(sol, 1);
    if (change === Infinity || !into.beats(0, moves.violationDelta, change)) return;
    into.take(0, moves.violationDelta, change);
    into.w = w;
    into.target = t;
    into.targetAt = q;
  }

  /** Prices route r with w moved before original index q and u at its cheapest position; keeps it in `into` when better. */
  private priceWithin(sol: Solution, r: number, w: number, u: number, q: number, into: Best): void {
    const moves = this.moves;
    const n = sol.len[r]!;
    const pw = sol.posOf[w]!;
    if (q === pw || q === pw + 1) return; // w stays where it is
    for (let i = 0; i < this.uCount; i++) {
      const at = this.uAt[i]!;
      for (let uFirst = 0; uFirst < (at === q ? 2 : 1); uFirst++) {
        if (uFirst === 1) buildRoute(moves.plans[0], r, n, pw, at, u, q, w);
        else buildRoute(moves.plans[0], r, n, pw, q, w, at, u);
        moves.priced++;
        const change = moves.delta(sol, 1);
        if (change === Infinity || !into.beats(0, moves.violationDelta, change)) continue;
        into.take(0, moves.violationDelta, change);
        into.w = w;
        into.at = at;
        into.target = r;
        into.targetAt = q;
        into.uFirst = uFirst === 1;
      }
    }
  }

  /** Whether route v can take stop `add` in place of stop `out` (-1: none) within its capacities. */
  private loadFits(sol: Solution, v: number, add: number, out: number): boolean {
    const inst = this.inst;
    if (!inst.capacityActive || inst.allowOverload) return true;
    const dims = inst.dims;
    for (let d = 0; d < dims; d++) {
      let load = sol.load[v * dims + d]! + inst.stopLoad[add * dims + d]!;
      if (out >= 0) load -= inst.stopLoad[out * dims + d]!;
      if (loadExceeds(load, inst.vCap[v * dims + d]!)) return false;
    }
    return true;
  }

  /**
   * Applies the planned routes through the exact evaluator and settles what `apply` does not:
   * u becomes served, `dropped` (-1: none) unserved, and the priority served follows.
   */
  private commit(sol: Solution, count: number, u: number, dropped: number): boolean {
    const priority = this.inst.stopPriority;
    if (!this.moves.apply(sol, count, this.evaluator)) {
      // The rejected plan's refresh may have placed u; the restored routes do not hold it.
      sol.routeOf[u] = -1;
      sol.posOf[u] = -1;
      return false;
    }
    sol.servedPriority += priority[u]!;
    if (dropped >= 0) {
      sol.routeOf[dropped] = -1;
      sol.posOf[dropped] = -1;
      sol.servedPriority -= priority[dropped]!;
    }
    return true;
  }
}

/**
 * Route r (n stops) with the stop at index `removed` (-1: none) taken out, stop `a` inserted
 * before original index `atA` and stop `b` (-1: none) before original index `atB` (a first
 * when both go before the same index). Indexes are of the route as it is now.
 */
function buildRoute(plan: RoutePlan, r: number, n: number, removed: number, atA: number, a: number, atB: number, b: number): void {
  plan.reset(r);
  let from = 0;
  const cut = (to: number): void => {
    if (removed >= from && removed < to) {
      plan.range(r, from, removed).range(r, removed + 1, to);
    } else plan.range(r, from, to);
    from = to;
  };
  const firstAt = b < 0 || atA <= atB ? atA : atB;
  const first = b < 0 || atA <= atB ? a : b;
  cut(firstAt);
  plan.stop(first);
  if (b >= 0) {
    const secondAt = first === a ? atB : atA;
    cut(secondAt);
    plan.stop(first === a ? b : a);
  }
  cut(n);
}
