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

/** Longest string the masks cover: or-opt's 3 (moves/operators.ts, operatorsOf). */
export const LONGEST_STRING = 3;

/** Bit of a place in a mask: the string reversed or not, after x (side 1) or before it (side 0). */
export function placeBit(reversed: number, side: number): number {
  return 1 << (2 * reversed + side);
}

/** The four places' bits (placeBit): forwards or reversed, after x or before it. */
const FORWARD_AFTER = placeBit(0, 1);
const FORWARD_BEFORE = placeBit(0, 0);
const REVERSED_AFTER = placeBit(1, 1);
const REVERSED_BEFORE = placeBit(1, 0);

/**
 * The verdicts an operator's `filterVerdict` names (Operator), bits of PairArcs.verdicts: some place
 * passes for the string of L stops (stringVerdict(L), bits 1–3), swap shortens, either way of 2-opt*
 * shortens; NO_VERDICT (bit 0), always on, for an operator whose filter is its own. An operator whose
 * verdict is off finds nothing before pricing a move.
 */
export const NO_VERDICT = 1;
export function stringVerdict(length: number): number {
  return 1 << length;
}
export const SWAP_VERDICT = 1 << (LONGEST_STRING + 1);
export const CROSS_VERDICT = 1 << (LONGEST_STRING + 2);
/** Every verdict on: what verdicts answers where the distance filter is off (nothing is refused by it). */
export const EVERY_VERDICT = -1;

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
  /** u's location, the places before and after it (-1 past the end of an open route), and its arcs in and out. */
  private lu = -1;
  private bu = -1;
  private au = -1;
  private uIn = 0;
  private uOut = 0;
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
  /** The string lengths for which some place passes (masks not 0), as their verdicts' bits (stringVerdict). */
  private passingLengths = 0;
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
    if (this.passingLengths !== 0) return false;
    if (this.ru !== this.rx) return !this.swaps && !this.uThenX && !this.xThenU;
    if (this.swaps && Math.abs(sol.posOf[u]! - sol.posOf[x]!) > 1) return false;
    return twoOptRefuses(sol, moves, u, x);
  }

  /**
   * The verdicts of the pair's filters that pass, as bits (stringVerdict, SWAP_VERDICT,
   * CROSS_VERDICT): an operator whose verdict is off refuses the pair on its distance filter
   * before pricing a move, as refusesAll does for all of them at once. Every bit where the
   * distance filter is off.
   */
  verdicts(sol: Solution, moves: MoveEvaluator, u: number, x: number): number {
    if (!moves.distanceFilter) return EVERY_VERDICT;
    this.ensure(sol, moves, u, x);
    // Put together here, not in workOut: only pairs that refusesAll lets through are asked.
    return NO_VERDICT | this.passingLengths | (this.swaps ? SWAP_VERDICT : 0) | (this.uThenX || this.xThenU ? CROSS_VERDICT : 0);
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

  /**
   * Every test of the pair, its arcs read into locals once and summed as the operators' own tests
   * sum them, in one function. A pair is most of a large problem's search (X-n1001: 3.6 million
   * pairs in 400 iterations) and every indirection costs on every one: read through
   * MoveEvaluator.arc and a shared record of the places, in three functions that passed them on in
   * fields, with the module's constants read in the loop, a pair took some 1,300 instructions.
   */
  private workOut(sol: Solution, moves: MoveEvaluator, u: number, x: number): void {
    const ru = sol.routeOf[u]!;
    const rx = sol.routeOf[x]!;
    this.rememberPair(sol, moves, u, x, ru, rx);
    const dist = moves.inst.dist;
    const N = moves.inst.nLoc;
    const px = sol.posOf[x]!;
    const lu = this.lu;
    const lx = moves.inst.stopLoc[x]!;
    const bx = moves.locBefore(sol, rx, px);
    const ax = moves.locAt(sol, rx, px + 1);
    // Stops' locations and route starts are places of the matrix; only a place after a stop may be an open route's end (-1), whose arcs in are 0.
    const xIn = dist[bx * N + lx]!;
    const xOut = ax < 0 ? 0 : dist[lx * N + ax]!;
    const uToX = dist[lu * N + lx]!;
    const uToAx = ax < 0 ? 0 : dist[lu * N + ax]!;
    const xToU = moves.symmetric ? uToX : dist[lx * N + lu]!;
    const bxToU = dist[bx * N + lu]!;
    // Where capacity is penalised a move between two routes may lengthen the plan by what it takes off their overload's penalty and still improve it.
    const between = ru !== rx && moves.segments.penalised;
    const xPenalty = between ? moves.overloadPenaltyOf(sol, rx) : -1;
    // Where windows are penalised any move may lengthen it by up to its routes' time warp's penalty (MoveEvaluator.warpRoom); less the round-off's margin.
    const slack = moves.warpRoom(sol, ru, rx) - IMPROVEMENT_EPS;
    // Relocate and or-opt: each string from u after x (side 1) or before it (side 0), forwards or reversed.
    const pu = sol.posOf[u]!;
    const reversible = moves.symmetric;
    const masks = this.masks;
    // Read once a pair: a module's constants are read through its context, checked on every read (masks: LONGEST_STRING + 1 lengths).
    const forwardAfter = FORWARD_AFTER;
    const forwardBefore = FORWARD_BEFORE;
    const reversedAfter = REVERSED_AFTER;
    const reversedBefore = REVERSED_BEFORE;
    let passingLengths = 0;
    for (let L = 1; L < masks.length; L++) {
      const last = this.lastLoc[L]!;
      if (last === -2 || (ru === rx && px >= pu && px < pu + L)) {
        masks[L] = 0;
        continue;
      }
      const saved = this.saved[L]!;
      const bound = (xPenalty >= 0 ? this.stringGain(sol, moves, L, rx, xPenalty) : 0) + slack;
      // A string of one stop ends at u, whose arcs to x and to x's next place are read already.
      const lastToAx = L === 1 ? uToAx : ax < 0 ? 0 : dist[last * N + ax]!;
      const lastToX = L === 1 ? uToX : dist[last * N + lx]!;
      let mask = 0;
      // A string read forwards enters at u and replaces x's arc out (side 1) or in (side 0); reversed, it leaves at u.
      if (xToU - xOut + lastToAx - saved < bound) mask |= forwardAfter;
      if (bxToU - xIn + lastToX - saved < bound) mask |= forwardBefore;
      if (L > 1 && reversible) {
        // Reversed, the string's last stop follows x: the same arc as the way back (symmetric).
        if (lastToX - xOut + uToAx - saved < bound) mask |= reversedAfter;
        if (dist[bx * N + last]! - xIn + uToX - saved < bound) mask |= reversedBefore;
      }
      masks[L] = mask;
      if (mask !== 0) passingLengths |= 1 << L; // stringVerdict(L)
    }
    this.passingLengths = passingLengths;
    // Swap's and 2-opt*'s verdicts, their arc tests as swap.ts and two-opt.ts wrote them. `room`: what
    // 2-opt* may take off the two routes' overload penalty at most (their whole penalty, as HGS-CVRP
    // prunes); `swapGain`: what swap takes off it. Both 0 where capacity is not penalised (search/penalised-polish.ts).
    const room = between ? this.uPenalty + xPenalty : 0;
    const swapGain = between ? this.swapGain(sol, moves, x, rx, xPenalty) : 0;
    const { bu, au, uIn, uOut } = this;
    const removed = uIn + uOut + xIn + xOut;
    const added = dist[bu * N + lx]! + (au < 0 ? 0 : dist[lx * N + au]!) + bxToU + uToAx;
    this.swaps = added - removed < swapGain + slack;
    this.uThenXChange = uToX + (au < 0 ? 0 : dist[bx * N + au]!) - uOut - xIn;
    this.xThenUChange = xToU + (ax < 0 ? 0 : dist[bu * N + ax]!) - xOut - uIn;
    this.uThenX = this.uThenXChange < room + slack;
    this.xThenU = this.xThenUChange < room + slack;
  }

  /** Notes the pair and its routes' stamps (holds), and works out u's side again where its route changed since. */
  private rememberPair(sol: Solution, moves: MoveEvaluator, u: number, x: number, ru: number, rx: number): void {
    this.u = u;
    this.x = x;
    this.ru = ru;
    this.rx = rx;
    this.stampU = sol.stamp[ru]!;
    this.stampX = sol.stamp[rx]!;
    if (u !== this.uStop || ru !== this.uRoute || this.stampU !== this.uStamp || this.uRate !== moves.segments.penaltyPerUnit)
      this.workOutU(sol, moves, u, ru);
  }

  /** The places around u and, per string length, its last stop and what taking it out saves: the same for every neighbour x. */
  private workOutU(sol: Solution, moves: MoveEvaluator, u: number, ru: number): void {
    this.uStop = u;
    this.uRoute = ru;
    this.uStamp = sol.stamp[ru]!;
    const pu = sol.posOf[u]!;
    this.lu = moves.inst.stopLoc[u]!;
    this.bu = moves.locBefore(sol, ru, pu);
    this.au = moves.locAt(sol, ru, pu + 1);
    this.uIn = moves.arc(this.bu, this.lu);
    this.uOut = moves.arc(this.lu, this.au);
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
      this.saved[L] = this.uIn + moves.arc(last, after) - moves.arc(this.bu, after);
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
}

/**
 * Whether TwoOpt refuses u and x on its distance filter alone, before pricing either reversal: they
 * are in two routes or too close for a stretch between them, or neither reversal shortens the route.
 */
function twoOptRefuses(sol: Solution, moves: MoveEvaluator, u: number, x: number): boolean {
  const r = sol.routeOf[u]!;
  if (sol.routeOf[x] !== r) return true;
  if (!moves.distanceFilter || !moves.symmetric || moves.warpRoom(sol, r, r) > 0) return false;
  const a = Math.min(sol.posOf[u]!, sol.posOf[x]!);
  const b = Math.max(sol.posOf[u]!, sol.posOf[x]!);
  if (b - a < 2) return true;
  // Reversing (a, b] (twoOptShortens(r, a, b + 1)) and reversing [a, b) (twoOptShortens(r, a - 1, b)) read six places
  // and seven arcs (a → b both), read here on the arrays themselves: V8 inlined no helper this deep in the local
  // search (placeIn, reversalShortens: some 500 M instructions of X-n1001's 400 iterations). Places a - 1 and b + 1
  // may be the route's start and end, the others are stops.
  const inst = moves.inst;
  const seq = sol.seq[r]!;
  const stopLoc = inst.stopLoc;
  const dist = inst.dist;
  const N = inst.nLoc;
  const eps = IMPROVEMENT_EPS;
  const atA = stopLoc[seq[a]!]!;
  const afterA = stopLoc[seq[a + 1]!]!;
  const beforeB = stopLoc[seq[b - 1]!]!;
  const atB = stopLoc[seq[b]!]!;
  const aToB = dist[atA * N + atB]!;
  const afterB = b + 1 === sol.len[r]! ? inst.vEndLoc[r]! : stopLoc[seq[b + 1]!]!;
  const afterBOut = afterB < 0 ? 0 : dist[atB * N + afterB]!;
  if (aToB + (afterB < 0 ? 0 : dist[afterA * N + afterB]!) - dist[atA * N + afterA]! - afterBOut < -eps) return false;
  const beforeA = a === 0 ? inst.vStartLoc[r]! : stopLoc[seq[a - 1]!]!;
  return !(dist[beforeA * N + beforeB]! + aToB - dist[beforeA * N + atA]! - dist[beforeB * N + atB]! < -eps);
}

/**
 * 2-opt's distance filter (two-opt.ts), on the route's own arcs: reversing seq[i+1..j) of route r replaces the arcs (i → i+1) and (j-1 → j) by (i → j-1) and
 * (i+1 → j), where position -1 is the start and position len the end. Symmetric distances only.
 */
export function twoOptShortens(sol: Solution, moves: MoveEvaluator, r: number, i: number, j: number): boolean {
  // The route's arrays read once for the four places: each place read through MoveEvaluator.locAt and each arc through MoveEvaluator.arc, a call cost some 900 instructions (X-n1001).
  // No closure for the positions: one a call was half of what a Solomon search allocated (22 of 41 MB on RC101, 1,000 iterations).
  const inst = moves.inst;
  const seq = sol.seq[r]!;
  const n = sol.len[r]!;
  const start = inst.vStartLoc[r]!;
  const end = inst.vEndLoc[r]!;
  const stopLoc = inst.stopLoc;
  const a = placeIn(seq, n, stopLoc, start, end, i);
  const b = placeIn(seq, n, stopLoc, start, end, i + 1);
  const c = placeIn(seq, n, stopLoc, start, end, j - 1);
  const d = placeIn(seq, n, stopLoc, start, end, j);
  return reversalShortens(inst.dist, inst.nLoc, a, b, c, d);
}

/** Whether a → c and b → d are shorter than the a → b and c → d they replace (a reversal of the stretch from b to c). */
function reversalShortens(dist: Int32Array, N: number, a: number, b: number, c: number, d: number): boolean {
  return arcOf(dist, N, a, c) + arcOf(dist, N, b, d) - arcOf(dist, N, a, b) - arcOf(dist, N, c, d) < -IMPROVEMENT_EPS;
}

/** Location at position p of a route of n stops `seq` (MoveEvaluator.locBefore, locAt): its start at p = -1, its end (-1: open) at p = n. */
function placeIn(seq: Int32Array, n: number, stopLoc: Int32Array, start: number, end: number, p: number): number {
  if (p < 0) return start;
  return p === n ? end : stopLoc[seq[p]!]!;
}

/** Distance of the arc a → b on `dist` (N locations a row); 0 into the end of an open route (b = -1), as MoveEvaluator.arc. */
function arcOf(dist: Int32Array, N: number, a: number, b: number): number {
  return b < 0 ? 0 : dist[a * N + b]!;
}
