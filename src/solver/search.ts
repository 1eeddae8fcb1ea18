/**
 * Improvement phase: ruin and recreate in the style of SISR (slack induction by string
 * removals): remove a few strings of consecutive stops from routes near a random seed stop,
 * then reinsert the removed and all unserved stops greedily — highest priority first, then
 * in a randomly chosen order — with blinks (positions skipped at random). Acceptance is
 * lexicographic on levels 1–3 (never worse) and simulated annealing on the level-4 cost.
 * A granular local search (ls/) polishes the first plan and the candidates before acceptance.
 * Routes are only ever changed through the exact evaluator, so every state is feasible.
 */
import { aloneReason } from './unserved.js';
import { LocalSearch } from './ls/local-search.js';
import { nearestNeighbours, type SolverInstance } from './instance.js';
import type { Inserter } from './insertion.js';
import { copyObjective } from './cost.js';
import { Rng } from './rng.js';
import type { RouteEvaluator } from './route/evaluator.js';
import type { Solution } from './solution.js';
import type { SolveProgress, SolveResult } from './types.js';

export interface SearchLimits {
  started: number;
  deadline: number;
  seed: number;
  maxIterations?: number | undefined;
  maxNoImprove?: number | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: SolveProgress) => void) | undefined;
}

export interface SearchOutcome {
  best: Solution;
  iterations: number;
  stoppedBy: SolveResult['stats']['stoppedBy'];
}

/** Average number of stops removed per ruin, and the longest string. */
const AVG_REMOVED = 10;
const MAX_STRING = 10;
const BLINK_RATE = 0.01;
const NEIGHBOURS = 40;
const YIELD_EVERY_MS = 50;
/** Above this many routes, a removed stop only tries the routes of its nearest neighbours. */
const GRANULAR_FLEET = 12;
/** How many nearest neighbours' routes a removed stop tries in a large fleet. */
const GRANULAR_NEIGHBOURS = 20;
/** Annealing temperatures relative to the average cost of one arc of the first solution. */
const T_START = 1;
const T_END = 0.01;
/** Share of the search time one local search may take when moves are priced exactly. */
const EXACT_POLISH_SHARE = 0.02;

type SortKey = 'random' | 'demand' | 'far' | 'close' | 'window';
const SORT_KEYS: SortKey[] = [
  'random',
  'random',
  'random',
  'random',
  'demand',
  'demand',
  'demand',
  'demand',
  'far',
  'far',
  'close',
  'window',
];

