/**
 * Searches one after another, each from its own first plan under a new seed (restartSeedOf), the
 * best plan of them all winning. The first search is the one a solve makes anyway, stopping at its
 * stall, so the plan is never worse than that search's for the seed. Two independent searches find
 * more than one cooled or reheated over the same time (params.ts, RESTART_MIN_STOPS and
 * FULL_TIME_RESTART_SHARE), so another follows where its time is affordable:
 * - once, by default, on problems of RESTART_MIN_STOPS to REHEAT_MAX_STOPS stops where windows bind:
 *   their search stops by itself within a second or two, so a second one keeps the answer within
 *   seconds; smaller problems answer in well under a second (decisions.md), and larger ones or
 *   those without binding windows search for seconds already. Whether it runs depends on the
 *   problem alone, never on the clock, so a seed still gives one plan when the second search stops
 *   by itself; a second search cut by the limit keeps its plan and says `time`;
 * - with `--full-time` (SolveOptions.fullTime), again and again while at least
 *   FULL_TIME_RESTART_SHARE of the time the last one took is left: the clock then decides.
 */
import type { Problem } from '../model/problem.js';
import { combineProgress, pickBest, type SearchOutcome } from './best-of.js';
import type { SolverInstance } from './instance.js';
import { windowsBind } from './ls/windows-bind.js';
import { FULL_TIME_RESTART_SHARE, REHEAT_MAX_STOPS, RESTART_AT_STALL_BY_DEFAULT, RESTART_MIN_STOPS } from './params.js';
import { absoluteNow, timeLeftOf, timeLimitOf } from './time-limit.js';
import type { SolveOptions, SolveProgress, SolveResult } from './types.js';

/** How the searches of one solve follow one another (the module comment says when each applies). */
export type Restarts = 'none' | 'once' | 'until_the_limit';

/** Search `index` of a solve (0 the first), under `options` with its own seed, deadline and progress sink. */
type OneSearch = (options: SolveOptions, index: number) => Promise<SearchOutcome>;

/**
 * How a solve of `inst` under `options` restarts its search at a stall: never under an iteration
 * limit or with the stall stop switched off (such a search does not stop by itself); until the
 * limit with `fullTime` under a time limit; else once where restartsOnceAtStall says so.
 */
export function restartsOf(inst: SolverInstance, options: SolveOptions): Restarts {
  if (options.maxIterations !== undefined || options.stopWhenStalled === false) return 'none';
  if (options.fullTime === true && timeLimitOf(options) < Infinity) return 'until_the_limit';
  return restartsOnceAtStall(inst, options.restartAtStall) ? 'once' : 'none';
}

/**
 * Whether a search of `inst` that stops by itself is followed by one more: with `lever`
 * (SolveOptions.restartAtStall, RESTART_AT_STALL_BY_DEFAULT when absent), on RESTART_MIN_STOPS to
 * REHEAT_MAX_STOPS stops where windows bind.
 */
export function restartsOnceAtStall(inst: SolverInstance, lever?: boolean): boolean {
  const sized = inst.nStops >= RESTART_MIN_STOPS && inst.nStops <= REHEAT_MAX_STOPS;
  return (lever ?? RESTART_AT_STALL_BY_DEFAULT) && sized && windowsBind(inst);
}

/**
 * The seed of restart `index` of a search seeded `seed`: the seed itself first, then seeds mixed
 * apart from best-of.ts's seedOf, so that the restarts of one thread never repeat another thread's search.
 */
export function restartSeedOf(seed: number, index: number): number {
  if (index === 0) return seed;
  return (Math.imul((seed | 0) ^ Math.imul(index, 0x27d4eb2f), 0x165667b1) ^ 0x5f356495) | 0;
}

/** Searches by `once` one after another within the limit of `options`, as `restarts` says (the module comment). */
export async function searchInTurn(
  problem: Problem,
  options: SolveOptions,
  restarts: Exclude<Restarts, 'none'>,
  once: OneSearch,
): Promise<SearchOutcome> {
  const startedAt = absoluteNow();
  const endsAt = startedAt + timeLeftOf(options);
  const seed = options.seed ?? 0;
  const report = new BestProgress(options.onProgress);
  const answers: SearchOutcome[] = [];
  let stoppedBy: SolveResult['stats']['stoppedBy'] = 'time';
  for (let index = 0; ; index++) {
    const searchStart = absoluteNow();
    const offsetMs = searchStart - startedAt;
    const answer = await once({ ...options, seed: restartSeedOf(seed, index), endsAt, onProgress: report.sink(offsetMs) }, index);
    answers.push(foundSinceStart(answer, offsetMs));
    stoppedBy = answer.result.stats.stoppedBy;
    if (stoppedBy !== 'no_improvement' || options.signal?.aborted === true) break;
    if (restarts === 'once') {
      if (index === 1) break;
    } else {
      // The clock decides whether another search starts: the plan is no longer the seed's alone.
      stoppedBy = 'time';
      const now = absoluteNow();
      if (endsAt - now < FULL_TIME_RESTART_SHARE * (now - searchStart)) break;
    }
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
