/**
 * The distance filter of the move of a stop alone into an unused vehicle (local-search.ts,
 * moveIntoEmptyRoute), where the moves' distance filter applies (MoveEvaluator.distanceFilter: the
 * cost is the distance and every route leaves from and returns to one depot). The move is worth
 * pricing only when u's detour in its route is longer than the trip out to u and back: on
 * Gehring–Homberger 1000 and CVRP X-n1001 the move was tried millions of times for a handful of
 * finds (gh4, cvrp4: 4–5 % of a run). Other costs of a route (a vehicle's fixed cost) are never
 * negative, so a move this refuses is one the pricing refuses too.
 */
import { IMPROVEMENT_EPS } from '../../params.js';
import type { Solution } from '../../solution.js';
import type { MoveEvaluator } from '../move.js';

/** Whether taking u out of its route and driving it alone from the depot and back shortens the plan; only under the distance filter. */
export function emptyRouteShortens(sol: Solution, moves: MoveEvaluator, u: number): boolean {
  const inst = moves.inst;
  const ru = sol.routeOf[u]!;
  const pu = sol.posOf[u]!;
  const at = inst.stopLoc[u]!;
  const before = moves.locBefore(sol, ru, pu);
  const after = moves.locAt(sol, ru, pu + 1);
  const alone = moves.arc(inst.vStartLoc[ru]!, at) + moves.arc(at, inst.vEndLoc[ru]!);
  // Where capacity or windows are penalised, taking u out may relieve its route of up to its whole overload's or time warp's penalty.
  const room = moves.overloadPenaltyOf(sol, ru) + moves.warpRoom(sol, ru, ru);
  return alone + moves.arc(before, after) - moves.arc(before, at) - moves.arc(at, after) < room - IMPROVEMENT_EPS;
}
