/**
 * Relocate and or-opt: a string of 1–3 consecutive stops starting at `u` moves next to `x`
 * (right after it or right before it), within its route or into another one. The string keeps
 * its direction; a reversed copy is tried for strings of 2 and more.
 */
import type { Solution } from '../../solution.js';
import type { MoveEvaluator, RoutePlan } from '../move.js';
import type { Operator } from './operator.js';
import { placeBit, PairArcs, stringVerdict } from './pair-arcs.js';

export class RelocateString implements Operator {
  readonly name: string;
  /** No place passes the filter for this length (or the string does not fit): find returns 0 before pricing. */
  readonly filterVerdict: number;

  /**
   * `arcs`: the distance filter's masks, shared by the three lengths of one local search
   * (operatorsOf) so that or-opt reads what relocate worked out on the same pair.
   */
  constructor(
    private readonly length: number,
    private readonly arcs = new PairArcs(),
  ) {
    this.name = length === 1 ? 'relocate' : `or-opt-${length}`;
    this.filterVerdict = stringVerdict(length);
  }

  find(sol: Solution, moves: MoveEvaluator, u: number, x: number): number {
    const L = this.length;
    const ru = sol.routeOf[u]!;
    const pu = sol.posOf[u]!;
    const nu = sol.len[ru]!;
    if (pu + L > nu) return 0;
    const rx = sol.routeOf[x]!;
    const px = sol.posOf[x]!;
    if (ru === rx && px >= pu && px < pu + L) return 0;
    // The distance filter first (what taking the string out saves against what putting it in costs): most pairs end there.
    const places = moves.distanceFilter ? this.arcs.passing(sol, moves, u, x, L) : everyPlace(L);
    if (places === 0) return 0;
    if (ru !== rx && !moves.loadFits(sol, rx, ru, pu, pu + L, -1)) return 0;
    const directions = L === 1 ? 1 : 2;
    const times = moves.times;
    for (let reversed = 0; reversed < directions; reversed++) {
      // After x: insert before position px + 1; before x: before position px.
      for (let side = 1; side >= 0; side--) {
        const q = px + side;
        if (ru === rx && q >= pu && q <= pu + L) continue;
        if ((places & placeBit(reversed, side)) === 0) continue;
        if (ru !== rx && times !== null && !times.mayInsert(sol, rx, q, ru, pu, pu + L, reversed === 1)) {
          moves.refuse();
          continue;
        }
        const count =
          ru === rx ? this.planWithin(moves, ru, pu, q, nu, reversed === 1) : this.planBetween(sol, moves, ru, pu, rx, q, reversed === 1);
        if (count === 0) continue;
        // Where the arcs and loads decide, the filter's pass is the verdict (MoveEvaluator.arcsDecide).
        if (moves.arcsDecide ? moves.passed() : moves.improves(sol, count)) return count;
      }
    }
    return 0;
  }

  /** The string [pu, pu+L) of route ru inserted before position q of route rx ≠ ru. */
  private planBetween(sol: Solution, moves: MoveEvaluator, ru: number, pu: number, rx: number, q: number, reversed: boolean): number {
    const L = this.length;
    moves.plans[0]
      .reset(ru)
      .range(ru, 0, pu)
      .range(ru, pu + L, sol.len[ru]!);
    const target = moves.plans[1].reset(rx).range(rx, 0, q);
    addString(target, ru, pu, pu + L, reversed);
    target.range(rx, q, sol.len[rx]!);
    return 2;
  }

  /** The string [pu, pu+L) moved before position q of its own route. */
  private planWithin(moves: MoveEvaluator, r: number, pu: number, q: number, n: number, reversed: boolean): number {
    const L = this.length;
    if (q >= pu && q <= pu + L) return 0;
    const plan = moves.plans[0].reset(r);
    if (q < pu) {
      plan.range(r, 0, q);
      addString(plan, r, pu, pu + L, reversed);
      plan.range(r, q, pu).range(r, pu + L, n);
    } else {
      plan.range(r, 0, pu).range(r, pu + L, q);
      addString(plan, r, pu, pu + L, reversed);
      plan.range(r, q, n);
    }
    return 1;
  }
}

function addString(plan: RoutePlan, route: number, from: number, to: number, reversed: boolean): void {
  if (reversed) plan.reversed(route, from, to);
  else plan.range(route, from, to);
}

/** Every place next to x, without the distance filter: both sides, and reversed too for strings of 2 and more. */
function everyPlace(length: number): number {
  const forwards = placeBit(0, 0) | placeBit(0, 1);
  return length === 1 ? forwards : forwards | placeBit(1, 0) | placeBit(1, 1);
}
