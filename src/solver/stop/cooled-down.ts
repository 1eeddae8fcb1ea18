import type { StopCriterion, StopReason } from './criterion.js';

/**
 * Stops once the search's cooling is done and the end temperature has been held long enough
 * (`done`, counted in work: search/search.ts, Cooling.tailDone), improving or not, while the search
 * may stop by itself (`mayStop`). Work, never time, as for the stall (plateau.ts).
 */
export class CooledDown implements StopCriterion {
  constructor(
    private readonly done: (work: number) => boolean,
    private readonly mayStop: () => boolean = () => true,
  ) {}

  check(_iterations: number, _sinceImprovement: number, _now: number, work: number): StopReason | null {
    return this.done(work) && this.mayStop() ? 'no_improvement' : null;
  }
}
