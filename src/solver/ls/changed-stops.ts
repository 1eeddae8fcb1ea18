/**
 * When each stop's surroundings last changed: its route, the stop before it, the stop after it,
 * or (CHANGED_STOPS_LOAD_RULE) its route's load going down. FILO's selective vertex caching
 * (Accorsi & Vigo 2021) on the stop level: where the local search examines a stop u of a changed
 * route (ls/local-search.ts), a pair (u, x) whose two stops' surroundings both stand as they
 * stood when u was last examined is skipped, as a pair of two unchanged routes always was. On
 * long capacity-only routes (CVRP X: 7–25 stops a route) a ruin-and-recreate changes a few arcs of
 * a route and the route-level test re-paired every stop of it with all its neighbours.
 */
import { nextStamp, type Solution } from '../solution.js';

/** Records of a stop never seen: any route it is in differs. */
const UNSEEN = -2;

export class ChangedStops {
  /** Per stop, the stamp (solution.ts's counter) when its surroundings were last seen to change. */
  private readonly changedAt: Float64Array;
  /** Per stop, as last seen: its route, the stop before it and after it (-1: the route's start or end). */
  private readonly route: Int32Array;
  private readonly before: Int32Array;
  private readonly after: Int32Array;
  /** Per route, the sum of its loads over the dimensions as last seen. */
  private readonly load: Float64Array;

  /** `loadRule`: a route whose load went down counts all its stops as changed (room for moves into it). */
  constructor(
    nStops: number,
    nVehicles: number,
    private readonly loadRule: boolean,
  ) {
    this.changedAt = new Float64Array(nStops);
    this.route = new Int32Array(nStops).fill(UNSEEN);
    this.before = new Int32Array(nStops).fill(UNSEEN);
    this.after = new Int32Array(nStops).fill(UNSEEN);
    this.load = new Float64Array(nVehicles);
  }

  /** Whether neither u's nor x's surroundings changed after the stamp `since`. */
  bothBefore(u: number, x: number, since: number): boolean {
    return this.changedAt[u]! < since && this.changedAt[x]! < since;
  }

  /** Sees every route of `sol` changed after the stamp `since` (see). */
  seeChangedAfter(sol: Solution, since: number): void {
    for (let v = 0; v < sol.inst.nVehicles; v++) if (sol.stamp[v]! > since) this.see(sol, v);
  }

  /** Compares route v of `sol` with what was seen of it and marks the stops whose surroundings differ (now). */
  see(sol: Solution, v: number): void {
    const stamp = nextStamp();
    const seq = sol.seq[v]!;
    const n = sol.len[v]!;
    const lighter = this.lighter(sol, v);
    for (let i = 0; i < n; i++) {
      const s = seq[i]!;
      const before = i > 0 ? seq[i - 1]! : -1;
      const after = i + 1 < n ? seq[i + 1]! : -1;
      if (lighter || this.route[s] !== v || this.before[s] !== before || this.after[s] !== after) this.changedAt[s] = stamp;
      this.route[s] = v;
      this.before[s] = before;
      this.after[s] = after;
    }
  }

  /** Whether route v's load went down since last seen (with the load rule), recording it as it is. */
  private lighter(sol: Solution, v: number): boolean {
    const dims = sol.inst.dims;
    let load = 0;
    for (let k = 0; k < dims; k++) load += sol.load[v * dims + k]!;
    const lighter = this.loadRule && load < this.load[v]!;
    this.load[v] = load;
    return lighter;
  }
}
