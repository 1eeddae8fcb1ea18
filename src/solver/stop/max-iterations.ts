import type { StopCriterion, StopReason } from './criterion.js';

/** Stops after a number of iterations: a stop that does not depend on the clock, so a seed reproduces. */
export class MaxIterations implements StopCriterion {
  constructor(private readonly maxIterations: number) {}

  check(iterations: number): StopReason | null {
    return iterations >= this.maxIterations ? 'iterations' : null;
  }
}
