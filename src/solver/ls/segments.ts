/**
 * Route-segment summaries (Vidal et al. 2013) for O(1) evaluation of a route assembled from
 * pieces of existing routes. A summary of a stop sequence holds: its minimal duration D
 * (travel + service + waiting, with the best start), its time warp TW (how far windows are
 * broken; 0 when feasible), the earliest E and latest L start of its first service that
 * reach D, its distance, its load and its first and last locations.
 *
 * Only valid for "simple" problems (one window per stop, no breaks, no lateness, no overtime,
 * no overload, no squashing) whose vehicles share one travel profile: there the summaries are
 * exact, and the whole route's D is the exact evaluator's working time. Feasibility never
 * depends on them: every route a move produces is re-checked by the exact evaluator.
 * The sequence order of locks (route/sequence.ts) is summarised too: a segment's lowest and
 * highest sequence and whether it is already out of order, so that a move breaking the order is
 * priced as infeasible (not priced as improving only to be refused when applied, again and again).
 */
import type { SolverInstance } from '../instance.js';
import { FAR, TW_EPS } from '../params.js';
import { loadExceeds } from '../route/capacity.js';
import { FIELDS, latestStart, storePrefixes, storeSuffixes } from './segment-passes.js';
import type { Solution } from '../solution.js';

/** Whether the fast path applies to this instance. */
export function segmentsApply(inst: SolverInstance): boolean {
  if (!inst.simple || inst.balance !== 'none') return false;
  for (let v = 1; v < inst.nVehicles; v++) if (inst.vDur[v] !== inst.vDur[0]) return false;
  return true;
}

/** A stop sequence's summary built up piece by piece (allocation-free accumulator). */
export class SegmentAcc {
  d = 0;
  tw = 0;
  e = 0;
  l = 0;
  dist = 0;
  first = -1;
  last = -1;
  stops = 0;
  /** Sequence of the segment's first and last sequenced stop (0: none), and 1 when it is out of order. */
  seqLo = 0;
  seqHi = 0;
  seqBroken = 0;
  readonly load: Float64Array;

  constructor(dims: number) {
    this.load = new Float64Array(dims);
  }
}

/**
 * Per-route prefix and suffix summaries of one solution, recomputed lazily for routes whose
 * stamp changed. pre*[v][k] summarises stops seq[0..k], suf*[v][k] stops seq[k..n); neither
 * includes the vehicle's start or end.
 */
export class RouteSegments {
  readonly inst: SolverInstance;
  private readonly stamp: Float64Array;
  private readonly pre: Float64Array[] = [];
  private readonly suf: Float64Array[] = [];
  private readonly preLoad: Float64Array[] = [];
  private readonly sufLoad: Float64Array[] = [];
  /** Fast cost of each whole route as stored (consistent with move evaluation). */
  readonly routeCost: Float64Array;
  private readonly dur: Int32Array;
  private readonly N: number;
  /** Whether some stop has a sequence: the order is only followed then. */
  private readonly sequenced: boolean;
  /**
   * With penalised capacity (penaliseOverload): the problem's own capacities, which the routes may
   * exceed at `overloadPenalty` a unit of load above them (the instance's own are lifted); null: none.
   */
  private penalisedCap: Float64Array | null = null;
  private overloadPenalty = 0;
  /**
   * With penalised windows (penaliseWarp): the price of a unit of time warp, which a route may then
   * carry instead of being refused (the route evaluator's windows are lifted); 0: none.
   */
  private warpPenalty = 0;
  /** Each route's time warp as stored (ensure): above TW_EPS only with penalised windows. */
  readonly routeWarp: Float64Array;

  constructor(inst: SolverInstance) {
    this.inst = inst;
    const m = inst.nVehicles;
    this.stamp = new Float64Array(m).fill(-1);
    this.routeCost = new Float64Array(m);
    this.routeWarp = new Float64Array(m);
    for (let v = 0; v < m; v++) {
      this.pre.push(new Float64Array(0));
      this.suf.push(new Float64Array(0));
      this.preLoad.push(new Float64Array(0));
      this.sufLoad.push(new Float64Array(0));
    }
    this.dur = inst.vDur[0] ?? new Int32Array(0);
    this.N = inst.nLoc;
    this.sequenced = inst.sequenced;
  }

  /**
   * From now on a route's cost counts load above `cap` (the problem's capacities, v·dims+k) at
   * `penalty` a unit instead of refusing it (search/penalised-polish.ts); every stored route cost
   * is priced again. The instance read here must have its capacities lifted.
   */
  penaliseOverload(cap: Float64Array, penalty: number): void {
    this.penalisedCap = cap;
    this.overloadPenalty = penalty;
    this.stamp.fill(-1);
  }

