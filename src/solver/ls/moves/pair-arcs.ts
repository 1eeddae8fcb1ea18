/**
 * The distance filters of relocate and or-opt (relocate.ts), swap (swap.ts) and 2-opt*
 * (two-opt.ts), worked out once per pair of a stop u and its neighbour x. The local search tries
 * relocate, then swap and the 2-opts, then or-opt of 2 and of 3 on the same pair, and they read
 * the same few places: the stops around u and around x. Taking a string from u out starts at the
 * same arc (the one into u) for every length, putting it in ends at the same arcs around x, and a
 * string read forwards starts with u; swap and 2-opt* remove and add arcs among the same places.
 * So the filters share most of their arc reads, and the moves tried after relocate find their
 * answer here, in the routes as relocate saw them (a pair's routes keep their stamps until a move
 * changes them: solution.ts).
 *
 * Each string length gets a mask of the places whose change of arcs shortens the plan: bit
 * 2·reversed + side, side 1 after x and 0 before it (placeBit); swap and each way of 2-opt* a
 * verdict. The sums are of whole distances (the matrix holds integers), so their order does not
 * change them: every answer is exactly what the operator's own arc test answered before.
 */
import type { Solution } from '../../solution.js';
import { IMPROVEMENT_EPS } from '../../params.js';
import type { MoveEvaluator } from '../move.js';

/** Longest string the masks cover: or-opt's 3 (local-search.ts, operatorsOf). */
export const LONGEST_STRING = 3;

/** Bit of a place in a mask: the string reversed or not, after x (side 1) or before it (side 0). */
export function placeBit(reversed: number, side: number): number {
  return 1 << (2 * reversed + side);
}

export class PairArcs {
  /** The pair and the routes' stamps the masks were worked out for. */
  private u = -1;
  private x = -1;
  private ru = -1;
  private rx = -1;
  private stampU = -1;
  private stampX = -1;
  /** Per string length, the places that pass the distance filter (0 for a length that does not fit). */
  private readonly masks = new Int32Array(LONGEST_STRING + 1);
  /**
   * What depends on u alone, kept while u's route keeps its stamp: the local search tries u with
   * each of its neighbours in turn, and these reads were half of the pair's (pair-arcs' u-side).
   */
  private uStop = -1;
  private uRoute = -1;
  private uStamp = -1;
  /** Per string length, its last stop's location (-2: the string does not fit in u's route). */
  private readonly lastLoc = new Int32Array(LONGEST_STRING + 1);
  /** Per string length, what taking the string out of u's route saves (its arcs in, out, less the arc that joins the gap). */
  private readonly saved = new Float64Array(LONGEST_STRING + 1);
  private readonly around = nowhere();
  /**
   * Where capacity is penalised (RouteSegments.penaliseOverload), also kept with u's side: the
   * penalty a unit they were worked out at, u's route's overload penalty, per string length the
   * string's load (dims entries each) and u's route's penalty without it. A move's change of the
   * penalty then reads one route's load more per neighbour x instead of summing its stops' loads.
   */
  private uRate = -1;
  private uPenalty = 0;
  private readonly uPenaltyWithout = new Float64Array(LONGEST_STRING + 1);
  private stringLoad = new Float64Array(0);
  private readonly scratch: Float64Array[] = [];
  /** Whether u and x trading places, u's tail after x (u then x) and x's tail after u (x then u) shorten the plan. */
  private swaps = false;
  private uThenX = false;
  private xThenU = false;
  /** 2-opt*'s changes of arcs, u then x and x then u. */
  private uThenXChange = 0;
  private xThenUChange = 0;

  /**
   * The places next to x where the string of `length` stops from u shortens the plan, as a mask of
   * placeBit; only for the distance filter (MoveEvaluator.distanceFilter), with both routes'
   * summaries prepared. Strings that do not fit in u's route, or hold x, get 0.
   */
  passing(sol: Solution, moves: MoveEvaluator, u: number, x: number, length: number): number {
    if (length > LONGEST_STRING) throw new Error(`internal error: strings of ${length} stops are longer than the arc masks cover`);
    this.ensure(sol, moves, u, x);
    return this.masks[length]!;
  }

  /** Whether u and x trading places shortens the plan (swap.ts; u and x not next to each other in one route). */
  swapShortens(sol: Solution, moves: MoveEvaluator, u: number, x: number): boolean {
    this.ensure(sol, moves, u, x);
    return this.swaps;
  }

  /**
   * Whether the routes of u and x (two routes) exchanging their tails shortens the plan (2-opt*,
   * two-opt.ts): u followed by x's place (`uFirst`), or x followed by u's place.
   */
  crossShortens(sol: Solution, moves: MoveEvaluator, u: number, x: number, uFirst: boolean): boolean {
    this.ensure(sol, moves, u, x);
    return uFirst ? this.uThenX : this.xThenU;
  }

