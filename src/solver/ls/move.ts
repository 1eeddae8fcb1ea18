/**
 * A local-search move, described as the new stop sequences of the routes it changes, each
 * assembled from pieces of the current routes (ranges, reversed ranges, single stops). The
 * one `MoveEvaluator` prices a move, owns the weights of the objective as seen by the local
 * search, and applies a move through the exact evaluator, undoing it if the exact rules
 * disagree. Pricing is O(pieces) with the segment summaries on problems they describe
 * (`segmentsApply`), and otherwise the exact evaluator on the assembled route (O(route)),
 * where permitted violations (lateness, overtime, overload) come before cost.
 */
import type { SolverInstance } from '../instance.js';
import { loadExceeds } from '../route/capacity.js';
import type { RouteEvaluator } from '../route/evaluator.js';
import type { Solution } from '../solution.js';
import { RouteSegments, SegmentAcc, segmentsApply } from './segments.js';
import { RouteTimeBounds, stretchEnd } from './time-bounds.js';
import { windowsBind } from './windows-bind.js';
import { IMPROVEMENT_EPS, TW_EPS } from '../params.js';
import { movedAway, STABILITY_WEIGHT } from '../cost.js';

const RANGE = 0;
const REVERSED = 1;
const STOP = 2;
const MAX_PIECES = 6;

/** The new sequence of one vehicle's route. */
export class RoutePlan {
  vehicle = -1;
  count = 0;
  readonly kind = new Int8Array(MAX_PIECES);
  readonly src = new Int32Array(MAX_PIECES);
  readonly from = new Int32Array(MAX_PIECES);
  readonly to = new Int32Array(MAX_PIECES);

  reset(vehicle: number): this {
    this.vehicle = vehicle;
    this.count = 0;
    return this;
  }

  /** Stops seq[from..to) of route `route` (nothing when from ≥ to). */
  range(route: number, from: number, to: number): this {
    if (from < to) this.push(RANGE, route, from, to);
    return this;
  }

  reversed(route: number, from: number, to: number): this {
    if (from < to) this.push(REVERSED, route, from, to);
    return this;
  }

  stop(s: number): this {
    this.push(STOP, s, 0, 0);
    return this;
  }

  private push(kind: number, src: number, from: number, to: number): void {
    const i = this.count++;
    this.kind[i] = kind;
    this.src[i] = src;
    this.from[i] = from;
    this.to[i] = to;
  }
}

export class MoveEvaluator {
  /** Moves priced so far (for the operator counters). */
  priced = 0;
  readonly inst: SolverInstance;
  /** True when moves are priced with the segment summaries, false when with the exact evaluator. */
  readonly fast: boolean;
  readonly segments: RouteSegments;
  /**
   * The routes' time bounds, which refuse a move between routes that must break a window before it
   * is priced (null: exact pricing, not asked for, or windows priced: priceWarp).
   */
  times: RouteTimeBounds | null;
  readonly plans: [RoutePlan, RoutePlan] = [new RoutePlan(), new RoutePlan()];
  private readonly acc: SegmentAcc;
  private readonly allCompatible: boolean;
  private readonly scratch: Int32Array[] = [];
  private readonly backup: Int32Array[] = [];
  private readonly backupLen = new Int32Array(2);
  /**
   * When the cost is the distance alone (and routes are not minimised), a move whose change of
   * arcs does not shorten the plan cannot improve it: operators check `arcs` first and skip the
   * full evaluation. Distances must be symmetric for reversed strings to keep their length,
   * and all vehicles must share one depot (tails change vehicles; an emptied route costs 0).
   */
  readonly distanceFilter: boolean;
  /**
   * Where the distance filter holds, no route's duration can reach its shift's end or a window's
   * (timeNeverBinds), no stop is sequenced and every vehicle serves every stop, a move's change of
   * cost is its change of arcs plus, where capacity is penalised, its change of the overload's
   * penalty, and the filters work both out from the routes' loads: the operators then decide a move
   * by them (`decide`) instead of pricing its routes piece by piece (`improves`), which on CVRP
   * walked the pieces of every move that passed the filters (a penalised search passes three times
   * as many). Distances are whole numbers, so the verdicts are pricing's and so are the plans; a
   * decided move still counts as priced (the work measured stays as it was). Callgrind, fresh
   * processes, seed 0: X-n331 at 300 iterations 13.60 G instructions against 14.84 G, X-n1001 at
   * 200 iterations 15.95 G against 17.31 G, X-n237 at 300 with penalised capacity 20.76 G against
   * 23.91 G, each the same plan as main's. The ten issue-26 X at 10 s, fresh processes beside main
   * c721c4f (load 6–9), seeds 0 / 1: 5,631 / 3,771 iterations on average against 5,175 / 3,559,
   * 0.94 / 1.21 % mean gap against 1.04 / 1.13 % (one run's noise); X-n143 and n190 stop by
   * themselves with main's plans 0.3–0.8 s sooner.
   */
  readonly arcsDecide: boolean;
  readonly symmetric: boolean;
  private readonly dist: Int32Array;
  private readonly N: number;
  /** Exact pricing: the assembled route and its load. */
  private readonly evalSeq: Int32Array;
  private readonly evalLoad: Float64Array;
  /** Violations of the last priced plan (exact pricing). */
  private planViolations = 0;
  /** Change of permitted violations and stability weights of the last `delta` (only the latter with the segment summaries). */
  violationDelta = 0;

