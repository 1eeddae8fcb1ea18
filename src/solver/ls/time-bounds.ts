/**
 * Time bounds of the current routes (Savelsbergh's forward and backward times), to refuse in
 * O(string) a move between routes whose new route must break a window, before the segment
 * summaries price it (segments.ts: four or five concatenations and two route closes). Where a
 * new route keeps a prefix of one route and a suffix of another one (or of the same one) with
 * new stops between, it can be on time only if, leaving the prefix's last stop as early as
 * possible and serving the new stops as early as possible, it reaches the suffix by the latest
 * start that keeps the suffix on time. That condition is necessary, never sufficient here:
 * a move that passes is priced by the summaries as before (capacity, order of locks, cost), so
 * the local search finds the same moves, only sooner (Solomon R1/RC1: most moves priced between
 * routes break a window).
 *
 * Valid where the summaries are (segmentsApply: one window a stop, no lateness, one travel
 * profile): a route with any time warp is infeasible there. Suffixes that change vehicle
 * (2-opt*) need every vehicle to end at the same place by the same time (`sameEnds`).
 */
import type { SolverInstance } from '../instance.js';
import { FAR } from '../params.js';
import type { Solution } from '../solution.js';

/**
 * A route is refused only when it arrives later than a bound by more than this: far above the
 * round-off of summed times (the summaries refuse a time warp above TW_EPS = 1e-6), so that no
 * move the summaries would accept is ever refused here.
 */
const REFUSE_MARGIN = 1e-4;

export class RouteTimeBounds {
  private readonly inst: SolverInstance;
  private readonly stamp: Float64Array;
  /** depart[v][p]: earliest departure from the place before position p of route v (p = 0: the start). */
  private readonly depart: Float64Array[] = [];
  /** latest[v][p]: latest start of service at position p that keeps the rest of route v on time (p = len: arrival at the end). */
  private readonly latest: Float64Array[] = [];
  private readonly dur: Int32Array;
  private readonly N: number;
  /** Whether every vehicle ends at the same place (or every route is open) by the same shift end. */
  readonly sameEnds: boolean;

  constructor(inst: SolverInstance) {
    this.inst = inst;
    const m = inst.nVehicles;
    this.stamp = new Float64Array(m).fill(-1);
    for (let v = 0; v < m; v++) {
      this.depart.push(new Float64Array(0));
      this.latest.push(new Float64Array(0));
    }
    this.dur = inst.vDur[0] ?? new Int32Array(0);
    this.N = inst.nLoc;
    this.sameEnds = sameEnds(inst);
  }

  /** Brings route v's bounds up to date with `sol`. */
  ensure(sol: Solution, v: number): void {
    if (this.stamp[v] === sol.stamp[v]) return;
    this.stamp[v] = sol.stamp[v]!;
    const n = sol.len[v]!;
    if (this.depart[v]!.length < n + 1) {
      const size = Math.max(n + 1, 8) * 2;
      this.depart[v] = new Float64Array(size);
      this.latest[v] = new Float64Array(size);
    }
    this.forward(sol, v, n);
    this.backward(sol, v, n);
  }

  /** Earliest departures, a window's end clamping a late arrival (as a time warp does: never later than the summaries' times). */
  private forward(sol: Solution, v: number, n: number): void {
    const inst = this.inst;
    const seq = sol.seq[v]!;
    const depart = this.depart[v]!;
    let t = inst.vDepart0[v]!;
    let at = inst.vStartLoc[v]!;
    depart[0] = t;
    for (let i = 0; i < n; i++) {
      const s = seq[i]!;
      const loc = inst.stopLoc[s]!;
      const w = inst.winOffset[s]!;
      const d = inst.stopDur[s]!;
      const start = Math.min(Math.max(t + this.dur[at * this.N + loc]!, inst.winStart[w]!), inst.winEnd[w]! - d);
      t = start + d;
      at = loc;
      depart[i + 1] = t;
    }
  }

  private backward(sol: Solution, v: number, n: number): void {
    const inst = this.inst;
    const seq = sol.seq[v]!;
    const latest = this.latest[v]!;
    let next = inst.vEndLoc[v]!;
    let bound = Math.min(inst.vShiftEnd[v]!, FAR);
    latest[n] = bound;
    for (let i = n - 1; i >= 0; i--) {
      const s = seq[i]!;
      const loc = inst.stopLoc[s]!;
      const w = inst.winOffset[s]!;
      const d = inst.stopDur[s]!;
      bound = Math.min(inst.winEnd[w]! - d, bound - d - this.travel(loc, next));
      next = loc;
      latest[i] = bound;
    }
  }

