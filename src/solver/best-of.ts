/**
 * Several independent searches of one problem, the pure part: the seed of each search and the
 * choice of the winner. The best plan by the lexicographic objective wins; ties go to the lowest
 * search index, so a run stopped by an iteration limit is reproducible for a seed and a count.
 * src/threads/searches.ts runs the searches, on worker threads or one after another; restart-at-stall.ts
 * restarts one search.
 */
import { compareObjective, type ObjectiveValue } from './cost.js';
import type { SolveProgress, SolveResult } from './types.js';

/** A search's result and the objective of its plan. */
export interface SearchOutcome {
  result: SolveResult;
  objective: ObjectiveValue;
}

/** The seed of search `index`: the given seed for search 0, well-spread derived seeds for the others. */
export function seedOf(seed: number, index: number): number {
  if (index === 0) return seed;
  return (Math.imul((seed | 0) + index, 0x9e3779b1) ^ (index * 0x85ebca6b)) | 0;
}

/** Lowest objective; the first of equals (lowest search index) wins. */
export function pickBest(outcomes: SearchOutcome[], minimizeRoutes: boolean): SearchOutcome {
  let best = outcomes[0]!;
  for (const outcome of outcomes.slice(1)) if (compareObjective(outcome.objective, best.objective, minimizeRoutes) < 0) best = outcome;
  return best;
}

/**
 * The winner's plan, with the iterations of every search, the elapsed time of the whole run, the
 * earliest first plan of any search, the number of searches, the seed given (search 0's) and why
 * the run stopped (stoppedByOf).
 */
export function bestResult(outcomes: SearchOutcome[], minimizeRoutes: boolean, elapsedMs: number): SolveResult {
  const best = pickBest(outcomes, minimizeRoutes);
  const iterations = outcomes.reduce((sum, o) => sum + o.result.stats.iterations, 0);
  const firstPlanMs = Math.min(...outcomes.map((o) => o.result.stats.firstPlanMs));
  const seed = outcomes[0]!.result.stats.seed;
  const stoppedBy = stoppedByOf(outcomes, best);
  return { ...best.result, stats: { ...best.result.stats, iterations, elapsedMs, firstPlanMs, seed, threads: outcomes.length, stoppedBy } };
}

/**
 * The winner's reason, unless another search was cut by the time limit or an abort: then that
 * one's, since the pick may have gone otherwise had it run on. So `no_improvement` says that every
 * search stopped by itself, and the same seed gives the same plan (decisions.md, `--seed`).
 */
function stoppedByOf(outcomes: SearchOutcome[], best: SearchOutcome): SolveResult['stats']['stoppedBy'] {
  const cut = outcomes.find((o) => o.result.stats.stoppedBy === 'time' || o.result.stats.stoppedBy === 'aborted');
  return cut ? cut.result.stats.stoppedBy : best.result.stats.stoppedBy;
}

/** Best of the searches' latest reports (most served, then lowest cost), iterations summed. */
export function combineProgress(latest: Array<SolveProgress | null>): SolveProgress {
  let best: SolveProgress | null = null;
  let iterations = 0;
  for (const p of latest) {
    if (!p) continue;
    iterations += p.iterations;
    if (!best || p.served > best.served || (p.served === best.served && p.cost < best.cost)) best = p;
  }
  return { ...best!, iterations };
}