  /**
   * `timeBounds`: keep the routes' time bounds (`times`) where moves are priced by the summaries;
   * the local search asks for them where windows bind (windowsBind), elsewhere they refuse nothing.
   */
  constructor(
    inst: SolverInstance,
    private readonly evaluator: RouteEvaluator,
    timeBounds = false,
  ) {
    this.inst = inst;
    this.fast = segmentsApply(inst);
    this.segments = new RouteSegments(inst);
    this.times = this.fast && timeBounds ? new RouteTimeBounds(inst) : null;
    this.evalSeq = new Int32Array(inst.nStops + 1);
    this.evalLoad = new Float64Array(inst.dims);
    this.acc = new SegmentAcc(inst.dims);
    let all = true;
    for (let i = 0; i < inst.compatible.length && all; i++) if (inst.compatible[i] !== 1) all = false;
    this.allCompatible = all;
    this.dist = inst.dist;
    this.N = inst.nLoc;
    // Known by construction on offline and Euclidean matrices; a road table is scanned.
    this.symmetric = inst.distSymmetric || isSymmetric(inst.dist, inst.nLoc);
    // Preferences too: a move that restores one lengthens the plan as often as not.
    this.distanceFilter =
      inst.costIsDistance && !inst.minimizeRoutes && sharedDepot(inst) && !violationsPossible(inst) && !inst.preferences;
    this.arcsDecide = this.distanceFilter && this.fast && !inst.sequenced && this.allCompatible && timeNeverBinds(inst);
    for (let i = 0; i < 2; i++) {
      this.scratch.push(new Int32Array(inst.nStops + 1));
      this.backup.push(new Int32Array(inst.nStops + 1));
    }
  }

  /** Location just before position p of route r (its start location at p = 0). */
  locBefore(sol: Solution, r: number, p: number): number {
    return p === 0 ? this.inst.vStartLoc[r]! : this.inst.stopLoc[sol.seq[r]![p - 1]!]!;
  }

  /** Location at position p of route r; at p = len its end location (-1 for an open route). */
  locAt(sol: Solution, r: number, p: number): number {
    return p === sol.len[r]! ? this.inst.vEndLoc[r]! : this.inst.stopLoc[sol.seq[r]![p]!]!;
  }

  /** Distance of the arc a → b; 0 into the end of an open route (b = -1). */
  arc(a: number, b: number): number {
    return b < 0 ? 0 : this.dist[a * this.N + b]!;
  }

  /**
   * Whether route v can take stops seq_src[from..to) in place of stop `out` (-1: none) without
   * exceeding a capacity: a cheap necessary check before the full evaluation.
   */
  loadFits(sol: Solution, v: number, src: number, from: number, to: number, out: number): boolean {
    const inst = this.inst;
    if (!inst.capacityActive || inst.allowOverload) return true;
    const dims = inst.dims;
    const seq = sol.seq[src]!;
    for (let k = 0; k < dims; k++) {
      let load = sol.load[v * dims + k]!;
      for (let i = from; i < to; i++) load += inst.stopLoad[seq[i]! * dims + k]!;
      if (out >= 0) load -= inst.stopLoad[out * dims + k]!;
      const cap = inst.vCap[v * dims + k]!;
      if (loadExceeds(load, cap)) return false;
    }
    return true;
  }

