/**
 * 2-opt moves that make `u` and `x` consecutive.
 * Within one route: the stretch between them is reversed.
 * Between two routes (2-opt*): the routes exchange their tails, so that u is followed by x
 * (u's head + x's tail) or x by u (x's head + u's tail).
 */
import type { Solution } from '../../solution.js';
import type { MoveEvaluator } from '../move.js';
import type { Operator } from './operator.js';
import { CROSS_VERDICT, NO_VERDICT, PairArcs, twoOptShortens } from './pair-arcs.js';

export class TwoOpt implements Operator {
  readonly name = '2-opt';
  /** Its own filter (twoOptShortens) is not one of the shared verdicts. */
  readonly filterVerdict = NO_VERDICT;

  find(sol: Solution, moves: MoveEvaluator, u: number, x: number): number {
    const r = sol.routeOf[u]!;
    if (sol.routeOf[x] !== r) return 0;
    const pu = sol.posOf[u]!;
    const px = sol.posOf[x]!;
    const a = Math.min(pu, px);
    const b = Math.max(pu, px);
    if (b - a < 2) return 0;
    const n = sol.len[r]!;
    // A route that breaks windows at a penalty may gain by a longer reversal (MoveEvaluator.warpRoom).
    const filter = moves.distanceFilter && moves.symmetric && moves.warpRoom(sol, r, r) === 0;
    // Where the arcs decide (MoveEvaluator.arcsDecide), a reversal that shortens the route improves.
    const decided = filter && moves.arcsDecide;
    // seq[a] followed by seq[b]: reverse (a, b].
    if (!filter || twoOptShortens(sol, moves, r, a, b + 1)) {
      moves.plans[0]
        .reset(r)
        .range(r, 0, a + 1)
        .reversed(r, a + 1, b + 1)
        .range(r, b + 1, n);
      if (decided ? moves.passed() : moves.improves(sol, 1)) return 1;
    }
    // seq[b - 1] followed by seq[b]... reversed so that seq[a] is followed by seq[b]: reverse [a, b).
    if (!filter || twoOptShortens(sol, moves, r, a - 1, b)) {
      moves.plans[0].reset(r).range(r, 0, a).reversed(r, a, b).range(r, b, n);
      if (decided ? moves.passed() : moves.improves(sol, 1)) return 1;
    }
    return 0;
  }
}

export class TwoOptStar implements Operator {
  readonly name = '2-opt*';
  /** Neither way of exchanging the tails shortens the plan: find returns 0 on the filter (or at once, in one route). */
  readonly filterVerdict = CROSS_VERDICT;

  /** `arcs`: the distance filter shared with relocate (operatorsOf), which has read the arcs around u and x. */
  constructor(private readonly arcs = new PairArcs()) {}

  find(sol: Solution, moves: MoveEvaluator, u: number, x: number): number {
    const ru = sol.routeOf[u]!;
    const rx = sol.routeOf[x]!;
    if (ru === rx) return 0;
    const pu = sol.posOf[u]!;
    const px = sol.posOf[x]!;
    const nu = sol.len[ru]!;
    const nx = sol.len[rx]!;
    const filter = moves.distanceFilter;
    // u then x.
    if (filter && !this.arcs.crossShortens(sol, moves, u, x, true)) return this.xThenU(sol, moves, u, x, true);
    if (!mayCross(sol, moves, ru, pu + 1, rx, px)) {
      moves.refuse();
      return this.xThenU(sol, moves, u, x, filter);
    }
    moves.plans[0]
      .reset(ru)
      .range(ru, 0, pu + 1)
      .range(rx, px, nx);
    moves.plans[1]
      .reset(rx)
      .range(rx, 0, px)
      .range(ru, pu + 1, nu);
    if (this.improves(sol, moves, u, x, true)) return 2;
    return this.xThenU(sol, moves, u, x, filter);
  }

  private xThenU(sol: Solution, moves: MoveEvaluator, u: number, x: number, filter: boolean): number {
    if (filter && !this.arcs.crossShortens(sol, moves, u, x, false)) return 0;
    const ru = sol.routeOf[u]!;
    const rx = sol.routeOf[x]!;
    const pu = sol.posOf[u]!;
    const px = sol.posOf[x]!;
    const nu = sol.len[ru]!;
    const nx = sol.len[rx]!;
    if (!mayCross(sol, moves, ru, pu, rx, px + 1)) return moves.refuse();
    moves.plans[0]
      .reset(ru)
      .range(ru, 0, pu)
      .range(rx, px + 1, nx);
    moves.plans[1]
      .reset(rx)
      .range(rx, 0, px + 1)
      .range(ru, pu, nu);
    return this.improves(sol, moves, u, x, false) ? 2 : 0;
  }

  /**
   * Whether the planned exchange of tails (u then x's place with `uFirst`, else x then u's place)
   * improves: where the arcs and loads decide (MoveEvaluator.arcsDecide), by its change of arcs and
   * of the loads' penalty (the filter on its own lets through, where capacity is penalised, every
   * move within the two routes' whole penalty, as HGS-CVRP prunes); elsewhere priced.
   */
  private improves(sol: Solution, moves: MoveEvaluator, u: number, x: number, uFirst: boolean): boolean {
    if (!moves.arcsDecide) return moves.improves(sol, 2);
    const ru = sol.routeOf[u]!;
    const rx = sol.routeOf[x]!;
    const pu = sol.posOf[u]!;
    const px = sol.posOf[x]!;
    const loads = uFirst ? moves.crossLoadChange(sol, ru, pu + 1, rx, px) : moves.crossLoadChange(sol, ru, pu, rx, px + 1);
    return moves.decide(this.arcs.crossChange(sol, moves, u, x, uFirst) + loads);
  }
}

/**
 * Whether routes ru and rx may both be on time once they exchange their tails from positions cu
 * and cx on (ru's head before cu with rx's tail from cx, and the other way round). True without
 * the time bounds or where tails that change vehicle may end elsewhere (RouteTimeBounds.sameEnds).
 */
function mayCross(sol: Solution, moves: MoveEvaluator, ru: number, cu: number, rx: number, cx: number): boolean {
  const times = moves.times;
  if (times === null || !times.sameEnds) return true;
  return times.mayJoin(sol, ru, cu, -1, rx, cx) && times.mayJoin(sol, rx, cx, -1, ru, cu);
}