  /**
   * From now on a route's cost counts its time warp (how far it breaks windows and its shift's end)
   * at `penalty` a unit instead of refusing it (search/penalised-polish.ts); every stored route cost
   * is priced again. The route evaluator that applies the moves must have its windows lifted.
   */
  penaliseWarp(penalty: number): void {
    this.warpPenalty = penalty;
    this.stamp.fill(-1);
  }

  /** The penalty a unit of overload (penaliseOverload) and of time warp (penaliseWarp), summed: what the moves' filters were worked out at (pair-arcs.ts). */
  get penaltyPerUnit(): number {
    return (this.penalisedCap === null ? 0 : this.overloadPenalty) + this.warpPenalty;
  }

  /** The penalty a unit of time warp (penaliseWarp); 0 without penalised windows. */
  get warpPenaltyPerUnit(): number {
    return this.warpPenalty;
  }

  /** Whether routes may exceed their capacity at a penalty (penaliseOverload). */
  get penalised(): boolean {
    return this.penalisedCap !== null;
  }

  /**
   * The penalty of `load` (at `offset`, dims entries) plus `sign` × `extra` (dims entries, when
   * given) above vehicle v's capacity: 0 without penalised capacity.
   */
  overloadPenaltyOf(v: number, load: Float64Array, offset = 0, extra: Float64Array | null = null, sign = 1): number {
    const cap = this.penalisedCap;
    if (cap === null) return 0;
    const dims = this.inst.dims;
    let excess = 0;
    for (let k = 0; k < dims; k++) {
      const over = load[offset + k]! + (extra === null ? 0 : sign * extra[k]!) - cap[v * dims + k]!;
      if (over > 0) excess += over;
    }
    return this.overloadPenalty * excess;
  }

  /** The load (dimension k) of route v's first `count` stops; its summaries must be current (ensure). */
  headLoad(v: number, count: number, k: number): number {
    return count <= 0 ? 0 : this.preLoad[v]![(count - 1) * this.inst.dims + k]!;
  }

  /** Brings route v's summaries up to date with `sol`. */
  ensure(sol: Solution, v: number, acc: SegmentAcc): void {
    if (this.stamp[v] === sol.stamp[v]) return;
    this.stamp[v] = sol.stamp[v]!;
    const inst = this.inst;
    const n = sol.len[v]!;
    const seq = sol.seq[v]!;
    const dims = inst.dims;
    if (this.pre[v]!.length < n * FIELDS) {
      const size = Math.max(n, 8) * 2;
      this.pre[v] = new Float64Array(size * FIELDS);
      this.suf[v] = new Float64Array(size * FIELDS);
      this.preLoad[v] = new Float64Array(size * dims);
      this.sufLoad[v] = new Float64Array(size * dims);
    }
    const pre = this.pre[v]!;
    const suf = this.suf[v]!;
    const preLoad = this.preLoad[v]!;
    const sufLoad = this.sufLoad[v]!;
    if (this.sequenced) {
      this.clear(acc);
      for (let i = 0; i < n; i++) {
        this.appendStop(acc, seq[i]!);
        store(acc, pre, preLoad, i, dims);
      }
      this.clear(acc);
      for (let i = n - 1; i >= 0; i--) {
        this.prependStop(acc, seq[i]!);
        store(acc, suf, sufLoad, i, dims);
      }
    } else {
      storePrefixes(inst, this.dur, seq, n, pre, preLoad);
      storeSuffixes(inst, this.dur, seq, n, suf, sufLoad);
    }
    this.startRoute(acc, v);
    if (n > 0) this.appendStored(acc, pre, preLoad, n - 1, seq[0]!);
    this.routeCost[v] = this.finishRoute(acc, v);
    this.routeWarp[v] = acc.tw;
  }

  clear(acc: SegmentAcc): void {
    acc.d = acc.tw = acc.dist = 0;
    acc.e = -FAR;
    acc.l = FAR;
    acc.first = acc.last = -1;
    acc.stops = 0;
    acc.seqLo = acc.seqHi = acc.seqBroken = 0;
    acc.load.fill(0);
  }