  /**
   * The penalty route v pays now for load above its capacity, where capacity is penalised
   * (RouteSegments.penaliseOverload); 0 elsewhere. Bounds what a move between routes may lengthen
   * the plan by and still improve it (the distance filters, pair-arcs.ts).
   */
  overloadPenaltyOf(sol: Solution, v: number): number {
    return this.segments.overloadPenaltyOf(v, sol.load, v * this.inst.dims);
  }

  /**
   * What the overload's penalty rises by (negative: falls) when routes ru and rx ≠ ru exchange their
   * tails from positions cu and cx on (2-opt*: ru's head before cu with rx's tail from cx, and the
   * other way round), from the routes' loads and their heads' (both routes' summaries prepared);
   * Infinity where a load would exceed a capacity that is not penalised. Only where `arcsDecide`.
   */
  crossLoadChange(sol: Solution, ru: number, cu: number, rx: number, cx: number): number {
    const dims = this.inst.dims;
    const moved = this.evalLoad;
    // moved: what ru gains (rx's tail less its own), per dimension.
    for (let k = 0; k < dims; k++) {
      const uTail = sol.load[ru * dims + k]! - this.segments.headLoad(ru, cu, k);
      const xTail = sol.load[rx * dims + k]! - this.segments.headLoad(rx, cx, k);
      moved[k] = xTail - uTail;
    }
    const segments = this.segments;
    if (segments.penalised) {
      const before = segments.overloadPenaltyOf(ru, sol.load, ru * dims) + segments.overloadPenaltyOf(rx, sol.load, rx * dims);
      const after =
        segments.overloadPenaltyOf(ru, sol.load, ru * dims, moved, 1) + segments.overloadPenaltyOf(rx, sol.load, rx * dims, moved, -1);
      return after - before;
    }
    if (!this.inst.capacityActive) return 0;
    for (let k = 0; k < dims; k++) {
      if (loadExceeds(sol.load[ru * dims + k]! + moved[k]!, this.inst.vCap[ru * dims + k]!)) return Infinity;
      if (loadExceeds(sol.load[rx * dims + k]! - moved[k]!, this.inst.vCap[rx * dims + k]!)) return Infinity;
    }
    return 0;
  }

  /**
   * Where `arcsDecide`: counts the move as priced (the work measured, and so the seeded plans, stay
   * what they were with pricing) and answers whether its whole change of cost, `change`, improves.
   */
  decide(change: number): boolean {
    this.priced++;
    return change < -IMPROVEMENT_EPS;
  }

  /** Where `arcsDecide`: a move the filter passed improves; counted as priced, as `decide`. */
  passed(): true {
    this.priced++;
    return true;
  }

  /** Makes route v's summaries current; call before building plans that read route v. */
  prepare(sol: Solution, v: number): void {
    if (this.fast) this.segments.ensure(sol, v, this.acc);
    this.times?.ensure(sol, v);
  }

  /**
   * From now on a route may break windows at `penalty` a unit of time warp (RouteSegments.penaliseWarp)
   * and no time bounds refuse a move; the evaluator that applies the moves must have the windows
   * lifted (search/penalised-polish.ts).
   */
  priceWarp(penalty: number): void {
    this.segments.penaliseWarp(penalty);
    this.times = null;
  }

  /** Route v's time warp as its summaries have it now (above TW_EPS only where RouteSegments.penaliseWarp lets it be). */
  timeWarpOf(sol: Solution, v: number): number {
    this.prepare(sol, v);
    return this.segments.routeWarp[v]!;
  }

  /**
   * What a move on routes ru and rx (may be ru) may take off their time warp's penalty at most:
   * all of it (no route's warp falls below 0), where windows are penalised (RouteSegments.penaliseWarp);
   * 0 elsewhere. Bounds what such a move may lengthen the plan by and still improve it (the
   * distance filters, pair-arcs.ts, as the overload's penalty does).
   */
  warpRoom(sol: Solution, ru: number, rx: number): number {
    const rate = this.segments.warpPenaltyPerUnit;
    if (rate === 0) return 0;
    const warp = this.timeWarpOf(sol, ru) + (rx === ru ? 0 : this.timeWarpOf(sol, rx));
    return warp > TW_EPS ? rate * warp : 0;
  }

