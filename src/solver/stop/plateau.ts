import type { StopCriterion, StopReason } from './criterion.js';

/**
 * Stops once the search has stalled: at least `minIterations` iterations in a row without a
 * better plan, and for at least `timeShare` of the time it took to find the best one. Scale-free: a
 * 3-stop problem stops within milliseconds, a large one keeps going while it still improves.
 */
export class Plateau implements StopCriterion {
  private improvedAt: number;

  constructor(
    private readonly minIterations: number,
    private readonly started: number,
    private readonly timeShare = 1,
  ) {
    this.improvedAt = started;
  }

  check(_iterations: number, sinceImprovement: number, now: number): StopReason | null {
    if (sinceImprovement === 0) this.improvedAt = now;
    const stalled = sinceImprovement >= this.minIterations && now - this.improvedAt >= this.timeShare * (this.improvedAt - this.started);
    return stalled ? 'no_improvement' : null;
  }
}