  /**
   * Whether every operator of the local search (operatorsOf) refuses u and x on its distance filter
   * before pricing a move: no place passes for any string length (relocate, or-opt), swap does not
   * shorten the plan (in one route it leaves next-door stops to relocate), nor does either way of
   * 2-opt* (two routes only) or of 2-opt (one route: twoOptRefuses). Most pairs end here, so the local
   * search asks this once instead of each operator in turn (LocalSearch.tryPair); asking them would
   * change nothing, not even the count of moves priced (the search's measure of work).
   */
  refusesAll(sol: Solution, moves: MoveEvaluator, u: number, x: number): boolean {
    if (!moves.distanceFilter) return false;
    this.ensure(sol, moves, u, x);
    for (let L = 1; L <= LONGEST_STRING; L++) if (this.masks[L] !== 0) return false;
    if (this.ru !== this.rx) return !this.swaps && !this.uThenX && !this.xThenU;
    if (this.swaps && Math.abs(sol.posOf[u]! - sol.posOf[x]!) > 1) return false;
    return twoOptRefuses(sol, moves, u, x);
  }

  /** The change of arcs of 2-opt* on the routes of u and x (crossShortens), u followed by x's place (`uFirst`) or x by u's. */
  crossChange(sol: Solution, moves: MoveEvaluator, u: number, x: number, uFirst: boolean): number {
    this.ensure(sol, moves, u, x);
    return uFirst ? this.uThenXChange : this.xThenUChange;
  }

  private ensure(sol: Solution, moves: MoveEvaluator, u: number, x: number): void {
    if (!this.holds(sol, moves, u, x)) this.workOut(sol, moves, u, x);
  }

  /** Whether the masks were worked out for this pair in routes as they are now (and at the penalty a unit of now, where capacity is penalised). */
  private holds(sol: Solution, moves: MoveEvaluator, u: number, x: number): boolean {
    if (u !== this.u || x !== this.x || this.uRate !== moves.segments.penaltyPerUnit) return false;
    const ru = sol.routeOf[u]!;
    const rx = sol.routeOf[x]!;
    return ru === this.ru && rx === this.rx && sol.stamp[ru] === this.stampU && sol.stamp[rx] === this.stampX;
  }

  private workOut(sol: Solution, moves: MoveEvaluator, u: number, x: number): void {
    const ru = sol.routeOf[u]!;
    const rx = sol.routeOf[x]!;
    this.u = u;
    this.x = x;
    this.ru = ru;
    this.rx = rx;
    this.stampU = sol.stamp[ru]!;
    this.stampX = sol.stamp[rx]!;
    if (u !== this.uStop || ru !== this.uRoute || this.stampU !== this.uStamp || this.uRate !== moves.segments.penaltyPerUnit)
      this.workOutU(sol, moves, u, ru);
    const px = sol.posOf[x]!;
    const a = this.around;
    a.lx = moves.inst.stopLoc[x]!;
    a.bx = moves.locBefore(sol, rx, px);
    a.ax = moves.locAt(sol, rx, px + 1);
    a.xIn = moves.arc(a.bx, a.lx);
    a.xOut = moves.arc(a.lx, a.ax);
    a.uToX = moves.arc(a.lu, a.lx);
    a.xToU = moves.symmetric ? a.uToX : moves.arc(a.lx, a.lu);
    a.bxToU = moves.arc(a.bx, a.lu);
    a.uToAx = moves.arc(a.lu, a.ax);
    // Where capacity is penalised a move between two routes may lengthen the plan by what it takes off their overload's penalty and still improve it.
    const between = ru !== rx && moves.segments.penalised;
    const pu = sol.posOf[u]!;
    const xPenalty = between ? moves.overloadPenaltyOf(sol, rx) : 0;
    this.workOutStrings(sol, moves, ru, pu, rx, px, between ? xPenalty : -1);
    const trades = between ? this.uPenalty + xPenalty : 0;
    this.workOutTrades(moves, trades, between ? this.swapGain(sol, moves, x, rx, xPenalty) : 0);
  }

