/**
 * Recreate: the removed and all unserved stops go back greedily — highest priority first, then
 * in one of SISR's orders drawn at random — each at its cheapest position, with blinks
 * (positions skipped at random).
 */
import type { SolverInstance } from '../instance.js';
import type { Inserter } from '../insertion.js';
import { GRANULAR_FLEET, GRANULAR_NEIGHBOURS, SORT_KEYS } from '../params.js';
import type { Rng } from '../rng.js';
import type { RouteEvaluator } from '../route/evaluator.js';
import type { Solution } from '../solution.js';

export class Recreator {
  private readonly order: RecreateOrder;
  private readonly justRemoved: Uint8Array;
  private readonly candidateList: Int32Array;
  private readonly mark: Uint8Array;

  /**
   * `neighbours` holds `k` nearest stops per stop; `eligible` the stops some vehicle could serve alone;
   * `blinkRate` the share of insertion positions skipped at random (windowless.ts, blinkRate).
   */
  constructor(
    inst: SolverInstance,
    private readonly inserter: Inserter,
    private readonly evaluator: RouteEvaluator,
    private readonly neighbours: Int32Array,
    private readonly k: number,
    private readonly eligible: number[],
    private readonly rng: Rng,
    private readonly blinkRate: number,
  ) {
    this.order = new RecreateOrder(inst);
    this.justRemoved = new Uint8Array(inst.nStops);
    this.candidateList = new Int32Array(inst.nVehicles);
    this.mark = new Uint8Array(inst.nVehicles);
  }

  /** Reinserts `removed` and every unserved eligible stop into `candidate` where each fits best. */
  recreate(candidate: Solution, removed: number[]): void {
    const { inserter, justRemoved, candidateList, rng } = this;
    const pool = this.order.order(candidate, removed, this.eligible, rng);
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
        const use = justRemoved[u] === 1 ? Math.min(GRANULAR_NEIGHBOURS, this.k) : 0;
        count = inserter.collectNear(candidate, u, this.neighbours, this.k, candidate.touchedList, candidateList, this.mark, use);
      }
      if (inserter.bestAmong(candidate, u, candidateList, count, rng, this.blinkRate)) {
        if (!candidate.insert(inserter.vehicle, inserter.pos, u, this.evaluator)) {
          throw new Error('internal error: insertion accepted by the evaluator failed on commit');
        }
      }
    }
    for (const u of removed) justRemoved[u] = 0;
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
