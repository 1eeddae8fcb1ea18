/**
 * The objective of decisions.md, owned in one place: the lexicographic levels
 * (1) total priority served (higher is better), (1b) stability: stops served by another
 * vehicle than the one they prefer (lower; a re-optimization after dispatch keeps each undone
 * stop with its driver unless moving it serves more priority), (2) permitted violations —
 * lateness + overtime + overload (lower), (3) routes used when `minimizeRoutes` (lower), (4)
 * cost: working time or distance plus a balancing spread penalty (lower); and every weight the
 * search folds them into (the stability weight of level 1b, the route weight of level 3, the
 * balance unit of level 4).
 */
import { FAR, type SolverInstance } from './instance.js';
import type { RouteResult } from './route/evaluator.js';

export interface ObjectiveValue {
  priority: number;
  violations: number;
  routes: number;
  /** Stops served away from their preferred vehicle (level 1b). */
  moved: number;
  cost: number;
}

/** Tolerance for float sums of costs and violations so that round-off never decides. */
const EPS = 1e-6;

/** Level-3 weight folded into single-number keys when routes are minimised: dwarfs any cost. */
const ROUTE_KEY = 1e12;

/**
 * Level-1b weight folded into the permitted-violations figure of insertions and moves (which
 * rank them before cost), per stop served away from its preferred vehicle: dwarfs any day's
 * lateness and overtime in seconds, so a stop moves neither to be less late nor to save
 * distance. Whole seconds plus whole multiples of it stay exact in a double.
 */
export const STABILITY_WEIGHT = 1e9;

/** Negative when `a` is better than `b`, positive when worse, 0 when equal. */
export function compareObjective(a: ObjectiveValue, b: ObjectiveValue, minimizeRoutes: boolean): number {
  const upper = compareUpperLevels(a, b, minimizeRoutes);
  if (upper !== 0) return upper;
  if (Math.abs(a.cost - b.cost) > EPS * Math.max(1, Math.abs(b.cost))) return a.cost - b.cost;
  return 0;
}

/** Levels 1–3 only: negative when `a` is better. */
export function compareUpperLevels(a: ObjectiveValue, b: ObjectiveValue, minimizeRoutes: boolean): number {
  if (Math.abs(a.priority - b.priority) > EPS) return b.priority - a.priority;
  if (a.moved !== b.moved) return a.moved - b.moved;
  if (Math.abs(a.violations - b.violations) > EPS) return a.violations - b.violations;
  if (minimizeRoutes && a.routes !== b.routes) return a.routes - b.routes;
  return 0;
}

export function copyObjective(value: ObjectiveValue): ObjectiveValue {
  return { priority: value.priority, violations: value.violations, routes: value.routes, moved: value.moved, cost: value.cost };
}

/** The per-route totals of a plan that the objective reads (a Solution has them). */
export interface PlanTotals {
  readonly len: Int32Array;
  readonly rCost: Float64Array;
  readonly rWork: Float64Array;
  readonly rViol: Float64Array;
  /** Per route: its stops whose preferred vehicle is another one. */
  readonly rMoved: Int32Array;
  readonly servedPriority: number;
}

export class CostEvaluator {
  readonly inst: SolverInstance;
  /** What one order of imbalance costs under `balanceType: orders` (see `meanStopCost`). */
  readonly balanceUnit: number;

  constructor(inst: SolverInstance, balanceUnit = meanStopCost(inst)) {
    this.inst = inst;
    this.balanceUnit = balanceUnit;
  }

  /** Level-4 cost of an evaluated route (0 for an empty one, whose figures are all 0). */
  routeCost(route: RouteResult): number {
    return this.inst.costIsDistance ? route.distance : route.working;
  }

  /** Level-2 permitted violations of an evaluated route. */
  violations(route: RouteResult): number {
    return route.lateness + route.overtime + route.overload;
  }

