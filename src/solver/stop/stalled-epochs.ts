import type { StopCriterion, StopReason } from './criterion.js';

/**
 * Stops a decomposition (decompose/search.ts) once this many epochs in a row merged into no
 * better plan. It is asked once per epoch, after the merge, with epochs where a search's criteria
 * get iterations: an epoch is the decomposition's iteration.
 */
export class StalledEpochs implements StopCriterion {
  constructor(private readonly epochs: number) {}

  check(_epochs: number, staleEpochs: number): StopReason | null {
    return staleEpochs >= this.epochs ? 'no_improvement' : null;
  }
}