  private travel(from: number, to: number): number {
    return to < 0 ? 0 : this.dur[from * this.N + to]!;
  }

  /** Location of position p of route v for the bounds: the stop there, or the vehicle's end (-1: open) at p = len. */
  private placeAt(sol: Solution, v: number, p: number): number {
    return p === sol.len[v]! ? this.inst.vEndLoc[v]! : this.inst.stopLoc[sol.seq[v]![p]!]!;
  }

  /** Location before position p of route v: the vehicle's start at p = 0. */
  private placeBefore(sol: Solution, v: number, p: number): number {
    return p === 0 ? this.inst.vStartLoc[v]! : this.inst.stopLoc[sol.seq[v]![p - 1]!]!;
  }

  /**
   * Whether route `head`'s stops before position `hp`, then stop `s` (-1: none), then route
   * `tail`'s stops from position `tp` on may be on time (`tail`'s end is the route's end: the same
   * route, or `sameEnds`). False means they cannot.
   * Needs both routes' bounds current (ensure, MoveEvaluator.prepare).
   */
  mayJoin(sol: Solution, head: number, hp: number, s: number, tail: number, tp: number): boolean {
    // An empty route is always on time (the summaries price it 0).
    if (hp === 0 && s < 0 && tp === sol.len[tail]!) return true;
    let t = this.depart[head]![hp]!;
    let at = this.placeBefore(sol, head, hp);
    if (s >= 0) {
      t = this.serve(t, at, s);
      if (t === Infinity) return false;
      at = this.inst.stopLoc[s]!;
    }
    return this.reaches(sol, t, at, tail, tp);
  }

  /**
   * Whether route `r`'s stops before position q, then the stops [from, to) of route `src` (in
   * reverse order when `reversed`), then route r's stops from position q on may be on time.
   */
  mayInsert(sol: Solution, r: number, q: number, src: number, from: number, to: number, reversed: boolean): boolean {
    const before = this.placeBefore(sol, r, q);
    const seq = sol.seq[src]!;
    const t = this.serveStretch(this.depart[r]![q]!, before, seq, from, to, reversed);
    return t !== Infinity && this.reaches(sol, t, stretchEnd(this.inst, seq, from, to, reversed, before), r, q);
  }

  /**
   * Departure after serving the stops seq[from, to) (in reverse order when `reversed`), each as
   * `serve` serves it, when leaving `at` at t: Infinity once a window has closed.
   */
  serveStretch(t: number, at: number, seq: Int32Array, from: number, to: number, reversed: boolean): number {
    for (let k = 0; k < to - from; k++) {
      const s = seq[reversed ? to - 1 - k : from + k]!;
      t = this.serve(t, at, s);
      if (t === Infinity) return Infinity;
      at = this.inst.stopLoc[s]!;
    }
    return t;
  }

  /** Earliest departure from the place before position p of route v (p = 0: its start); needs v's bounds current (ensure). */
  departBefore(v: number, p: number): number {
    return this.depart[v]![p]!;
  }

  /** Departure after serving stop s when leaving `at` at t: Infinity when its window has closed. */
  serve(t: number, at: number, s: number): number {
    const inst = this.inst;
    const w = inst.winOffset[s]!;
    const d = inst.stopDur[s]!;
    const start = Math.max(t + this.dur[at * this.N + inst.stopLoc[s]!]!, inst.winStart[w]!);
    return start > inst.winEnd[w]! - d + REFUSE_MARGIN ? Infinity : start + d;
  }

  /** Whether leaving `at` at t reaches position p of route v by its latest start (p = len: its end). */
  reaches(sol: Solution, t: number, at: number, v: number, p: number): boolean {
    return t + this.travel(at, this.placeAt(sol, v, p)) <= this.latest[v]![p]! + REFUSE_MARGIN;
  }
}

/** The place left last after serving seq[from, to) as serveStretch does: its last stop served, or `before` when it is empty. */
export function stretchEnd(inst: SolverInstance, seq: Int32Array, from: number, to: number, reversed: boolean, before: number): number {
  return from < to ? inst.stopLoc[seq[reversed ? from : to - 1]!]! : before;
}

function sameEnds(inst: SolverInstance): boolean {
  for (let v = 1; v < inst.nVehicles; v++) {
    if (inst.vEndLoc[v] !== inst.vEndLoc[0] || inst.vShiftEnd[v] !== inst.vShiftEnd[0]) return false;
  }
  return true;
}