  /** Level 3 folded into a route's key: the route weight when it is used and routes are minimised. */
  routeWeight(used: boolean): number {
    return used && this.inst.minimizeRoutes ? ROUTE_KEY : 0;
  }

  /** Level 1b as the violations figure of an insertion: the stability weight when vehicle v is not stop s's preferred one. */
  stabilityWeight(s: number, v: number): number {
    return movedAway(this.inst, s, v) ? STABILITY_WEIGHT : 0;
  }

  /**
   * The part of the key of inserting a stop into a route of `stops` stops that does not depend
   * on the position: opening a route, and under order balancing the route's growing share.
   */
  insertionBaseKey(stops: number): number {
    let key = this.routeWeight(stops === 0);
    if (this.inst.balance === 'orders') key += this.balanceUnit * stops;
    return key;
  }

  /**
   * Key of an insertion that changes the route's cost by `costChange` into `route`: a proxy of
   * the whole objective's change (time balancing favours the shorter routes).
   */
  insertionKey(costChange: number, baseKey: number, route: RouteResult): number {
    let key = costChange + baseKey;
    if (this.inst.balance === 'time') key += 0.5 * route.working;
    return key;
  }

  objective(sol: PlanTotals): ObjectiveValue {
    const inst = this.inst;
    let violations = 0;
    let cost = 0;
    let routes = 0;
    let moved = 0;
    for (let v = 0; v < inst.nVehicles; v++) {
      violations += sol.rViol[v]!;
      moved += sol.rMoved[v]!;
      cost += sol.rCost[v]!;
      if (sol.len[v]! > 0) routes++;
    }
    return { priority: sol.servedPriority, violations, routes, moved, cost: cost + this.balancePenalty(sol) };
  }

  /**
   * Spread of working time (or of orders, priced at `balanceUnit` each) across the vehicles:
   * all vehicles, or only the routes used when routes are being minimised.
   */
  balancePenalty(sol: PlanTotals): number {
    const inst = this.inst;
    if (inst.balance === 'none') return 0;
    let lo = FAR;
    let hi = -FAR;
    for (let v = 0; v < inst.nVehicles; v++) {
      if (inst.minimizeRoutes && sol.len[v] === 0) continue;
      const value = inst.balance === 'time' ? sol.rWork[v]! : sol.len[v]! * this.balanceUnit;
      if (value < lo) lo = value;
      if (value > hi) hi = value;
    }
    return hi > lo ? hi - lo : 0;
  }

  /** Negative when `a` is better than `b`, positive when worse, 0 when equal. */
  compare(a: ObjectiveValue, b: ObjectiveValue): number {
    return compareObjective(a, b, this.inst.minimizeRoutes);
  }

  /** Levels 1–3 only: negative when `a` is better. */
  compareUpperLevels(a: ObjectiveValue, b: ObjectiveValue): number {
    return compareUpperLevels(a, b, this.inst.minimizeRoutes);
  }
}

/** Whether serving stop s on vehicle v leaves its preferred vehicle (a stop without one never does). */
export function movedAway(inst: SolverInstance, s: number, v: number): boolean {
  const preferred = inst.stopPref[s]!;
  return preferred >= 0 && preferred !== v;
}

/**
 * The mean cost of reaching a stop from the first vehicle's start (plus its service for
 * working time): one order of imbalance priced so that the penalty is in the same unit as the
 * cost it is added to.
 */
function meanStopCost(inst: SolverInstance): number {
  if (inst.nVehicles === 0 || inst.nStops === 0) return 1;
  const from = inst.vStartLoc[0]!;
  const N = inst.nLoc;
  const dur = inst.vDur[0]!;
  let total = 0;
  let count = 0;
  for (let s = 0; s < inst.nStops; s++) {
    const loc = inst.stopLoc[s]!;
    if (loc < 0) continue;
    total += inst.costIsDistance ? inst.dist[from * N + loc]! : dur[from * N + loc]! + inst.stopDur[s]!;
    count++;
  }
  return count > 0 ? Math.max(1, total / count) : 1;
}
