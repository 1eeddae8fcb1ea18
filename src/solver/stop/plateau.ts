import type { StopCriterion, StopReason } from './criterion.js';

/**
 * Stops once the search has stalled: at least `minIterations` iterations in a row without a
 * better plan, over at least `minWork` units of work (search/work.ts) and at least `workShare` of
 * the work it took to find the best one. Scale-free: a 3-stop problem stops within milliseconds,
 * a large one keeps going while it still improves. Work, never time: a busy machine neither cuts
 * a stall short nor draws it out, so a seed gives one plan (decisions.md, `--seed`).
 */
export class Plateau implements StopCriterion {
  /** The work done when the best plan was last improved. */
  private improvedAt = 0;

  constructor(
    private readonly minIterations: number,
    private readonly minWork: number,
    private readonly workShare: number,
  ) {}

  check(_iterations: number, sinceImprovement: number, _now: number, work: number): StopReason | null {
    if (sinceImprovement === 0) this.improvedAt = work;
    const stalled =
      sinceImprovement >= this.minIterations && work - this.improvedAt >= Math.max(this.minWork, this.workShare * this.improvedAt);
    return stalled ? 'no_improvement' : null;
  }
}
