/**
 * SWAP* (Vidal 2022): stops `u` and `x` of two routes trade routes, but each goes to its
 * cheapest position in the other route rather than into the other's place. Positions are
 * ranked by the change of arcs, so the operator runs only when the cost is the distance
 * (`MoveEvaluator.distanceFilter`); the best-ranked pairs of positions are then priced and
 * checked in full (windows, shift, capacity) like every other move.
 */
import type { Solution } from '../../solution.js';
import { IMPROVEMENT_EPS, type MoveEvaluator, type RoutePlan } from '../move.js';
import type { Operator } from './operator.js';

/** Cheapest positions kept per stop and route. */
const TOP = 3;

export class SwapStar implements Operator {
  readonly name = 'swap*';
  private readonly uPos = new Int32Array(TOP + 1);
  private readonly uCost = new Float64Array(TOP + 1);
  private readonly xPos = new Int32Array(TOP + 1);
  private readonly xCost = new Float64Array(TOP + 1);

  find(sol: Solution, moves: MoveEvaluator, u: number, x: number): number {
    if (!moves.distanceFilter) return 0;
    const ru = sol.routeOf[u]!;
    const rx = sol.routeOf[x]!;
    if (ru === rx) return 0;
    const pu = sol.posOf[u]!;
    const px = sol.posOf[x]!;
    if (!(moves.loadFits(sol, ru, rx, px, px + 1, u) && moves.loadFits(sol, rx, ru, pu, pu + 1, x))) return 0;
    const removal = removalGain(sol, moves, ru, pu) + removalGain(sol, moves, rx, px);
    const nu = cheapestPositions(sol, moves, u, rx, px, this.uPos, this.uCost);
    const nx = cheapestPositions(sol, moves, x, ru, pu, this.xPos, this.xCost);
    // Candidate pairs in order of their arc change; the first one that passes the full check wins.
    for (let i = 0; i < nu; i++) {
      for (let j = 0; j < nx; j++) {
        if (this.uCost[i]! + this.xCost[j]! - removal >= -IMPROVEMENT_EPS) continue;
        planInsteadOf(moves.plans[0], sol, ru, pu, x, this.xPos[j]!);
        planInsteadOf(moves.plans[1], sol, rx, px, u, this.uPos[i]!);
        if (moves.improves(sol, 2)) return 2;
      }
    }
    return 0;
  }
}

/** What taking the stop at position p out of route r saves in arcs. */
function removalGain(sol: Solution, moves: MoveEvaluator, r: number, p: number): number {
  const loc = moves.inst.stopLoc[sol.seq[r]![p]!]!;
  const before = moves.locBefore(sol, r, p);
  const after = moves.locAt(sol, r, p + 1);
  return moves.arc(before, loc) + moves.arc(loc, after) - moves.arc(before, after);
}

/**
 * The TOP cheapest slots for stop s in route r once the stop at position `gone` has left it.
 * A slot is "before position q" of the current route (q = gone + 1 is the same slot as q = gone).
 * Returns how many were found, sorted by arc cost.
 */
function cheapestPositions(sol: Solution, moves: MoveEvaluator, s: number, r: number, gone: number, pos: Int32Array, cost: Float64Array): number {
  const loc = moves.inst.stopLoc[s]!;
  const n = sol.len[r]!;
  let count = 0;
  for (let q = 0; q <= n; q++) {
    if (q === gone + 1) continue;
    const before = moves.locBefore(sol, r, q === gone ? gone : q);
    const after = moves.locAt(sol, r, q === gone ? gone + 1 : q);
    const c = moves.arc(before, loc) + moves.arc(loc, after) - moves.arc(before, after);
    if (count === TOP && c >= cost[TOP - 1]!) continue;
    let i = count < TOP ? count++ : TOP - 1;
    while (i > 0 && cost[i - 1]! > c) {
      cost[i] = cost[i - 1]!;
      pos[i] = pos[i - 1]!;
      i--;
    }
    cost[i] = c;
    pos[i] = q;
  }
  return count;
}

/** Route r without its stop at position `gone`, with stop s in the slot before position q. */
function planInsteadOf(plan: RoutePlan, sol: Solution, r: number, gone: number, s: number, q: number): void {
  const n = sol.len[r]!;
  plan.reset(r);
  if (q <= gone) plan.range(r, 0, q).stop(s).range(r, q, gone).range(r, gone + 1, n);
  else plan.range(r, 0, gone).range(r, gone + 1, q).stop(s).range(r, q, n);
}