  /**
   * Counts a move the time bounds refused as priced: the search's measure of work (search/work.ts)
   * stays what it was without the bounds, and so do the seeded plans; only the time falls.
   * Answers 0, the routes an operator changes when it finds nothing.
   */
  refuse(): 0 {
    this.priced++;
    return 0;
  }

  /** Objective weight of route v as it is now (cost, plus the route weight when routes are minimised). */
  currentValue(sol: Solution, v: number): number {
    return (this.fast ? this.segments.routeCost[v]! : sol.rCost[v]!) + sol.costs.routeWeight(sol.len[v]! > 0);
  }

  /** Violations figure of route v as it is now: the permitted violations and the stability weight of its moved stops. */
  private currentViolations(sol: Solution, v: number): number {
    return (this.fast ? 0 : sol.rViol[v]!) + STABILITY_WEIGHT * sol.rMoved[v]!;
  }

  /**
   * Objective weight of a planned route; Infinity when it breaks a rule. Sets `planViolations`:
   * its permitted violations plus the stability weight of its stops away from their preferred vehicle.
   */
  planValue(sol: Solution, plan: RoutePlan): number {
    const value = this.fast ? this.fastPlanValue(sol, plan) : this.exactPlanValue(sol, plan);
    if (value !== Infinity && this.inst.preferences) this.planViolations += STABILITY_WEIGHT * this.movedIn(sol, plan);
    return value;
  }

  /** Stops of a planned route whose preferred vehicle is another one: O(stops), run only when some stop has a preference. */
  private movedIn(sol: Solution, plan: RoutePlan): number {
    const v = plan.vehicle;
    let moved = 0;
    for (let i = 0; i < plan.count; i++) {
      if (plan.kind[i] === STOP) {
        if (movedAway(this.inst, plan.src[i]!, v)) moved++;
        continue;
      }
      const seq = sol.seq[plan.src[i]!]!;
      for (let j = plan.from[i]!; j < plan.to[i]!; j++) if (movedAway(this.inst, seq[j]!, v)) moved++;
    }
    return moved;
  }

  private fastPlanValue(sol: Solution, plan: RoutePlan): number {
    const segments = this.segments;
    const acc = this.acc;
    const v = plan.vehicle;
    segments.startRoute(acc, v);
    for (let i = 0; i < plan.count; i++) {
      const kind = plan.kind[i]!;
      const src = plan.src[i]!;
      if (kind === STOP) {
        if (!this.allCompatible && this.inst.compatible[v * this.inst.nStops + src] !== 1) return Infinity;
        segments.appendStop(acc, src);
        continue;
      }
      if (!this.allCompatible && src !== v && !this.rangeCompatible(sol, v, src, plan.from[i]!, plan.to[i]!)) return Infinity;
      segments.appendRange(acc, sol, src, plan.from[i]!, plan.to[i]!, kind === REVERSED);
    }
    const cost = segments.finishRoute(acc, v);
    if (cost === Infinity) return Infinity;
    this.planViolations = 0;
    return cost + sol.costs.routeWeight(acc.stops > 0);
  }

  private exactPlanValue(sol: Solution, plan: RoutePlan): number {
    const inst = this.inst;
    const v = plan.vehicle;
    const n = this.materialize(sol, plan, this.evalSeq);
    const dims = inst.dims;
    const load = this.evalLoad;
    load.fill(0);
    const base = v * inst.nStops;
    for (let i = 0; i < n; i++) {
      const s = this.evalSeq[i]!;
      if (!this.allCompatible && inst.compatible[base + s] !== 1) return Infinity;
      for (let k = 0; k < dims; k++) load[k]! += inst.stopLoad[s * dims + k]!;
    }
    if (!inst.allowOverload) for (let k = 0; k < dims; k++) if (loadExceeds(load[k]!, inst.vCap[v * dims + k]!)) return Infinity;
    this.planViolations = 0;
    if (n === 0) return 0;
    const route = this.evaluator.evaluate(v, this.evalSeq, n, load);
    if (!route) return Infinity;
    this.planViolations = sol.costs.violations(route);
    return sol.costs.routeCost(route) + sol.costs.routeWeight(true);
  }

