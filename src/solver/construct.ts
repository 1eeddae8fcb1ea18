/**
 * The first plan. A cheap greedy plan comes first and is the floor of every answer: whatever the
 * time limit, the solver never returns less than it (the anytime guarantee). Then, while the
 * construction's share of the limit lasts, regret-2 insertion, priority first: at each step the
 * unrouted stop with the highest priority is inserted, among equals the one with the largest
 * regret (what is lost if its best route is taken by others), then the cheapest; insertion
 * values per (stop, vehicle) are cached and recomputed only for the route that changed. A regret
 * construction cut by the deadline is finished greedily, and kept only when it beats the floor.
 */
import type { CostEvaluator } from './cost.js';
import type { SolverInstance } from './instance.js';
import type { Inserter } from './insertion.js';
import { BIG_REGRET, GRANULAR_FLEET, GRANULAR_NEIGHBOURS, REGRET_CACHE_MAX_PAIRS } from './params.js';
import type { RouteEvaluator } from './route/evaluator.js';
import { Solution } from './solution.js';

export interface ConstructionLimits {
  /** performance.now() value after which the rest is inserted greedily in priority order. */
  deadline: number;
}

/** Each stop's nearest stops, `k` per stop (instance.ts's nearestNeighbours). */
export interface NearStops {
  neighbours: Int32Array;
  k: number;
}

export interface FirstPlan {
  plan: Solution;
  /** The greedy floor was ready this many milliseconds after `started` (worth showing at once). */
  floorMs: number;
  /** Which construction the plan came from. */
  from: 'greedy' | 'regret';
}

/**
 * The greedy floor, then the regret construction until `limits.deadline`; answers the better
 * of the two by the objective. `onFloor` sees the floor as soon as it exists.
 */
export function constructFirstPlan(
  inst: SolverInstance,
  costs: CostEvaluator,
  inserter: Inserter,
  evaluator: RouteEvaluator,
  near: NearStops,
  limits: ConstructionLimits,
  onFloor?: (floor: Solution) => void,
): FirstPlan {
  const started = performance.now();
  const floor = new Solution(inst, costs);
  insertGreedily(floor, inserter, evaluator, routableStops(floor), near);
  fillUnserved(floor, inserter, evaluator);
  const floorMs = performance.now() - started;
  onFloor?.(floor);
  if (performance.now() >= limits.deadline) {
    return { plan: floor, floorMs, from: 'greedy' };
  }
  const regret = new Solution(inst, costs);
  constructRegret(regret, inserter, evaluator, limits, near);
  fillUnserved(regret, inserter, evaluator);
  const better = costs.compare(costs.objective(regret), costs.objective(floor)) < 0;
  return better ? { plan: regret, floorMs, from: 'regret' } : { plan: floor, floorMs, from: 'greedy' };
}

/** Stops not yet in a route that have a location. */
function routableStops(sol: Solution): number[] {
  const pending: number[] = [];
  for (let s = 0; s < sol.inst.nStops; s++) if (sol.routeOf[s] === -1 && sol.inst.stopLoc[s]! >= 0) pending.push(s);
  return pending;
}

export function constructRegret(
  sol: Solution,
  inserter: Inserter,
  evaluator: RouteEvaluator,
  limits: ConstructionLimits,
  near?: NearStops,
): void {
  const inst = sol.inst;
  const pending = routableStops(sol);
  if (pending.length === 0 || inst.nVehicles === 0) return;
  // The per-(stop, vehicle) cache costs 20 bytes a pair; beyond the cap, insert greedily.
  if (pending.length * inst.nVehicles > REGRET_CACHE_MAX_PAIRS) {
    insertGreedily(sol, inserter, evaluator, pending, near);
    return;
  }
  const table = new RegretTable(sol, inserter);
  if (!scanAll(table, pending, limits)) {
    insertGreedily(sol, inserter, evaluator, pending, near);
    return;
  }
  while (pending.length > 0) {
    if (performance.now() > limits.deadline) {
      insertGreedily(sol, inserter, evaluator, pending, near);
      return;
    }
    const pick = selectNext(inst, pending, table);
    const s = pending[pick]!;
    pending[pick] = pending[pending.length - 1]!;
    pending.pop();
    const v = table.first[s]!;
    if (v < 0) continue;
    const wasEmpty = sol.len[v] === 0;
    if (!sol.insert(v, table.cPos[s * table.m + v]!, s, evaluator)) throw new Error('construction inserted into an infeasible position');
    table.routeChanged(v, wasEmpty);
    // Adding a stop to route v only makes v worse for the others, so only the stops that
    // counted on v need a rescan; the rest keep their (still fresh) top two.
    for (const t of pending) {
      if (table.first[t] === v || table.second[t] === v) table.rescan(t);
    }
  }
}

