/**
 * Relocate and or-opt: a string of 1–3 consecutive stops starting at `u` moves next to `x`
 * (right after it or right before it), within its route or into another one. The string keeps
 * its direction; a reversed copy is tried for strings of 2 and more.
 */
import type { Solution } from '../../solution.js';
import { IMPROVEMENT_EPS } from '../../params.js';
import type { MoveEvaluator, RoutePlan } from '../move.js';
import type { Operator } from './operator.js';

export class RelocateString implements Operator {
  readonly name: string;

  constructor(private readonly length: number) {
    this.name = length === 1 ? 'relocate' : `or-opt-${length}`;
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
    const inst = moves.inst;
    // Arc bookkeeping for the distance filter: what taking the string out saves.
    const filter = moves.distanceFilter;
    const seq = sol.seq[ru]!;
    const first = inst.stopLoc[seq[pu]!]!;
    const last = inst.stopLoc[seq[pu + L - 1]!]!;
    const before = filter ? moves.locBefore(sol, ru, pu) : 0;
    const after = filter ? moves.locAt(sol, ru, pu + L) : 0;
    const saved = filter ? moves.arc(before, first) + moves.arc(last, after) - moves.arc(before, after) : 0;
    if (ru !== rx && !moves.loadFits(sol, rx, ru, pu, pu + L, -1)) return 0;
    const directions = L === 1 ? 1 : 2;
    const times = moves.times;
    // The places around x, read once: after x the string goes between x and its successor, before x between its predecessor and x.
    const lx = filter ? inst.stopLoc[x]! : 0;
    const xPrev = filter ? moves.locBefore(sol, rx, px) : 0;
    const xNext = filter ? moves.locAt(sol, rx, px + 1) : 0;
    for (let reversed = 0; reversed < directions; reversed++) {
      if (filter && reversed === 1 && !moves.symmetric) break;
      const head = reversed === 1 ? last : first;
      const tail = reversed === 1 ? first : last;
      // After x: insert before position px + 1; before x: before position px.
      for (let side = 1; side >= 0; side--) {
        const q = px + side;
        if (ru === rx && q >= pu && q <= pu + L) continue;
        if (filter) {
          const tb = side === 1 ? lx : xPrev;
          const ta = side === 1 ? xNext : lx;
          if (moves.arc(tb, head) + moves.arc(tail, ta) - moves.arc(tb, ta) - saved >= -IMPROVEMENT_EPS) continue;
        }
        if (ru !== rx && times !== null && !times.mayInsert(sol, rx, q, ru, pu, pu + L, reversed === 1)) {
          moves.refuse();
          continue;
        }
        const count =
          ru === rx ? this.planWithin(moves, ru, pu, q, nu, reversed === 1) : this.planBetween(sol, moves, ru, pu, rx, q, reversed === 1);
        if (count === 0) continue;
        if (moves.improves(sol, count)) return count;
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
