/**
 * Construction by regret-2 insertion, priority first: at each step the unrouted stop with the
 * highest priority is inserted, among equals the one with the largest regret (what is lost
 * if its best route is taken by others), then the cheapest. Insertion values per (stop,
 * vehicle) are cached and recomputed only for the route that changed.
 */
import type { SolverInstance } from './instance.js';
import type { Inserter } from './insertion.js';
import type { RouteEvaluator } from './route/evaluator.js';
import type { Solution } from './solution.js';

const BIG_REGRET = 1e300;

export interface ConstructionLimits {
  /** performance.now() value after which the rest is inserted greedily in priority order. */
  deadline: number;
}

export function constructRegret(sol: Solution, inserter: Inserter, evaluator: RouteEvaluator, limits: ConstructionLimits): void {
  const inst = sol.inst;
  const n = inst.nStops;
  const m = inst.nVehicles;
  const pending: number[] = [];
  for (let s = 0; s < n; s++) if (sol.routeOf[s] === -1 && inst.stopLoc[s]! >= 0) pending.push(s);
  if (pending.length === 0 || m === 0) return;
  // The per-(stop, vehicle) cache costs 20 bytes a pair; beyond this, insert greedily.
  if (pending.length * m > 6_000_000) {
    insertGreedily(sol, inserter, evaluator, pending, limits);
    return;
  }
  const cacheVer = new Int32Array(n * m);
  const cViol = new Float64Array(n * m);
  const cKey = new Float64Array(n * m);
  const cPos = new Int32Array(n * m);
  const routeVer = new Int32Array(m).fill(1);
  const value = (s: number, v: number): number => {
    const at = s * m + v;
    if (cacheVer[at] !== routeVer[v]) {
      cacheVer[at] = routeVer[v]!;
      if (inserter.bestInRoute(sol, s, v)) {
        cViol[at] = inserter.viol;
        cKey[at] = inserter.key;
        cPos[at] = inserter.pos;
      } else {
        cViol[at] = Infinity;
        cKey[at] = Infinity;
        cPos[at] = -1;
      }
    }
    return at;
  };
  const better = (a: number, b: number): boolean => cViol[a]! < cViol[b]! || (cViol[a] === cViol[b] && cKey[a]! < cKey[b]!);
  // Top two vehicles per stop.
  const first = new Int32Array(n).fill(-1);
  const second = new Int32Array(n).fill(-1);
  const offer = (s: number, v: number): void => {
    const at = value(s, v);
    if (cPos[at]! < 0) return;
    const f = first[s]!;
    if (f < 0 || better(at, s * m + f)) {
      second[s] = f;
      first[s] = v;
      return;
    }
    const sc = second[s]!;
    if (sc < 0 || better(at, s * m + sc)) second[s] = v;
  };
  let candidateCount = inserter.collectCandidates(sol);
  const rescan = (s: number): void => {
    first[s] = -1;
    second[s] = -1;
    const candidates = inserter.candidates;
    for (let i = 0; i < candidateCount; i++) {
      const v = candidates[i]!;
      if (inst.compatible[v * n + s] === 1) offer(s, v);
    }
  };
  for (let i = 0; i < pending.length; i++) {
    // The first scan is the costliest part on large problems: give up on regret in time.
    if ((i & 63) === 63 && performance.now() > limits.deadline) {
      insertGreedily(sol, inserter, evaluator, pending, limits);
      return;
    }
    rescan(pending[i]!);
  }

  while (pending.length > 0) {
    if (performance.now() > limits.deadline) {
      insertGreedily(sol, inserter, evaluator, pending, limits);
      return;
    }
    const pick = selectNext(inst, pending, first, second, m, cViol, cKey);
    const s = pending[pick]!;
    pending[pick] = pending[pending.length - 1]!;
    pending.pop();
    const v = first[s]!;
    if (v < 0) continue;
    const wasEmpty = sol.len[v] === 0;
    if (!sol.insert(v, cPos[s * m + v]!, s, evaluator)) throw new Error('construction inserted into an infeasible position');
    routeVer[v]!++;
    if (wasEmpty) candidateCount = inserter.collectCandidates(sol);
    // Adding a stop to route v only makes v worse for the others, so only the stops that
    // counted on v need a rescan; the rest keep their (still fresh) top two.
    for (const t of pending) {
      if (first[t] === v || second[t] === v) rescan(t);
    }
  }
}

function selectNext(
  inst: SolverInstance,
  pending: number[],
  first: Int32Array,
  second: Int32Array,
  m: number,
  cViol: Float64Array,
  cKey: Float64Array,
): number {
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
