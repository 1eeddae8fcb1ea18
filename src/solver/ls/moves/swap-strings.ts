/**
 * String swap (HGS-CVRP's SWAP(2,1) and SWAP(2,2)): the string of `lengthU` consecutive stops
 * starting at `u` and the string of `lengthX` starting at its neighbour `x`, in another route,
 * trade places; each keeps its direction. The plain swap (swap.ts) is the one-for-one case, and
 * with the roles of u and x turned (x examined as u) SWAP(2,1) also covers SWAP(1,2).
 */
import type { Solution } from '../../solution.js';
import { IMPROVEMENT_EPS } from '../../params.js';
import type { MoveEvaluator } from '../move.js';
import type { Operator } from './operator.js';
import { NO_VERDICT } from './pair-arcs.js';

export class SwapStrings implements Operator {
  readonly name: string;
  /** Its filter is its own. */
  readonly filterVerdict = NO_VERDICT;

  constructor(
    private readonly lengthU: number,
    private readonly lengthX: number,
  ) {
    this.name = `swap-${lengthU}-${lengthX}`;
  }

  find(sol: Solution, moves: MoveEvaluator, u: number, x: number): number {
    const ru = sol.routeOf[u]!;
    const rx = sol.routeOf[x]!;
    if (ru === rx) return 0;
    const pu = sol.posOf[u]!;
    const px = sol.posOf[x]!;
    const endU = pu + this.lengthU;
    const endX = px + this.lengthX;
    const nu = sol.len[ru]!;
    const nx = sol.len[rx]!;
    if (endU > nu || endX > nx) return 0;
    if (moves.distanceFilter && !this.shortens(sol, moves, ru, pu, endU, rx, px, endX)) return 0;
    moves.plans[0].reset(ru).range(ru, 0, pu).range(rx, px, endX).range(ru, endU, nu);
    moves.plans[1].reset(rx).range(rx, 0, px).range(ru, pu, endU).range(rx, endX, nx);
    return moves.improves(sol, 2) ? 2 : 0;
  }

  /** Whether trading [pu, endU) of ru and [px, endX) of rx shortens the plan's arcs (the strings' own arcs stay). */
  private shortens(
    sol: Solution,
    moves: MoveEvaluator,
    ru: number,
    pu: number,
    endU: number,
    rx: number,
    px: number,
    endX: number,
  ): boolean {
    const bu = moves.locBefore(sol, ru, pu);
    const fu = moves.locAt(sol, ru, pu);
    const eu = moves.locBefore(sol, ru, endU);
    const au = moves.locAt(sol, ru, endU);
    const bx = moves.locBefore(sol, rx, px);
    const fx = moves.locAt(sol, rx, px);
    const ex = moves.locBefore(sol, rx, endX);
    const ax = moves.locAt(sol, rx, endX);
    const removed = moves.arc(bu, fu) + moves.arc(eu, au) + moves.arc(bx, fx) + moves.arc(ex, ax);
    const added = moves.arc(bu, fx) + moves.arc(ex, au) + moves.arc(bx, fu) + moves.arc(eu, ax);
    return added - removed < moves.warpRoom(sol, ru, rx) - IMPROVEMENT_EPS;
  }
}
