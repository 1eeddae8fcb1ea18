/**
 * Regret-2 insertion over granular neighbourhoods, cheap enough to finish within its share of a
 * 0.1 s limit in a process whose code has not been compiled yet (issue 26: most of such a run is
 * spent in V8's interpreter, so the work itself must be small).
 *
 * At each step the unrouted stop with the highest priority is inserted, among equals the one
 * with the largest regret (what is lost if its best route is taken by others), then the
 * cheapest. A stop looks only at the routes of its REGRET_NEIGHBOURS nearest stops and at the
 * first unused vehicle of each class (unused vehicles of a class are interchangeable): its
 * "entries", each with its best insertion, kept in flat typed arrays. After an insertion into
 * route v only the entries for v are priced again, and v is added to the stops that have the
 * inserted stop among their nearest. A stop none of whose near stops is routed yet, or that
 * fits in none of its entries, is decided late and then tries every route.
 */
import { nearestNeighbours, reverseNeighbours, vehicleClassCount, type NearStops, type SolverInstance } from './instance.js';
import type { Inserter } from './insertion.js';
import { BIG_REGRET, REGRET_NEIGHBOURS } from './params.js';
import type { RouteEvaluator } from './route/evaluator.js';
import type { Solution } from './solution.js';

/**
 * Builds the regret plan into `sol` (empty routes expected). False when it was cut first: at
 * `cut`, a performance.now() value, or once `cut`, a function asked before every step, says so
 * (construct.ts: a budget of work, or the run's deadline); the plan is then partial.
 */
export function regretInsertion(
  sol: Solution,
  inserter: Inserter,
  evaluator: RouteEvaluator,
  cut: number | (() => boolean),
  near?: NearStops,
): boolean {
  const isCut = typeof cut === 'number' ? (): boolean => performance.now() > cut : cut;
  const inst = sol.inst;
  if (inst.nVehicles === 0) return true;
  const nearStops = near ?? {
    neighbours: nearestNeighbours(inst, REGRET_NEIGHBOURS),
    k: Math.min(REGRET_NEIGHBOURS, Math.max(0, inst.nStops - 1)),
  };
  const table = new RegretEntries(sol, inserter, nearStops);
  while (table.pendingCount > 0) {
    // Asked every step: cold, one step can take milliseconds, far more than a clock read.
    if (isCut()) return false;
    const s = table.takeNext();
    const v = table.placeOf(s);
    if (v < 0) continue;
    const wasEmpty = sol.len[v] === 0;
    if (!sol.insert(v, inserter.pos, s, evaluator)) throw new Error('construction inserted into an infeasible position');
    table.routeChanged(s, v, wasEmpty);
  }
  return true;
}

/** Per pending stop, its entries (route, best insertion) and its two best of them. */
class RegretEntries {
  private readonly inst: SolverInstance;
  /** Entries per stop at most: the routes of its near stops plus one unused vehicle per class. */
  private readonly cap: number;
  private readonly use: number;
  private readonly route: Int32Array;
  private readonly viol: Float64Array;
  private readonly key: Float64Array;
  private readonly pos: Int32Array;
  private readonly count: Int32Array;
  /** Entry index (within the stop's entries) of its best and second best; -1: none. */
  private readonly first: Int32Array;
  private readonly second: Int32Array;
  /** Whether any entry of the stop is a used route (else it has not met the plan yet). */
  private readonly meetsPlan: Uint8Array;
  private readonly pending: Int32Array;
  pendingCount = 0;
  private readonly firstEmpty: Int32Array;
  /** Stops that have stop t among their near stops: reverse[reverseStart[t] .. reverseStart[t + 1]). */
  private readonly reverse: Int32Array;
  private readonly reverseStart: Int32Array;
  private readonly nearMark: Int32Array;
  private routesOpen = 0;

