/** What every local-search operator offers to the generic loop. */
import type { Solution } from '../../solution.js';
import type { MoveEvaluator } from '../move.js';

export interface Operator {
  readonly name: string;
  /**
   * The verdict of the shared distance filter (PairArcs.verdicts: stringVerdict, SWAP_VERDICT,
   * CROSS_VERDICT) without which `find` returns 0 before pricing a move or changing anything, so
   * that the local search need not call it (LocalSearch.tryPair); NO_VERDICT, always on, where no
   * one verdict says so.
   */
  readonly filterVerdict: number;
  /**
   * Looks for an improving move that brings stop `u` next to its neighbour `x` (both served,
   * summaries of their routes prepared). On success leaves the move in `moves.plans` and
   * returns how many routes it changes; returns 0 when none improves.
   */
  find(sol: Solution, moves: MoveEvaluator, u: number, x: number): number;
}
