/** Swap: stops `u` and `x` trade places (in one route or between two). */
import type { Solution } from '../../solution.js';
import type { MoveEvaluator } from '../move.js';
import type { Operator } from './operator.js';
import { PairArcs, SWAP_VERDICT } from './pair-arcs.js';

export class Swap implements Operator {
  readonly name = 'swap';
  /** Swap does not shorten the plan: find returns 0 on the filter, or (next-door stops of one route) leaves them to relocate. */
  readonly filterVerdict = SWAP_VERDICT;

  /** `arcs`: the distance filter shared with relocate (operatorsOf), which has read the arcs around u and x. */
  constructor(private readonly arcs = new PairArcs()) {}

  find(sol: Solution, moves: MoveEvaluator, u: number, x: number): number {
    const ru = sol.routeOf[u]!;
    const rx = sol.routeOf[x]!;
    const pu = sol.posOf[u]!;
    const px = sol.posOf[x]!;
    if (moves.distanceFilter && (ru !== rx || Math.abs(pu - px) > 1) && !this.arcs.swapShortens(sol, moves, u, x)) return 0;
    // After the arcs, which refuse most pairs at less cost than the loads.
    if (ru !== rx && !(moves.loadFits(sol, ru, rx, px, px + 1, u) && moves.loadFits(sol, rx, ru, pu, pu + 1, x))) return 0;
    if (ru !== rx && !mayTrade(sol, moves, u, x)) return moves.refuse();
    let count: number;
    if (ru !== rx) {
      moves.plans[0]
        .reset(ru)
        .range(ru, 0, pu)
        .stop(x)
        .range(ru, pu + 1, sol.len[ru]!);
      moves.plans[1]
        .reset(rx)
        .range(rx, 0, px)
        .stop(u)
        .range(rx, px + 1, sol.len[rx]!);
      count = 2;
    } else {
      // Adjacent stops swapped are a relocate, which that operator covers.
      if (Math.abs(pu - px) <= 1) return 0;
      const a = Math.min(pu, px);
      const b = Math.max(pu, px);
      const seq = sol.seq[ru]!;
      moves.plans[0]
        .reset(ru)
        .range(ru, 0, a)
        .stop(seq[b]!)
        .range(ru, a + 1, b)
        .stop(seq[a]!)
        .range(ru, b + 1, sol.len[ru]!);
      count = 1;
    }
    // The filter passed (an adjacent pair of one route returned above) and the loads fit: where the arcs and loads decide, that is the verdict.
    return (moves.arcsDecide ? moves.passed() : moves.improves(sol, count)) ? count : 0;
  }
}

/** Whether u and x of two routes may both be on time in each other's place (MoveEvaluator.times; true without them). */
function mayTrade(sol: Solution, moves: MoveEvaluator, u: number, x: number): boolean {
  const times = moves.times;
  if (times === null) return true;
  const ru = sol.routeOf[u]!;
  const rx = sol.routeOf[x]!;
  const pu = sol.posOf[u]!;
  const px = sol.posOf[x]!;
  return times.mayJoin(sol, ru, pu, x, ru, pu + 1) && times.mayJoin(sol, rx, px, u, rx, px + 1);
}
