import type { StopCriterion, StopReason } from './criterion.js';

/** Stops once the caller aborts: the best plan so far is still returned. */
export class Aborted implements StopCriterion {
  constructor(private readonly signal: AbortSignal) {}

  check(): StopReason | null {
    return this.signal.aborted ? 'aborted' : null;
  }
}