  /** The places around u and, per string length, its last stop and what taking it out saves: the same for every neighbour x. */
  private workOutU(sol: Solution, moves: MoveEvaluator, u: number, ru: number): void {
    this.uStop = u;
    this.uRoute = ru;
    this.uStamp = sol.stamp[ru]!;
    const pu = sol.posOf[u]!;
    const a = this.around;
    a.lu = moves.inst.stopLoc[u]!;
    a.bu = moves.locBefore(sol, ru, pu);
    a.au = moves.locAt(sol, ru, pu + 1);
    a.uIn = moves.arc(a.bu, a.lu);
    a.uOut = moves.arc(a.lu, a.au);
    const seq = sol.seq[ru]!;
    const n = sol.len[ru]!;
    const stopLoc = moves.inst.stopLoc;
    for (let L = 1; L <= LONGEST_STRING; L++) {
      if (pu + L > n) {
        this.lastLoc[L] = -2;
        continue;
      }
      const last = stopLoc[seq[pu + L - 1]!]!;
      const after = moves.locAt(sol, ru, pu + L);
      this.lastLoc[L] = last;
      this.saved[L] = a.uIn + moves.arc(last, after) - moves.arc(a.bu, after);
    }
    this.uRate = moves.segments.penaltyPerUnit;
    if (moves.segments.penalised) this.workOutUPenalties(sol, moves, ru, pu);
  }

  /** u's side of the penalty (uPenalty, stringLoad, uPenaltyWithout), where capacity is penalised. */
  private workOutUPenalties(sol: Solution, moves: MoveEvaluator, ru: number, pu: number): void {
    const dims = moves.inst.dims;
    if (this.stringLoad.length < (LONGEST_STRING + 1) * dims) {
      this.stringLoad = new Float64Array((LONGEST_STRING + 1) * dims);
      for (let i = 0; i < 2; i++) this.scratch.push(new Float64Array(dims));
    }
    const segments = moves.segments;
    const stopLoad = moves.inst.stopLoad;
    const seq = sol.seq[ru]!;
    this.uPenalty = segments.overloadPenaltyOf(ru, sol.load, ru * dims);
    const load = this.scratch[0]!;
    load.fill(0);
    for (let L = 1; L <= LONGEST_STRING && this.lastLoc[L] !== -2; L++) {
      for (let k = 0; k < dims; k++) {
        load[k]! += stopLoad[seq[pu + L - 1]! * dims + k]!;
        this.stringLoad[L * dims + k] = load[k]!;
      }
      this.uPenaltyWithout[L] = segments.overloadPenaltyOf(ru, sol.load, ru * dims, load, -1);
    }
  }

  /** What moving u's string of `L` stops into route rx (penalty `xPenalty` now) takes off the two routes' overload penalty. */
  private stringGain(sol: Solution, moves: MoveEvaluator, L: number, rx: number, xPenalty: number): number {
    const dims = moves.inst.dims;
    const load = this.scratch[1]!;
    for (let k = 0; k < dims; k++) load[k] = this.stringLoad[L * dims + k]!;
    const xWith = moves.segments.overloadPenaltyOf(rx, sol.load, rx * dims, load, 1);
    return this.uPenalty + xPenalty - this.uPenaltyWithout[L]! - xWith;
  }

  /** What u and x trading places takes off their routes' overload penalty (x in route rx ≠ u's, penalty `xPenalty` now). */
  private swapGain(sol: Solution, moves: MoveEvaluator, x: number, rx: number, xPenalty: number): number {
    const dims = moves.inst.dims;
    const moved = this.scratch[1]!;
    // moved: what u's route gives (u less x).
    for (let k = 0; k < dims; k++) moved[k] = this.stringLoad[dims + k]! - moves.inst.stopLoad[x * dims + k]!;
    const ru = this.uRoute;
    const after =
      moves.segments.overloadPenaltyOf(ru, sol.load, ru * dims, moved, -1) +
      moves.segments.overloadPenaltyOf(rx, sol.load, rx * dims, moved, 1);
    return this.uPenalty + xPenalty - after;
  }

  /**
   * The masks of relocate and or-opt: each string from u after x (side 1) or before it (side 0),
   * forwards or reversed. `xPenalty`: route rx's overload penalty now where capacity is penalised
   * and rx ≠ ru; -1 elsewhere.
   */
  private workOutStrings(sol: Solution, moves: MoveEvaluator, ru: number, pu: number, rx: number, px: number, xPenalty: number): void {
    const a = this.around;
    // A string read forwards enters at u and replaces x's arc out (side 1) or in (side 0); reversed, it leaves at u.
    const lead1 = a.xToU - a.xOut;
    const lead0 = a.bxToU - a.xIn;
    for (let L = 1; L <= LONGEST_STRING; L++) {
      this.masks[L] = 0;
      const last = this.lastLoc[L]!;
      if (last === -2 || (ru === rx && px >= pu && px < pu + L)) continue;
      const saved = this.saved[L]!;
      const bound = (xPenalty >= 0 ? this.stringGain(sol, moves, L, rx, xPenalty) : 0) - IMPROVEMENT_EPS;
      // A string of one stop ends at u, whose arcs to x and to x's next place are read already.
      const lastToAx = L === 1 ? a.uToAx : moves.arc(last, a.ax);
      const lastToX = L === 1 ? a.uToX : moves.arc(last, a.lx);
      let mask = 0;
      if (lead1 + lastToAx - saved < bound) mask |= placeBit(0, 1);
      if (lead0 + lastToX - saved < bound) mask |= placeBit(0, 0);
      if (L > 1 && moves.symmetric) {
        // Reversed, the string's last stop follows x: the same arc as the way back (symmetric).
        if (lastToX - a.xOut + a.uToAx - saved < bound) mask |= placeBit(1, 1);
        if (moves.arc(a.bx, last) - a.xIn + a.uToX - saved < bound) mask |= placeBit(1, 0);
      }
      this.masks[L] = mask;
    }
  }