export async function search(
  initial: Solution,
  inserter: Inserter,
  evaluator: RouteEvaluator,
  limits: SearchLimits,
): Promise<SearchOutcome> {
  const inst = initial.inst;
  const rng = new Rng(limits.seed);
  const costs = initial.costs;
  if (performance.now() >= limits.deadline && limits.maxIterations !== 0) {
    return { best: initial, iterations: 0, stoppedBy: 'time' };
  }
  const eligible = insertableStops(inst, evaluator);
  let iterations = 0;
  const report = (best: Solution): void => {
    if (!limits.onProgress) return;
    const routes = best.routesUsed();
    let served = 0;
    for (let s = 0; s < inst.nStops; s++) if (best.routeOf[s] !== -1) served++;
    limits.onProgress({
      elapsedMs: performance.now() - limits.started,
      iterations,
      served,
      unserved: inst.nStops - served,
      routesUsed: routes,
      cost: costs.objective(best).cost,
    });
  };
  if (eligible.length === 0 || inst.nVehicles === 0 || limits.maxIterations === 0) {
    report(initial);
    return { best: initial, iterations: 0, stoppedBy: limits.maxIterations === 0 ? 'iterations' : 'complete' };
  }

  const localSearch = LocalSearch.create(inst, evaluator, rng);
  // Exact pricing costs O(route) a move: on a large problem one full pass could take the whole
  // limit, so then only candidates that beat the best plan are polished, each within a budget.
  if (localSearch?.fast) localSearch.run(initial, limits.deadline);
  const current = initial;
  const candidate = initial.clone();
  const best = initial.clone();
  current.clearTouched();
  candidate.clearTouched();
  let currentObj = costs.objective(current);
  let bestObj = copyObjective(currentObj);
  const neighbours = nearestNeighbours(inst, NEIGHBOURS);
  const k = Math.min(NEIGHBOURS, Math.max(0, inst.nStops - 1));
  const ruiner = new Ruiner(inst, neighbours, k, rng);
  const arcs = Math.max(1, eligible.length + current.routesUsed());
  const arcCost = Math.max(1e-9, currentObj.cost / arcs);
  const recreateOrder = new RecreateOrder(inst);
  const justRemoved = new Uint8Array(inst.nStops);
  const candidateList = new Int32Array(inst.nVehicles);
  const mark = new Uint8Array(inst.nVehicles);
  const neighbourCount = k;

  let noImprove = 0;
  let lastYield = performance.now();
  let stoppedBy: SearchOutcome['stoppedBy'] = 'complete';
  const timeBudget = limits.deadline - limits.started;
  for (;;) {
    if (limits.maxIterations !== undefined && iterations >= limits.maxIterations) {
      stoppedBy = 'iterations';
      break;
    }
    if (limits.maxNoImprove !== undefined && noImprove >= limits.maxNoImprove) {
      stoppedBy = 'no_improvement';
      break;
    }
    if (limits.signal?.aborted) {
      stoppedBy = 'aborted';
      break;
    }
    const now = performance.now();
    if (now >= limits.deadline) {
      stoppedBy = 'time';
      break;
    }
    if (now - lastYield >= YIELD_EVERY_MS) {
      report(best);
      await new Promise<void>((resolve) => setImmediate(resolve));
      lastYield = performance.now();
      if (limits.signal?.aborted) {
        stoppedBy = 'aborted';
        break;
      }
    }
    // With an iteration limit the schedule depends on iterations only, so a seed reproduces.
    const progress =
      limits.maxIterations !== undefined
        ? iterations / limits.maxIterations
        : Number.isFinite(timeBudget)
          ? Math.min(1, (now - limits.started) / timeBudget)
          : Math.min(1, iterations / 100_000);
    const temperature = arcCost * T_START * Math.pow(T_END / T_START, progress);
    iterations++;

    const removed = ruiner.ruin(candidate, evaluator);
    const pool = recreateOrder.order(candidate, removed, eligible, rng);
    for (const u of removed) justRemoved[u] = 1;
    const smallFleet = candidate.routesUsed() <= GRANULAR_FLEET;
    for (const u of pool) {
      if (candidate.routeOf[u] !== -1) continue;
      // A stop left out before this iteration can only fit where something changed; a stop
      // just removed tries every route near it (every route in a small fleet).
      let count: number;
      if (justRemoved[u] === 1 && smallFleet) {
        count = inserter.collectCandidates(candidate);
        candidateList.set(inserter.candidates.subarray(0, count));
      } else {
        const use = justRemoved[u] === 1 ? Math.min(GRANULAR_NEIGHBOURS, neighbourCount) : 0;
        count = inserter.collectNear(candidate, u, neighbours, neighbourCount, candidate.touchedList, candidateList, mark, use);
      }
      if (inserter.bestAmong(candidate, u, candidateList, count, rng, BLINK_RATE)) {
        if (!candidate.insert(inserter.vehicle, inserter.pos, u, evaluator)) {
          throw new Error('internal error: insertion accepted by the evaluator failed on commit');
        }
      }
    }
    for (const u of removed) justRemoved[u] = 0;
    let candidateObj = costs.objective(candidate);
    // With summaries every candidate is polished; with exact pricing (O(route) a move) only
    // those that already beat the best plan.
    if (localSearch && (localSearch.fast || costs.compare(candidateObj, bestObj) < 0)) {
      const budget = localSearch.fast ? limits.deadline : Math.min(limits.deadline, performance.now() + EXACT_POLISH_SHARE * timeBudget);
      if (localSearch.run(candidate, budget) > 0) candidateObj = costs.objective(candidate);
    }
    const upper = costs.compareUpperLevels(candidateObj, currentObj);
    const accept = upper < 0 || (upper === 0 && candidateObj.cost < currentObj.cost - temperature * Math.log(1 - rng.next()));
    const changed = candidate.touchedList.slice();
    if (accept) {
      current.copyRoutesFrom(candidate, changed);
      currentObj = candidateObj;
      if (costs.compare(currentObj, bestObj) < 0) {
        best.copyFrom(current);
        bestObj = copyObjective(currentObj);
        noImprove = 0;
      } else {
        noImprove++;
      }
    } else {
      candidate.copyRoutesFrom(current, changed);
      noImprove++;
    }
    candidate.clearTouched();
    current.clearTouched();
  }
  report(best);
  return { best, iterations, stoppedBy };
}

/** Stops some vehicle could serve alone: the only ones worth offering to the routes. */
function insertableStops(inst: SolverInstance, evaluator: RouteEvaluator): number[] {
  const out: number[] = [];
  for (let s = 0; s < inst.nStops; s++) if (aloneReason(inst, evaluator, s) === null) out.push(s);
  return out;
}

/** String removals around a random seed stop (SISR). */
class Ruiner {
  private readonly ruined: Uint8Array;
  private readonly removed: number[] = [];

