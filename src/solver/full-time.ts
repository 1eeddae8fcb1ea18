/**
 * `--full-time` (SolveOptions.fullTime): the whole time limit searched. The first search is the
 * default one, stopping at its stall; while at least half the time it took is left, another search
 * starts from its own first plan under a new seed (restartSeedOf), and the best plan of them all
 * wins. Two independent searches find more than one that goes on cooling over the same time
 * (params.ts, FULL_TIME_RESTART_SHARE). Since the first search is the one a run without the flag
 * makes, the plan is never worse than that run's for the same seed.
 */
import type { Problem } from '../model/problem.js';
import { combineProgress, pickBest, type SearchOutcome } from './best-of.js';
import { FULL_TIME_RESTART_SHARE } from './params.js';
import { absoluteNow, timeLeftOf, timeLimitOf } from './time-limit.js';
import type { SolveOptions, SolveProgress, SolveResult } from './types.js';

type OneSearch = (problem: Problem, options: SolveOptions) => Promise<SearchOutcome>;

/** Whether a solve with these options restarts its search at a stall: `fullTime` under a time limit, with neither an iteration limit nor the stall stop switched off. */
export function restartsAtStall(options: SolveOptions): boolean {
  const limited = timeLimitOf(options) < Infinity;
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
export async function searchTheWholeLimit(problem: Problem, options: SolveOptions, once: OneSearch): Promise<SearchOutcome> {
  const startedAt = absoluteNow();
  const endsAt = startedAt + timeLeftOf(options);
  const seed = options.seed ?? 0;
  const report = new BestProgress(options.onProgress);
  const answers: SearchOutcome[] = [];
  let stoppedBy: SolveResult['stats']['stoppedBy'] = 'time';
  for (let index = 0; ; index++) {
    const searchStart = absoluteNow();
    const offsetMs = searchStart - startedAt;
    const answer = await once(problem, { ...options, seed: restartSeedOf(seed, index), endsAt, onProgress: report.sink(offsetMs) });
    answers.push(foundSinceStart(answer, offsetMs));
    stoppedBy = answer.result.stats.stoppedBy;
    const now = absoluteNow();
    if (stoppedBy !== 'no_improvement' || options.signal?.aborted === true) break;
    // The clock decides whether another search starts: the plan is no longer the seed's alone.
    stoppedBy = 'time';
    if (endsAt - now < FULL_TIME_RESTART_SHARE * (now - searchStart)) break;
  }
  const best = pickBest(answers, problem.objective.minimizeRoutes);
  const stats = {
    ...best.result.stats,
    iterations: answers.reduce((sum, answer) => sum + answer.result.stats.iterations, 0),
    firstPlanMs: answers[0]!.result.stats.firstPlanMs,
    seed,
    stoppedBy,
    elapsedMs: absoluteNow() - startedAt,
  };
  return { result: { ...best.result, stats }, objective: best.objective };
}

/** The answer of a search begun `offsetMs` after the first, its best plan's time counted from the first's start. */
function foundSinceStart(answer: SearchOutcome, offsetMs: number): SearchOutcome {
  const stats = { ...answer.result.stats, bestFoundMs: answer.result.stats.bestFoundMs + offsetMs };
  return { ...answer, result: { ...answer.result, stats } };
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
      const timed = { ...progress, elapsedMs: offsetMs + progress.elapsedMs };
      this.latest = this.done ? { ...combineProgress([this.done, timed]), elapsedMs: timed.elapsedMs } : timed;
      forward(this.latest);
    };
  }
}