  constructor(
    private readonly sol: Solution,
    private readonly inserter: Inserter,
    private readonly near: NearStops,
  ) {
    const inst = sol.inst;
    this.inst = inst;
    const n = inst.nStops;
    const classes = vehicleClassCount(inst);
    this.use = Math.min(REGRET_NEIGHBOURS, near.k);
    this.cap = this.use + classes;
    this.route = new Int32Array(n * this.cap);
    this.viol = new Float64Array(n * this.cap);
    this.key = new Float64Array(n * this.cap);
    this.pos = new Int32Array(n * this.cap);
    this.count = new Int32Array(n);
    this.first = new Int32Array(n).fill(-1);
    this.second = new Int32Array(n).fill(-1);
    this.meetsPlan = new Uint8Array(n);
    this.pending = new Int32Array(n);
    this.nearMark = new Int32Array(n).fill(-1);
    this.firstEmpty = new Int32Array(classes);
    sol.firstEmptyOfEachClass(this.firstEmpty);
    ({ start: this.reverseStart, list: this.reverse } = reverseNeighbours(near.neighbours, n, near.k, this.use));
    for (let v = 0; v < inst.nVehicles; v++) if (sol.len[v]! > 0) this.routesOpen++;
    for (let s = 0; s < n; s++) if (sol.routeOf[s] === -1 && inst.stopLoc[s]! >= 0) this.addPending(s);
  }

  private addPending(s: number): void {
    this.pending[this.pendingCount++] = s;
    for (let i = 0; i < this.use; i++) {
      const t = this.near.neighbours[s * this.near.k + i]!;
      if (t < 0) break;
      const v = this.sol.routeOf[t]!;
      if (v >= 0 && !this.hasEntry(s, v)) this.addEntry(s, v);
    }
    for (let c = 0; c < this.firstEmpty.length; c++) if (this.firstEmpty[c]! >= 0) this.addEntry(s, this.firstEmpty[c]!);
    this.rank(s);
  }

  private hasEntry(s: number, v: number): boolean {
    const base = s * this.cap;
    for (let j = 0; j < this.count[s]!; j++) if (this.route[base + j] === v) return true;
    return false;
  }

  private addEntry(s: number, v: number): void {
    if (this.count[s]! >= this.cap) return;
    const at = s * this.cap + this.count[s]!++;
    this.route[at] = v;
    this.price(s, at);
  }

  /**
   * The best insertion of s into the entry's route, as estimated where the summaries apply:
   * only next to s's near stops in the route and at its two ends when any near stop is there.
   */
  private price(s: number, at: number): void {
    const inserter = this.inserter;
    const near = this.near;
    const found = inserter.estimateNear(this.sol, s, this.route[at]!, near.neighbours, near.k, this.use);
    if (found) {
      this.viol[at] = inserter.viol;
      this.key[at] = inserter.key;
      this.pos[at] = inserter.pos;
    } else {
      this.viol[at] = Infinity;
      this.key[at] = Infinity;
      this.pos[at] = -1;
    }
  }

  /** Recomputes the stop's two best entries and whether it meets the plan. */
  private rank(s: number): void {
    const base = s * this.cap;
    let f = -1;
    let sc = -1;
    let meets = 0;
    for (let j = 0; j < this.count[s]!; j++) {
      const at = base + j;
      if (this.sol.len[this.route[at]!]! > 0) meets = 1;
      if (this.pos[at]! < 0) continue;
      if (f < 0 || this.better(at, base + f)) {
        sc = f;
        f = j;
      } else if (sc < 0 || this.better(at, base + sc)) sc = j;
    }
    this.first[s] = f;
    this.second[s] = sc;
    this.meetsPlan[s] = meets;
  }

  private better(a: number, b: number): boolean {
    const viol = this.viol;
    return viol[a]! < viol[b]! || (viol[a] === viol[b] && this.key[a]! < this.key[b]!);
  }

  /** Takes the next stop to insert out of the pending list. */
  takeNext(): number {
    const i = this.selectNext();
    const s = this.pending[i]!;
    this.pending[i] = this.pending[--this.pendingCount]!;
    return s;
  }

  private selectNext(): number {
    const priorities = this.inst.stopPriority;
    let best = -1;
    let bestPriority = -1;
    let bestRegret = -Infinity;
    let bestKey = Infinity;
    for (let i = 0; i < this.pendingCount; i++) {
      const s = this.pending[i]!;
      const f = this.first[s]!;
      // A stop that fits in none of its entries is decided at once: it tries every route then.
      if (f < 0) return i;
      const priority = priorities[s]!;
      const regret = this.regretOf(s);
      const key = this.key[s * this.cap + f]!;
      if (priority > bestPriority || (priority === bestPriority && (regret > bestRegret || (regret === bestRegret && key < bestKey)))) {
        best = i;
        bestPriority = priority;
        bestRegret = regret;
        bestKey = key;
      }
    }
    return best;
  }