  /**
   * Change of the cost (with the route weight) if the planned routes replaced the current ones;
   * Infinity when one breaks a rule. The change of permitted violations is left in `violationDelta`.
   */
  delta(sol: Solution, count: number): number {
    let change = 0;
    let violations = 0;
    for (let i = 0; i < count; i++) {
      const plan = this.plans[i]!;
      const value = this.planValue(sol, plan);
      if (value === Infinity) return Infinity;
      change += value - this.currentValue(sol, plan.vehicle);
      violations += this.planViolations - this.currentViolations(sol, plan.vehicle);
    }
    this.violationDelta = violations;
    return change;
  }

  /** Whether the planned move improves the objective: fewer violations, or as many and a lower cost. */
  improves(sol: Solution, count: number): boolean {
    this.priced++;
    // Where windows bind, nearly every move within one route priced here breaks a window (RC1_10_1:
    // 99 %, R1_10_1: all): the time bounds refuse those in a few reads, where the summaries walk the
    // moved stretch stop by stop. They refuse only what pricing refuses (time-bounds.ts).
    if (count === 1 && this.times !== null && this.mustBeLate(sol, this.plans[0])) return false;
    const change = this.delta(sol, count);
    if (change === Infinity) return false;
    const violations = this.violationDelta;
    if (violations < -IMPROVEMENT_EPS) return true;
    return violations <= IMPROVEMENT_EPS && change < -IMPROVEMENT_EPS;
  }

  /**
   * Whether the time bounds show that the planned route must break a window: it keeps its vehicle's
   * own stops before `head` and from `tail` on (its first and last pieces, where they are those),
   * and the stops between, served as early as possible, close a window or reach the tail too late.
   * The vehicle's bounds must be current (prepare).
   */
  mustBeLate(sol: Solution, plan: RoutePlan): boolean {
    const times = this.times!;
    const v = plan.vehicle;
    const n = sol.len[v]!;
    let first = 0;
    let last = plan.count;
    let head = 0;
    let tail = n;
    if (last > 0 && plan.kind[0] === RANGE && plan.src[0] === v && plan.from[0] === 0) {
      head = plan.to[0]!;
      first = 1;
    }
    if (last > first && plan.kind[last - 1] === RANGE && plan.src[last - 1] === v && plan.to[last - 1] === n) {
      tail = plan.from[last - 1]!;
      last--;
    }
    // An empty route is always on time (the summaries price it 0).
    if (first === last && head === 0 && tail === n) return false;
    const stopLoc = this.inst.stopLoc;
    let t = times.departBefore(v, head);
    let at = this.locBefore(sol, v, head);
    for (let i = first; i < last; i++) {
      const kind = plan.kind[i]!;
      if (kind === STOP) {
        const s = plan.src[i]!;
        t = times.serve(t, at, s);
        if (t === Infinity) return true;
        at = stopLoc[s]!;
        continue;
      }
      const seq = sol.seq[plan.src[i]!]!;
      const from = plan.from[i]!;
      const to = plan.to[i]!;
      const reversed = kind === REVERSED;
      t = times.serveStretch(t, at, seq, from, to, reversed);
      if (t === Infinity) return true;
      at = stretchEnd(this.inst, seq, from, to, reversed, at);
    }
    return !times.reaches(sol, t, at, v, tail);
  }

  /**
   * Replaces the planned routes in `sol`, checking each with the exact evaluator; when one
   * fails, restores all of them and returns false.
   */
  apply(sol: Solution, count: number, evaluator: RouteEvaluator): boolean {
    for (let i = 0; i < count; i++) this.materialize(sol, this.plans[i]!, this.scratch[i]!);
    for (let i = 0; i < count; i++) {
      const v = this.plans[i]!.vehicle;
      const n = sol.len[v]!;
      // Copied stop by stop: a subarray view a move was the local search's largest allocation after 2-opt's closure.
      const seq = sol.seq[v]!;
      const backup = this.backup[i]!;
      for (let j = 0; j < n; j++) backup[j] = seq[j]!;
      this.backupLen[i] = n;
    }
    let ok = true;
    for (let i = 0; i < count; i++) sol.assignRoute(this.plans[i]!.vehicle, this.scratch[i]!, this.planLength(this.plans[i]!));
    for (let i = 0; i < count && ok; i++) ok = sol.refreshRoute(this.plans[i]!.vehicle, evaluator);
    if (ok) return true;
    for (let i = 0; i < count; i++) sol.assignRoute(this.plans[i]!.vehicle, this.backup[i]!, this.backupLen[i]!);
    for (let i = 0; i < count; i++) {
      if (!sol.refreshRoute(this.plans[i]!.vehicle, evaluator))
        throw new Error('internal error: restoring a route after a rejected move failed');
    }
    return false;
  }

