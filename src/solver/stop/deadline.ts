import type { StopCriterion, StopReason } from './criterion.js';

/** Stops at a performance.now() value (Infinity: never). */
export class Deadline implements StopCriterion {
  constructor(private readonly deadline: number) {}

  check(_iterations: number, _sinceImprovement: number, now: number): StopReason | null {
    return now >= this.deadline ? 'time' : null;
  }
}
