/**
 * `--full-time` (SolveOptions.fullTime): the whole time limit searched. The first search is the
 * default one, stopping at its stall; while at least half the time it took is left, another search
 * starts from its own first plan under a new seed (restartSeedOf), and the best plan of them all
 * wins. Two independent searches find more than one that goes on cooling over the same time
 * (params.ts, FULL_TIME_RESTART_SHARE). Since the first search is the one a run without the flag
 * makes, the plan is never worse than that run's for the same seed.
 */
import type { Problem } from '../model/problem.js';
import { compareObjective, type ObjectiveValue } from './cost.js';
import { FULL_TIME_RESTART_SHARE } from './params.js';
import type { SolveOptions, SolveProgress, SolveResult } from './types.js';

export interface SearchAnswer {
  result: SolveResult;
  objective: ObjectiveValue;
}

type OneSearch = (problem: Problem, options: SolveOptions) => Promise<SearchAnswer>;

/** Whether a solve with these options restarts its search at a stall: `fullTime` under a time limit, with neither an iteration limit nor the stall stop switched off. */
export function restartsAtStall(options: SolveOptions): boolean {
  const limited = Number.isFinite(options.timeLimitMs) && options.timeLimitMs > 0;
  return options.fullTime === true && limited && options.maxIterations === undefined && options.stopWhenStalled !== false;
}

/**
 * The seed of restart `index` of a search seeded `seed`: the seed itself first, then seeds mixed
 * apart from best-of.ts's seedOf, so that the restarts of one thread never repeat another thread's search.
 */
export function restartSeedOf(seed: number, index: number): number {
  if (index === 0) return seed;
  return (Math.imul((seed | 0) ^ Math.imul(index, 0x27d4eb2f), 0x165667b1) ^ 0x5f356495) | 0;
}

/** Searches by `once` one after another within the limit of `options`, as the module comment says. */
export async function searchTheWholeLimit(problem: Problem, options: SolveOptions, once: OneSearch): Promise<SearchAnswer> {
  const startedAt = performance.timeOrigin + performance.now();
  const endsAt = Math.min(options.endsAt ?? Infinity, startedAt + options.timeLimitMs);
  const seed = options.seed ?? 0;
  const report = new BestProgress(options.onProgress);
  let best: SearchAnswer | null = null;
  let iterations = 0;
  let firstPlanMs = 0;
  let stoppedBy: SolveResult['stats']['stoppedBy'] = 'time';
  for (let index = 0; ; index++) {
    const searchStart = performance.timeOrigin + performance.now();
    const answer = await once(problem, {
      ...options,
      seed: restartSeedOf(seed, index),
      endsAt,
      onProgress: report.sink(searchStart - startedAt),
    });
    iterations += answer.result.stats.iterations;
    if (index === 0) firstPlanMs = answer.result.stats.firstPlanMs;
    const bestFoundMs = answer.result.stats.bestFoundMs + (searchStart - startedAt);
    if (best === null || compareObjective(answer.objective, best.objective, problem.objective.minimizeRoutes) < 0)
      best = { ...answer, result: { ...answer.result, stats: { ...answer.result.stats, bestFoundMs } } };
    stoppedBy = answer.result.stats.stoppedBy;
    const now = performance.timeOrigin + performance.now();
    if (stoppedBy !== 'no_improvement' || options.signal?.aborted === true) break;
    // The clock decides whether another search starts: the plan is no longer the seed's alone.
    stoppedBy = 'time';
    if (endsAt - now < FULL_TIME_RESTART_SHARE * (now - searchStart)) break;
  }
  const stats = {
    ...best.result.stats,
    iterations,
    firstPlanMs,
    seed,
    stoppedBy,
    elapsedMs: performance.timeOrigin + performance.now() - startedAt,
  };
  return { result: { ...best.result, stats }, objective: best.objective };
}

/** The progress of the restarts as one search's: the best plan so far, the iterations of them all, the time since the first began. */
class BestProgress {
  private done: SolveProgress | null = null;
  private latest: SolveProgress | null = null;

  constructor(private readonly onProgress: ((progress: SolveProgress) => void) | undefined) {}

  /** The sink of the next search, begun `offsetMs` after the first; the last report of the one before counts as done. */
  sink(offsetMs: number): ((progress: SolveProgress) => void) | undefined {
    if (this.latest) this.done = this.latest;
    this.latest = null;
    const forward = this.onProgress;
    if (!forward) return undefined;
    return (progress) => {
      this.latest = this.combined({ ...progress, elapsedMs: offsetMs + progress.elapsedMs });
      forward(this.latest);
    };
  }

  private combined(progress: SolveProgress): SolveProgress {
    const done = this.done;
    if (!done) return progress;
    const better = progress.served > done.served || (progress.served === done.served && progress.cost < done.cost);
    return { ...(better ? progress : done), iterations: done.iterations + progress.iterations, elapsedMs: progress.elapsedMs };
  }
}