  private planLength(plan: RoutePlan): number {
    let n = 0;
    for (let i = 0; i < plan.count; i++) n += plan.kind[i] === STOP ? 1 : plan.to[i]! - plan.from[i]!;
    return n;
  }

  private materialize(sol: Solution, plan: RoutePlan, out: Int32Array): number {
    let n = 0;
    for (let i = 0; i < plan.count; i++) {
      const kind = plan.kind[i]!;
      if (kind === STOP) {
        out[n++] = plan.src[i]!;
        continue;
      }
      const seq = sol.seq[plan.src[i]!]!;
      const from = plan.from[i]!;
      const to = plan.to[i]!;
      if (kind === RANGE) for (let j = from; j < to; j++) out[n++] = seq[j]!;
      else for (let j = to - 1; j >= from; j--) out[n++] = seq[j]!;
    }
    return n;
  }

  private rangeCompatible(sol: Solution, v: number, src: number, from: number, to: number): boolean {
    const seq = sol.seq[src]!;
    const base = v * this.inst.nStops;
    for (let j = from; j < to; j++) if (this.inst.compatible[base + seq[j]!] !== 1) return false;
    return true;
  }
}

function isSymmetric(dist: Int32Array, N: number): boolean {
  for (let i = 0; i < N; i++) for (let j = i + 1; j < N; j++) if (dist[i * N + j] !== dist[j * N + i]) return false;
  return true;
}

/**
 * Whether no route can break a shift's end or a window: every vehicle's shift, from its departure,
 * outlasts a route through every stop (each stop's service and its longest drive on) and no window
 * ends before the latest shift (windowsBind: none starts after the first departure or ends before
 * the last shift's end). Distance-priced moves then never break a rule of time.
 */
export function timeNeverBinds(inst: SolverInstance): boolean {
  if (inst.nVehicles === 0 || windowsBind(inst)) return false;
  const longest = longestRouteDuration(inst);
  for (let v = 0; v < inst.nVehicles; v++) if (inst.vDepart0[v]! + longest > inst.vShiftEnd[v]!) return false;
  return true;
}

/** An upper bound of any route's duration: from the start, each stop's service and its longest drive on (vehicles share one travel profile: segmentsApply). */
function longestRouteDuration(inst: SolverInstance): number {
  const dur = inst.vDur[0]!;
  const N = inst.nLoc;
  const longestFrom = (loc: number): number => {
    let longest = 0;
    for (let t = 0; t < N; t++) if (dur[loc * N + t]! > longest) longest = dur[loc * N + t]!;
    return longest;
  };
  let total = longestFrom(inst.vStartLoc[0]!);
  for (let s = 0; s < inst.nStops; s++) total += inst.stopDur[s]! + longestFrom(inst.stopLoc[s]!);
  return total;
}

/** Every vehicle starts at the same place and ends there too (or ends open). */
function sharedDepot(inst: SolverInstance): boolean {
  if (inst.nVehicles === 0) return false;
  const start = inst.vStartLoc[0]!;
  const end = inst.vEndLoc[0]!;
  if (end >= 0 && end !== start) return false;
  for (let v = 1; v < inst.nVehicles; v++) if (inst.vStartLoc[v] !== start || inst.vEndLoc[v] !== end) return false;
  return true;
}

/** Whether some stop may be late, some route run over or some vehicle be overloaded. */
function violationsPossible(inst: SolverInstance): boolean {
  if (inst.allowOverload) return true;
  for (let s = 0; s < inst.nStops; s++) if (inst.stopMaxLate[s]! > 0) return true;
  for (let v = 0; v < inst.nVehicles; v++) if (inst.vMaxOvertime[v]! > 0) return true;
  return false;
}
