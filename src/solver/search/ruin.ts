/**
 * Ruin in the style of SISR (slack induction by string removals): a few strings of consecutive
 * stops are cut from routes near a random seed stop.
 */
import type { SolverInstance } from '../instance.js';
import { MAX_STRING } from '../params.js';
import type { Rng } from '../rng.js';
import type { RouteEvaluator } from '../route/evaluator.js';
import type { Solution } from '../solution.js';

/** String removals around a random seed stop (SISR). */
export class Ruiner {
  private readonly ruined: Uint8Array;
  private readonly removed: number[] = [];

  constructor(
    private readonly inst: SolverInstance,
    private readonly neighbours: Int32Array,
    private readonly k: number,
    private readonly rng: Rng,
    /** SISR's c̄: the average number of stops a ruin removes (windowSettings, windowless.ts). */
    private readonly avgRemoved: number,
  ) {
    this.ruined = new Uint8Array(inst.nVehicles);
  }

  /**
   * Cuts strings around `seedStop`, or around a random served stop when it is -1; a given seed
   * stop may be unserved (the fleet minimisation's, fleet.ts: the strings come from its neighbours' routes).
   */
  ruin(sol: Solution, evaluator: RouteEvaluator, seedStop = -1): number[] {
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
    const maxStrings = Math.max(1, (4 * this.avgRemoved) / (1 + maxString) - 1);
    const strings = Math.floor(rng.next() * maxStrings) + 1;
    // Else a served seed stop: a random stop, walked forward to the next served one.
    let seed = seedStop;
    if (seed < 0) {
      seed = rng.int(inst.nStops);
      while (sol.routeOf[seed] === -1) seed = (seed + 1) % inst.nStops;
    }
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
