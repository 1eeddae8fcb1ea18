/** Improvement phase (placeholder until the ruin-and-recreate search lands). */
import type { Inserter } from './insertion.js';
import type { RouteEvaluator } from './route-eval.js';
import type { Solution } from './solution.js';
import type { SolveProgress, SolveResult } from './types.js';

export interface SearchLimits {
  started: number;
  deadline: number;
  seed: number;
  maxIterations?: number | undefined;
  maxNoImprove?: number | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: SolveProgress) => void) | undefined;
}

export interface SearchOutcome {
  best: Solution;
  iterations: number;
  stoppedBy: SolveResult['stats']['stoppedBy'];
}

export async function search(
  sol: Solution,
  _inserter: Inserter,
  _evaluator: RouteEvaluator,
  _limits: SearchLimits,
): Promise<SearchOutcome> {
  return { best: sol, iterations: 0, stoppedBy: 'complete' };
}
