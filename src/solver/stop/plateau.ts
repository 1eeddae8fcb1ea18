import type { StopCriterion, StopReason } from './criterion.js';

/**
 * Stops once the search has stalled: at least `minIterations` iterations in a row without a
 * better plan, over at least `minWork` units of work (search/work.ts) and at least `workShare` of
 * the work it took to find the best one. Scale-free: a 3-stop problem stops within milliseconds,
 * a large one keeps going while it still improves. Work, never time: a busy machine neither cuts
 * a stall short nor draws it out, so a seed gives one plan (decisions.md, `--seed`).
 */
export class Plateau implements StopCriterion {
  /** The work done when the best plan was last improved (or the count restarted, as at a reheat). */
  private improvedAt = 0;
  /** `sinceImprovement` at the last check. */
  private lastSince = 0;

  /** `mayStop`: whether a stall may stop the search now (not once the clock has led it; search/accept.ts). */
  constructor(
    private readonly minIterations: number,
    private readonly minWork: number,
    private readonly workShare: number,
    private readonly mayStop: () => boolean = () => true,
  ) {}

  check(_iterations: number, sinceImprovement: number, _now: number, work: number): StopReason | null {
    // A count that went down was restarted since the last check (a better plan, or a reheat that
    // was not asked about at 0): the stall counts its work from here, never from a stretch before.
    if (sinceImprovement === 0 || sinceImprovement < this.lastSince) this.improvedAt = work;
    this.lastSince = sinceImprovement;
    const stalled =
      sinceImprovement >= this.minIterations && work - this.improvedAt >= Math.max(this.minWork, this.workShare * this.improvedAt);
    return stalled && this.mayStop() ? 'no_improvement' : null;
  }
}
