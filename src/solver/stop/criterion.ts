/**
 * Stopping criteria of the search, as small composable objects (after PyVRP's pyvrp/stop/).
 * Each is asked once per iteration and answers why the search should stop, or null.
 */
import type { SolveResult } from '../types.js';

/** Why a search stopped early ('complete' is the search's own: nothing left to try). */
export type StopReason = Exclude<SolveResult['stats']['stoppedBy'], 'complete'>;

export interface StopCriterion {
  /**
   * `iterations` done so far, `sinceImprovement` of them in a row without a better best plan,
   * `now` the clock's value at this check (only the deadline may read it: a stop that reads the
   * clock gives another plan on a busy machine), `work` the work done so far (search/work.ts).
   */
  check(iterations: number, sinceImprovement: number, now: number, work: number): StopReason | null;
}

/** Stops as soon as any of `criteria` does, with the reason of the first one that does. */
export class AnyOf implements StopCriterion {
  constructor(private readonly criteria: readonly StopCriterion[]) {}

  check(iterations: number, sinceImprovement: number, now: number, work: number): StopReason | null {
    for (const criterion of this.criteria) {
      const reason = criterion.check(iterations, sinceImprovement, now, work);
      if (reason !== null) return reason;
    }
    return null;
  }
}