  private regretOf(s: number): number {
    // Only unused vehicles so far: nothing is known of the routes near it, so it waits.
    if (this.meetsPlan[s] === 0 && this.routesOpen > 0) return 0;
    const sc = this.second[s]!;
    if (sc < 0) return BIG_REGRET;
    const fa = s * this.cap + this.first[s]!;
    const sa = s * this.cap + sc;
    const viol = this.viol;
    return viol[sa]! > viol[fa]! ? BIG_REGRET / 2 + (viol[sa]! - viol[fa]!) : this.key[sa]! - this.key[fa]!;
  }

  /**
   * The vehicle stop s goes into, with the position in the inserter's `pos`; -1 when it fits
   * nowhere. A stop that has not met the plan, or fits in none of its entries, tries every route.
   */
  placeOf(s: number): number {
    const f = this.first[s]!;
    if (f < 0 || (this.meetsPlan[s] === 0 && this.routesOpen > 0)) {
      return this.inserter.bestOverall(this.sol, s) ? this.inserter.vehicle : -1;
    }
    // Priced by the exact evaluator now: the entries hold the summaries' estimates.
    const v = this.route[s * this.cap + f]!;
    if (this.inserter.bestInRoute(this.sol, s, v)) return v;
    return this.inserter.bestOverall(this.sol, s) ? this.inserter.vehicle : -1;
  }

  /** After stop u went into route v: entries for v are priced again, and v joins the stops near u. */
  routeChanged(u: number, v: number, wasEmpty: boolean): void {
    let nextEmpty = -1;
    if (wasEmpty) {
      this.routesOpen++;
      this.sol.firstEmptyOfEachClass(this.firstEmpty);
      nextEmpty = this.firstEmpty[this.inst.vClass[v]!]!;
    }
    for (let i = this.reverseStart[u]!; i < this.reverseStart[u + 1]!; i++) this.nearMark[this.reverse[i]!] = u;
    for (let i = 0; i < this.pendingCount; i++) {
      const s = this.pending[i]!;
      const near = this.nearMark[s] === u;
      const at = this.updateEntryOf(s, v, wasEmpty && !near, nextEmpty);
      if (at < 0 && !near) continue;
      if (at < 0) this.addEntry(s, v);
      else if (near && wasEmpty && nextEmpty >= 0) this.addEntry(s, nextEmpty);
      else if (!near && !this.mayRankDifferently(s, at)) continue;
      this.rank(s);
    }
  }

  /**
   * Whether the entry at `at`, priced again, can change the stop's two best: not when it was
   * neither of them and still does not beat the second (the common case: a route that grew
   * got worse for the stops that were not counting on it).
   */
  private mayRankDifferently(s: number, at: number): boolean {
    const base = s * this.cap;
    const j = at - base;
    if (j === this.first[s] || j === this.second[s] || j >= this.count[s]!) return true;
    const sc = this.second[s]!;
    return this.pos[at]! >= 0 && (sc < 0 || this.better(at, base + sc));
  }

  /**
   * Prices s's entry for route v again, or, when `replace`, makes it the next unused vehicle
   * of v's class (dropped when none is left). Answers the entry's index, -1 when s has no entry
   * for v or the entry's price did not change (replaced), and an index past the stop's entries
   * when the entry was dropped.
   */
  private updateEntryOf(s: number, v: number, replace: boolean, nextEmpty: number): number {
    const base = s * this.cap;
    for (let j = 0; j < this.count[s]!; j++) {
      const at = base + j;
      if (this.route[at] !== v) continue;
      if (replace && nextEmpty < 0) {
        const last = base + --this.count[s]!;
        this.route[at] = this.route[last]!;
        this.viol[at] = this.viol[last]!;
        this.key[at] = this.key[last]!;
        this.pos[at] = this.pos[last]!;
        return base + this.count[s]!;
      }
      if (replace) {
        // Unused vehicles of one class are interchangeable: the entry's price stays as it is.
        this.route[at] = nextEmpty;
        return -1;
      }
      this.price(s, at);
      return at;
    }
    return -1;
  }
}
