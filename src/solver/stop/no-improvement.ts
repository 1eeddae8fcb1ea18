import type { StopCriterion, StopReason } from './criterion.js';

/** Stops after a number of iterations in a row that did not improve the best plan. */
export class NoImprovement implements StopCriterion {
  constructor(private readonly maxNoImprove: number) {}

  check(_iterations: number, sinceImprovement: number): StopReason | null {
    return sinceImprovement >= this.maxNoImprove ? 'no_improvement' : null;
  }
}