  /**
   * Swap's and 2-opt*'s verdicts: their arc tests as swap.ts and two-opt.ts wrote them, on the arcs
   * read once. `room`: what 2-opt* may take off the two routes' overload penalty at most (their
   * whole penalty, as HGS-CVRP prunes); `swapGain`: what swap takes off it. Both 0 where capacity is
   * not penalised (search/penalised-polish.ts).
   */
  private workOutTrades(moves: MoveEvaluator, room: number, swapGain: number): void {
    const a = this.around;
    const removed = a.uIn + a.uOut + a.xIn + a.xOut;
    const added = moves.arc(a.bu, a.lx) + moves.arc(a.lx, a.au) + a.bxToU + a.uToAx;
    this.swaps = added - removed < swapGain - IMPROVEMENT_EPS;
    this.uThenXChange = a.uToX + moves.arc(a.bx, a.au) - a.uOut - a.xIn;
    this.xThenUChange = a.xToU + moves.arc(a.bu, a.ax) - a.xOut - a.uIn;
    this.uThenX = this.uThenXChange < room - IMPROVEMENT_EPS;
    this.xThenU = this.xThenUChange < room - IMPROVEMENT_EPS;
  }
}

/**
 * The places around u and x (u's location, the one before it in its route and the one after it;
 * the same for x; -1 past the end of an open route) and the arcs among them that several filters read.
 */
interface Around {
  lu: number;
  bu: number;
  au: number;
  lx: number;
  bx: number;
  ax: number;
  uIn: number;
  uOut: number;
  xIn: number;
  xOut: number;
  xToU: number;
  bxToU: number;
  uToAx: number;
  uToX: number;
}

function nowhere(): Around {
  return { lu: -1, bu: -1, au: -1, lx: -1, bx: -1, ax: -1, uIn: 0, uOut: 0, xIn: 0, xOut: 0, xToU: 0, bxToU: 0, uToAx: 0, uToX: 0 };
}

/**
 * Whether TwoOpt refuses u and x on its distance filter alone, before pricing either reversal: they
 * are in two routes or too close for a stretch between them, or neither reversal shortens the route.
 */
function twoOptRefuses(sol: Solution, moves: MoveEvaluator, u: number, x: number): boolean {
  const r = sol.routeOf[u]!;
  if (sol.routeOf[x] !== r) return true;
  if (!moves.distanceFilter || !moves.symmetric) return false;
  const a = Math.min(sol.posOf[u]!, sol.posOf[x]!);
  const b = Math.max(sol.posOf[u]!, sol.posOf[x]!);
  if (b - a < 2) return true;
  return !twoOptShortens(sol, moves, r, a, b + 1) && !twoOptShortens(sol, moves, r, a - 1, b);
}

/**
 * 2-opt's distance filter (two-opt.ts), on the route's own arcs: reversing seq[i+1..j) of route r replaces the arcs (i → i+1) and (j-1 → j) by (i → j-1) and
 * (i+1 → j), where position -1 is the start and position len the end. Symmetric distances only.
 */
export function twoOptShortens(sol: Solution, moves: MoveEvaluator, r: number, i: number, j: number): boolean {
  // No closure for the positions: one a call was half of what a Solomon search allocated (22 of 41 MB on RC101, 1,000 iterations).
  const a = placeOf(sol, moves, r, i);
  const b = placeOf(sol, moves, r, i + 1);
  const c = placeOf(sol, moves, r, j - 1);
  const d = placeOf(sol, moves, r, j);
  return moves.arc(a, c) + moves.arc(b, d) - moves.arc(a, b) - moves.arc(c, d) < -IMPROVEMENT_EPS;
}

/** Location at position p of route r: the start at p = -1, the end (-1: open) at p = len. */
function placeOf(sol: Solution, moves: MoveEvaluator, r: number, p: number): number {
  return p < 0 ? moves.locBefore(sol, r, 0) : moves.locAt(sol, r, p);
}
