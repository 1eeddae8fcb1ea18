/**
 * The search's measure of the work it has done: what it reads instead of the clock for every
 * choice that must not depend on the machine's load (decisions.md, `--seed`: the same input, seed
 * and threads give the same plan when the search stops by itself): the stall stop
 * (../stop/plateau.ts), the cooling (accept.ts) and the budget of an exact polish (polish.ts).
 * Only the deadline reads the clock.
 *
 * It counts what the search spends its time on, so that a stall is as long on a problem whose
 * iterations are slow (long routes without windows, where one local search prices thousands of
 * moves) as on one whose iterations are quick: stops walked by the exact evaluator, insertion
 * positions priced by the segment summaries, and the local search's pairs tried and moves priced,
 * weighted by what each takes (params.ts); SWAP*'s arc prices count 1 each, like an insertion position. A unit takes some 0.2–0.5 µs (WORK_UNITS_PER_MS).
 */
import type { Inserter } from '../insertion.js';
import type { LocalSearch } from '../ls/local-search.js';
import { WORK_PER_PAIR, WORK_PER_PRICED_MOVE } from '../params.js';
import type { RouteEvaluator } from '../route/evaluator.js';

export class WorkMeter {
  private readonly start: number;

  constructor(
    private readonly evaluator: RouteEvaluator,
    private readonly inserter: Inserter,
    private readonly localSearch: LocalSearch | null,
    /** Another part's work counted too (the penalised polish: penalised-polish.ts); null: none. */
    private readonly extra: { work(): number } | null = null,
  ) {
    this.start = this.total();
  }

  /** Work done since this meter was made. */
  done(): number {
    return this.total() - this.start;
  }

  private total(): number {
    const local = this.localSearch ? localSearchWork(this.localSearch) : 0;
    return this.evaluator.walked + this.inserter.positions + local + (this.extra?.work() ?? 0);
  }
}

/** A local search's work so far: its moves priced, its pairs tried and SWAP*'s arc prices. */
export function localSearchWork(ls: LocalSearch): number {
  return WORK_PER_PRICED_MOVE * ls.moves.priced + WORK_PER_PAIR * ls.pairsTried + (ls.swapStar?.priced ?? 0);
}
