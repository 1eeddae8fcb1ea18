/**
 * Construction by regret-2 insertion, priority first: at each step the unrouted stop with the
 * highest priority is inserted, among equals the one with the largest regret (what is lost
 * if its best route is taken by others), then the cheapest. Insertion values per (stop,
 * vehicle) are cached and recomputed only for the route that changed.
 */
import type { SolverInstance } from './instance.js';
import type { Inserter } from './insertion.js';
import { BIG_REGRET, REGRET_CACHE_MAX_PAIRS } from './params.js';
import type { RouteEvaluator } from './route/evaluator.js';
import type { Solution } from './solution.js';

export interface ConstructionLimits {
  /** performance.now() value after which the rest is inserted greedily in priority order. */
  deadline: number;
}

export function constructRegret(sol: Solution, inserter: Inserter, evaluator: RouteEvaluator, limits: ConstructionLimits): void {
  const inst = sol.inst;
  const pending: number[] = [];
  for (let s = 0; s < inst.nStops; s++) if (sol.routeOf[s] === -1 && inst.stopLoc[s]! >= 0) pending.push(s);
  if (pending.length === 0 || inst.nVehicles === 0) return;
  // The per-(stop, vehicle) cache costs 20 bytes a pair; beyond the cap, insert greedily.
  if (pending.length * inst.nVehicles > REGRET_CACHE_MAX_PAIRS) {
    insertGreedily(sol, inserter, evaluator, pending, limits);
    return;
  }
  const table = new RegretTable(sol, inserter);
  if (!scanAll(table, pending, limits)) {
    insertGreedily(sol, inserter, evaluator, pending, limits);
    return;
  }
  while (pending.length > 0) {
    if (performance.now() > limits.deadline) {
      insertGreedily(sol, inserter, evaluator, pending, limits);
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

/** Cheapest insertion one stop at a time, highest priority first. */
export function insertGreedily(
  sol: Solution,
  inserter: Inserter,
  evaluator: RouteEvaluator,
  stops: number[],
  _limits?: ConstructionLimits,
): void {
  const inst = sol.inst;
  const order = stops.slice().sort((a, b) => inst.stopPriority[b]! - inst.stopPriority[a]! || a - b);
  for (const s of order) {
    if (sol.routeOf[s] !== -1) continue;
    if (inserter.bestOverall(sol, s)) {
      if (!sol.insert(inserter.vehicle, inserter.pos, s, evaluator)) throw new Error('greedy insertion into an infeasible position');
    }
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