  constructor(
    private readonly inst: SolverInstance,
    private readonly neighbours: Int32Array,
    private readonly k: number,
    private readonly rng: Rng,
  ) {
    this.ruined = new Uint8Array(inst.nVehicles);
  }

  ruin(sol: Solution, evaluator: RouteEvaluator): number[] {
    const inst = this.inst;
    const rng = this.rng;
    const removed = this.removed;
    removed.length = 0;
    let served = 0;
    let usedRoutes = 0;
    for (let v = 0; v < inst.nVehicles; v++) {
      if (sol.len[v]! > 0) {
        usedRoutes++;
        served += sol.len[v]!;
      }
    }
    if (served === 0) return removed;
    const avgLen = served / usedRoutes;
    const maxString = Math.min(MAX_STRING, avgLen);
    const maxStrings = Math.max(1, (4 * AVG_REMOVED) / (1 + maxString) - 1);
    const strings = Math.floor(rng.next() * maxStrings) + 1;
    // A served seed stop: a random stop, walked forward to the next served one.
    let seed = rng.int(inst.nStops);
    while (sol.routeOf[seed] === -1) seed = (seed + 1) % inst.nStops;
    this.ruined.fill(0);
    const touchedRoutes: number[] = [];
    let done = 0;
    for (let i = -1; i < this.k && done < strings; i++) {
      const c = i < 0 ? seed : this.neighbours[seed * this.k + i]!;
      if (c < 0) break;
      const v = sol.routeOf[c]!;
      if (v < 0 || this.ruined[v] === 1) continue;
      this.ruined[v] = 1;
      touchedRoutes.push(v);
      done++;
      const n = sol.len[v]!;
      const length = Math.floor(rng.next() * Math.min(n, maxString)) + 1;
      const pos = sol.posOf[c]!;
      // A string of `length` consecutive stops that contains c.
      const first = Math.max(0, Math.min(n - length, pos - rng.int(length)));
      const seq = sol.seq[v]!;
      const stops = Array.from(seq.subarray(first, first + length));
      for (const s of stops) {
        sol.detach(s);
        removed.push(s);
      }
    }
    for (const v of touchedRoutes) {
      // Removing stops can break a route (a squashed service grows back, rounded travel
      // times are not quite triangular): then its other stops go back to the pool too.
      if (!sol.refreshRoute(v, evaluator)) for (const s of sol.clearRoute(v, evaluator)) removed.push(s);
    }
    return removed;
  }
}

/** The order of reinsertion: priority first, then one of SISR's sort keys at random. */
class RecreateOrder {
  private readonly depotDistance: Float64Array;
  private readonly demand: Float64Array;
  private readonly windowLength: Float64Array;

  constructor(inst: SolverInstance) {
    const n = inst.nStops;
    this.depotDistance = new Float64Array(n);
    this.demand = new Float64Array(n);
    this.windowLength = new Float64Array(n);
    const N = inst.nLoc;
    const depot = inst.nVehicles > 0 ? inst.vStartLoc[0]! : 0;
    for (let s = 0; s < n; s++) {
      const loc = inst.stopLoc[s]!;
      this.depotDistance[s] = loc >= 0 ? inst.dist[depot * N + loc]! : 0;
      let demand = 0;
      for (let d = 0; d < inst.dims; d++) {
        const cap = inst.vCap[d];
        const amount = inst.stopLoad[s * inst.dims + d]!;
        demand += cap !== undefined && Number.isFinite(cap) && cap > 0 ? amount / cap : amount;
      }
      this.demand[s] = demand;
      let length = 0;
      for (let w = inst.winOffset[s]!, e = inst.winOffset[s + 1]!; w < e; w++) {
        length += Math.min(inst.winEnd[w]!, 1e9) - inst.winStart[w]!;
      }
      this.windowLength[s] = length;
    }
  }

  order(sol: Solution, removed: number[], eligible: number[], rng: Rng): number[] {
    const inst = sol.inst;
    const pool = removed.slice();
    const inPool = new Set(pool);
    for (const s of eligible) if (sol.routeOf[s] === -1 && !inPool.has(s)) pool.push(s);
    rng.shuffle(pool);
    const key = SORT_KEYS[rng.int(SORT_KEYS.length)]!;
    const secondary = (s: number): number => {
      switch (key) {
        case 'random':
          return 0;
        case 'demand':
          return -this.demand[s]!;
        case 'far':
          return -this.depotDistance[s]!;
        case 'close':
          return this.depotDistance[s]!;
        case 'window':
          return this.windowLength[s]!;
      }
    };
    const priority = inst.stopPriority;
    // Stable sort keeps the shuffled order among equal keys.
    pool.sort((a, b) => priority[b]! - priority[a]! || secondary(a) - secondary(b));
    return pool;
  }
}