  /** The vehicle's start: departs at vDepart0, or any time later when its start is flexible. */
  startRoute(acc: SegmentAcc, v: number): void {
    const inst = this.inst;
    acc.d = acc.tw = acc.dist = 0;
    acc.e = inst.vDepart0[v]!;
    acc.l = inst.vFlexible[v] === 1 ? FAR : inst.vDepart0[v]!;
    acc.first = acc.last = inst.vStartLoc[v]!;
    acc.stops = 0;
    acc.seqLo = acc.seqHi = acc.seqBroken = 0;
    acc.load.fill(0);
  }

  /**
   * Closes the route at the vehicle's end (latest arrival `shiftEnd`; an open route ends at its
   * last service) and returns its cost, Infinity when a window, the shift or a capacity breaks
   * (the capacity only when `checkLoad`: SWAP* prices a stop's places before the stop it trades
   * with has left). With penalised windows (penaliseWarp) a window or the shift broken costs its
   * time warp at the penalty instead.
   */
  finishRoute(acc: SegmentAcc, v: number, checkLoad = true): number {
    const inst = this.inst;
    if (acc.stops === 0) return 0;
    const endLoc = inst.vEndLoc[v]!;
    let t = 0;
    if (endLoc >= 0) {
      t = this.dur[acc.last * this.N + endLoc]!;
      acc.dist += inst.dist[acc.last * this.N + endLoc]!;
    }
    const latest = Math.min(inst.vShiftEnd[v]!, FAR);
    // End node: D = 0, E = -FAR, L = latest.
    const delta = acc.d - acc.tw + t;
    const warp = acc.e + delta - latest;
    if (warp > 0) acc.tw += warp;
    acc.d += t;
    const warped = acc.tw > TW_EPS;
    if ((warped && this.warpPenalty === 0) || acc.seqBroken === 1) return Infinity;
    const dims = checkLoad ? inst.dims : 0;
    for (let k = 0; k < dims; k++) {
      if (loadExceeds(acc.load[k]!, inst.vCap[v * dims + k]!)) return Infinity;
    }
    const cost = (inst.costIsDistance ? acc.dist : acc.d) + (warped ? this.warpPenalty * acc.tw : 0);
    return checkLoad && this.penalisedCap !== null ? cost + this.overloadPenaltyOf(v, acc.load) : cost;
  }

  /** acc ⊕ stop s. */
  appendStop(acc: SegmentAcc, s: number): void {
    const inst = this.inst;
    const loc = inst.stopLoc[s]!;
    const w = inst.winOffset[s]!;
    const d = inst.stopDur[s]!;
    const e = inst.winStart[w]!;
    const l = latestStart(inst.winEnd, w, d);
    this.concat(acc, d, 0, e, l, loc, loc);
    if (this.sequenced) {
      const q = inst.stopSeq[s]!;
      if (q > 0) joinSequence(acc, q, q, 0);
    }
    const dims = inst.dims;
    for (let k = 0; k < dims; k++) acc.load[k]! += inst.stopLoad[s * dims + k]!;
    acc.stops++;
  }

  /** stop s ⊕ acc (builds suffixes backwards). */
  private prependStop(acc: SegmentAcc, s: number): void {
    const inst = this.inst;
    const loc = inst.stopLoc[s]!;
    const w = inst.winOffset[s]!;
    const d = inst.stopDur[s]!;
    const e = inst.winStart[w]!;
    const l = latestStart(inst.winEnd, w, d);
    if (acc.stops === 0) {
      acc.d = d;
      acc.tw = 0;
      acc.e = e;
      acc.l = l;
      acc.dist = 0;
      acc.last = loc;
      acc.first = loc;
    } else {
      const t = this.dur[loc * this.N + acc.first]!;
      const delta = d + t;
      const waitGap = acc.e - delta - l;
      const wait = waitGap > 0 ? waitGap : 0;
      const warpGap = e + delta - acc.l;
      const warp = warpGap > 0 ? warpGap : 0;
      const ne = Math.max(acc.e - delta, e) - wait;
      const nl = Math.min(acc.l - delta, l) + warp;
      acc.d = d + acc.d + t + wait;
      acc.tw = acc.tw + warp;
      acc.e = ne;
      acc.l = nl;
      acc.dist += this.inst.dist[loc * this.N + acc.first]!;
      acc.first = loc;
    }
    if (this.sequenced) {
      const q = inst.stopSeq[s]!;
      if (q > 0) prependSequence(acc, q);
    }
    const dims = inst.dims;
    for (let k = 0; k < dims; k++) acc.load[k]! += inst.stopLoad[s * dims + k]!;
    acc.stops++;
  }

