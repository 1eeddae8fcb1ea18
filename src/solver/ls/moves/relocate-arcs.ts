/**
 * The distance filter of relocate and or-opt (relocate.ts), worked out once per pair of a stop u
 * and its neighbour x for the strings of 1, 2 and 3 stops from u at once. The local search tries
 * relocate, then swap and the 2-opts, then or-opt of 2 and of 3 on the same pair, and the route
 * around u and the places around x are the same for all three lengths: taking a string out starts
 * at the same arc (the one into u), putting it in ends at the same arcs around x, and a string
 * read forwards starts with u. So the three lengths share most of their arc reads, and or-opt
 * finds its answer here, in the routes as relocate saw them (a pair's routes keep their stamps
 * until a move changes them: solution.ts).
 *
 * Each length gets a mask of the places whose change of arcs shortens the plan: bit
 * 2·reversed + side, side 1 after x and 0 before it (placeBit). The sums are of whole distances
 * (the matrix holds integers), so their order does not change them: the mask is exactly what
 * the arc test in each place answered before.
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

export class RelocateArcs {
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
   * The places next to x where the string of `length` stops from u shortens the plan, as a mask of
   * placeBit; only for the distance filter (MoveEvaluator.distanceFilter), with both routes'
   * summaries prepared. Strings that do not fit in u's route, or hold x, get 0.
   */
  passing(sol: Solution, moves: MoveEvaluator, u: number, x: number, length: number): number {
    if (length > LONGEST_STRING) throw new Error(`internal error: strings of ${length} stops are longer than the arc masks cover`);
    if (!this.holds(sol, u, x)) this.workOut(sol, moves, u, x);
    return this.masks[length]!;
  }

  /** Whether the masks were worked out for this pair in routes as they are now. */
  private holds(sol: Solution, u: number, x: number): boolean {
    if (u !== this.u || x !== this.x) return false;
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
    const pu = sol.posOf[u]!;
    const px = sol.posOf[x]!;
    const stopLoc = moves.inst.stopLoc;
    const first = stopLoc[u]!;
    const before = moves.locBefore(sol, ru, pu);
    const lx = stopLoc[x]!;
    const xPrev = moves.locBefore(sol, rx, px);
    const xNext = moves.locAt(sol, rx, px + 1);
    // Per side (1: between x and its successor, 0: between its predecessor and x), the arc a string replaces.
    const gap1 = moves.arc(lx, xNext);
    const gap0 = moves.arc(xPrev, lx);
    // u leading the string in (forwards) and u closing it (reversed).
    const lead1 = moves.arc(lx, first) - gap1;
    const lead0 = moves.arc(xPrev, first) - gap0;
    const close1 = moves.arc(first, xNext);
    const close0 = moves.arc(first, lx);
    const cut = moves.arc(before, first);
    const seq = sol.seq[ru]!;
    const n = sol.len[ru]!;
    for (let L = 1; L <= LONGEST_STRING; L++) {
      this.masks[L] = 0;
      if (pu + L > n || (ru === rx && px >= pu && px < pu + L)) continue;
      const last = stopLoc[seq[pu + L - 1]!]!;
      const after = moves.locAt(sol, ru, pu + L);
      const saved = cut + moves.arc(last, after) - moves.arc(before, after);
      let mask = 0;
      if (lead1 + moves.arc(last, xNext) - saved < -IMPROVEMENT_EPS) mask |= placeBit(0, 1);
      if (lead0 + moves.arc(last, lx) - saved < -IMPROVEMENT_EPS) mask |= placeBit(0, 0);
      if (L > 1 && moves.symmetric) {
        if (moves.arc(lx, last) - gap1 + close1 - saved < -IMPROVEMENT_EPS) mask |= placeBit(1, 1);
        if (moves.arc(xPrev, last) - gap0 + close0 - saved < -IMPROVEMENT_EPS) mask |= placeBit(1, 0);
      }
      this.masks[L] = mask;
    }
  }
}