/** The first scan of every pending stop; false when the deadline came first. */
function scanAll(table: RegretTable, pending: number[], limits: ConstructionLimits): boolean {
  for (let i = 0; i < pending.length; i++) {
    // The first scan is the costliest part on large problems: give up on regret in time.
    if ((i & 63) === 63 && performance.now() > limits.deadline) return false;
    table.rescan(pending[i]!);
  }
  return true;
}

/**
 * The best insertion of each (stop, vehicle) pair — violations, key and position, recomputed
 * only when the route changed since — and each stop's two best vehicles.
 */
class RegretTable {
  readonly m: number;
  readonly cViol: Float64Array;
  readonly cKey: Float64Array;
  readonly cPos: Int32Array;
  /** Top two vehicles per stop (-1: none). */
  readonly first: Int32Array;
  readonly second: Int32Array;
  private readonly cacheVer: Int32Array;
  private readonly routeVer: Int32Array;
  private candidateCount: number;

  constructor(
    private readonly sol: Solution,
    private readonly inserter: Inserter,
  ) {
    const n = sol.inst.nStops;
    const m = sol.inst.nVehicles;
    this.m = m;
    this.cacheVer = new Int32Array(n * m);
    this.cViol = new Float64Array(n * m);
    this.cKey = new Float64Array(n * m);
    this.cPos = new Int32Array(n * m);
    this.routeVer = new Int32Array(m).fill(1);
    this.first = new Int32Array(n).fill(-1);
    this.second = new Int32Array(n).fill(-1);
    this.candidateCount = inserter.collectCandidates(sol);
  }

  /** Recomputes the top two vehicles of stop s. */
  rescan(s: number): void {
    this.first[s] = -1;
    this.second[s] = -1;
    const inst = this.sol.inst;
    const n = inst.nStops;
    const candidates = this.inserter.candidates;
    for (let i = 0; i < this.candidateCount; i++) {
      const v = candidates[i]!;
      if (inst.compatible[v * n + s] === 1) this.offer(s, v);
    }
  }

  /** After a stop went into route v: its cached values are stale, and a route opened changes the candidates. */
  routeChanged(v: number, wasEmpty: boolean): void {
    this.routeVer[v]!++;
    if (wasEmpty) this.candidateCount = this.inserter.collectCandidates(this.sol);
  }

  private offer(s: number, v: number): void {
    const at = this.value(s, v);
    if (this.cPos[at]! < 0) return;
    const m = this.m;
    const f = this.first[s]!;
    if (f < 0 || this.better(at, s * m + f)) {
      this.second[s] = f;
      this.first[s] = v;
      return;
    }
    const sc = this.second[s]!;
    if (sc < 0 || this.better(at, s * m + sc)) this.second[s] = v;
  }

  /** The cache index of (s, v), refreshed when route v changed since it was filled. */
  private value(s: number, v: number): number {
    const at = s * this.m + v;
    if (this.cacheVer[at] === this.routeVer[v]) return at;
    this.cacheVer[at] = this.routeVer[v]!;
    const inserter = this.inserter;
    if (inserter.bestInRoute(this.sol, s, v)) {
      this.cViol[at] = inserter.viol;
      this.cKey[at] = inserter.key;
      this.cPos[at] = inserter.pos;
    } else {
      this.cViol[at] = Infinity;
      this.cKey[at] = Infinity;
      this.cPos[at] = -1;
    }
    return at;
  }