  /** acc ⊕ (first `k + 1` stops of route v). */
  appendPrefix(acc: SegmentAcc, sol: Solution, v: number, count: number): void {
    if (count <= 0) return;
    this.appendStored(acc, this.pre[v]!, this.preLoad[v]!, count - 1, sol.seq[v]![0]!);
  }

  /** acc ⊕ (stops from position `from` to the end of route v). */
  appendSuffix(acc: SegmentAcc, sol: Solution, v: number, from: number): void {
    const n = sol.len[v]!;
    if (from >= n) return;
    this.appendStored(acc, this.suf[v]!, this.sufLoad[v]!, from, sol.seq[v]![from]!);
  }

  /** acc ⊕ stops seq[from..to) of route v, in reverse order when `reversed`. */
  appendRange(acc: SegmentAcc, sol: Solution, v: number, from: number, to: number, reversed: boolean): void {
    if (from >= to) return;
    const n = sol.len[v]!;
    if (!reversed && from === 0) return this.appendPrefix(acc, sol, v, to);
    if (!reversed && to === n) return this.appendSuffix(acc, sol, v, from);
    const seq = sol.seq[v]!;
    if (reversed) for (let i = to - 1; i >= from; i--) this.appendStop(acc, seq[i]!);
    else for (let i = from; i < to; i++) this.appendStop(acc, seq[i]!);
  }

  private appendStored(acc: SegmentAcc, arr: Float64Array, loads: Float64Array, i: number, firstStop: number): void {
    const o = i * FIELDS;
    const firstLoc = this.inst.stopLoc[firstStop]!;
    this.concat(acc, arr[o]!, arr[o + 1]!, arr[o + 2]!, arr[o + 3]!, firstLoc, arr[o + 5]!, arr[o + 4]);
    if (this.sequenced && arr[o + 7]! > 0) joinSequence(acc, arr[o + 7]!, arr[o + 8]!, arr[o + 9]!);
    const dims = this.inst.dims;
    for (let k = 0; k < dims; k++) acc.load[k]! += loads[i * dims + k]!;
    acc.stops += arr[o + 6]!;
  }

  /** acc ⊕ (segment with D, TW, E, L, first/last location and inner distance). */
  private concat(acc: SegmentAcc, d: number, tw: number, e: number, l: number, first: number, last: number, dist = 0): void {
    if (acc.last < 0) {
      acc.d = d;
      acc.tw = tw;
      acc.e = e;
      acc.l = l;
      acc.dist = dist;
      acc.first = first;
      acc.last = last;
      return;
    }
    const t = this.dur[acc.last * this.N + first]!;
    const delta = acc.d - acc.tw + t;
    const waitGap = e - delta - acc.l;
    const wait = waitGap > 0 ? waitGap : 0;
    const warpGap = acc.e + delta - l;
    const warp = warpGap > 0 ? warpGap : 0;
    const ne = Math.max(e - delta, acc.e) - wait;
    const nl = Math.min(l - delta, acc.l) + warp;
    acc.d = acc.d + d + t + wait;
    acc.tw = acc.tw + tw + warp;
    acc.e = ne;
    acc.l = nl;
    acc.dist += this.inst.dist[acc.last * this.N + first]! + dist;
    acc.last = last;
  }
}

/** acc ⊕ (a segment whose sequenced stops run from `lo` to `hi`, `broken` 1 when out of order); lo > 0. */
function joinSequence(acc: SegmentAcc, lo: number, hi: number, broken: number): void {
  if (broken === 1 || acc.seqHi > lo) acc.seqBroken = 1;
  if (acc.seqLo === 0) acc.seqLo = lo;
  acc.seqHi = hi;
}

/** (stop of sequence q > 0) ⊕ acc. */
function prependSequence(acc: SegmentAcc, q: number): void {
  if (acc.seqLo > 0 && q > acc.seqLo) acc.seqBroken = 1;
  if (acc.seqHi === 0) acc.seqHi = q;
  acc.seqLo = q;
}

function store(acc: SegmentAcc, arr: Float64Array, loads: Float64Array, i: number, dims: number): void {
  const o = i * FIELDS;
  arr[o] = acc.d;
  arr[o + 1] = acc.tw;
  arr[o + 2] = acc.e;
  arr[o + 3] = acc.l;
  arr[o + 4] = acc.dist;
  arr[o + 5] = acc.last;
  arr[o + 6] = acc.stops;
  arr[o + 7] = acc.seqLo;
  arr[o + 8] = acc.seqHi;
  arr[o + 9] = acc.seqBroken;
  for (let k = 0; k < dims; k++) loads[i * dims + k] = acc.load[k]!;
}