  private better(a: number, b: number): boolean {
    const cViol = this.cViol;
    return cViol[a]! < cViol[b]! || (cViol[a] === cViol[b] && this.cKey[a]! < this.cKey[b]!);
  }
}

function selectNext(inst: SolverInstance, pending: number[], table: RegretTable): number {
  const { first, second, m, cViol, cKey } = table;
  let best = -1;
  let bestPriority = -1;
  let bestRegret = -Infinity;
  let bestKey = Infinity;
  for (let i = 0; i < pending.length; i++) {
    const s = pending[i]!;
    const f = first[s]!;
    // A stop that fits nowhere is taken out first: nothing is lost by deciding it now.
    if (f < 0) return i;
    const priority = inst.stopPriority[s]!;
    const fa = s * m + f;
    const sc = second[s]!;
    let regret: number;
    if (sc < 0) regret = BIG_REGRET;
    else {
      const sa = s * m + sc;
      regret = cViol[sa]! > cViol[fa]! ? BIG_REGRET / 2 + (cViol[sa]! - cViol[fa]!) : cKey[sa]! - cKey[fa]!;
    }
    const key = cKey[fa]!;
    if (priority > bestPriority || (priority === bestPriority && (regret > bestRegret || (regret === bestRegret && key < bestKey)))) {
      best = i;
      bestPriority = priority;
      bestRegret = regret;
      bestKey = key;
    }
  }
  return best;
}

/**
 * Cheapest insertion one stop at a time, highest priority first. With `near`, once more than
 * GRANULAR_FLEET routes are open a stop first tries only the routes of its nearest stops (and
 * one empty vehicle per class), as the search's recreate does; only when none of them can take
 * it are all routes tried, so a stop is left out only when it fits nowhere.
 */
export function insertGreedily(sol: Solution, inserter: Inserter, evaluator: RouteEvaluator, stops: number[], near?: NearStops): void {
  const inst = sol.inst;
  const order = stops.slice().sort((a, b) => inst.stopPriority[b]! - inst.stopPriority[a]! || a - b);
  const granular = near && new NearRoutes(inst, near);
  for (const s of order) {
    if (sol.routeOf[s] !== -1) continue;
    const found = (granular !== undefined && granular.bestInsertion(sol, inserter, s)) || inserter.bestOverall(sol, s);
    if (found && !sol.insert(inserter.vehicle, inserter.pos, s, evaluator)) throw new Error('greedy insertion into an infeasible position');
  }
}

/** The routes near a stop, for insertions that need not try every route of a large fleet. */
class NearRoutes {
  private readonly list: Int32Array;
  private readonly mark: Uint8Array;
  private readonly use: number;

  constructor(
    inst: SolverInstance,
    private readonly near: NearStops,
  ) {
    this.list = new Int32Array(inst.nVehicles);
    this.mark = new Uint8Array(inst.nVehicles);
    this.use = Math.min(GRANULAR_NEIGHBOURS, near.k);
  }

  /**
   * Best insertion among the near routes, in the inserter's result; false when the fleet is
   * small, when no near stop is routed yet (an open route elsewhere may still be cheaper than a
   * new one), or when none fits.
   */
  bestInsertion(sol: Solution, inserter: Inserter, s: number): boolean {
    if (sol.routesUsed() <= GRANULAR_FLEET) return false;
    const count = inserter.collectNear(sol, s, this.near.neighbours, this.near.k, [], this.list, this.mark, this.use);
    let open = 0;
    for (let i = 0; i < count; i++) if (sol.len[this.list[i]!]! > 0) open++;
    return open > 0 && inserter.bestAmong(sol, s, this.list, count);
  }
}

/**
 * Inserts unserved stops until none fits anywhere: the returned plan must leave no stop out
 * that could be served as is.
 */
export function fillUnserved(sol: Solution, inserter: Inserter, evaluator: RouteEvaluator): void {
  for (;;) {
    const before = sol.servedPriority;
    insertGreedily(sol, inserter, evaluator, sol.unservedStops());
    if (sol.servedPriority === before) return;
  }
}
