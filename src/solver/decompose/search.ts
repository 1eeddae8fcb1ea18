/**
 * Several threads on one plan, by decomposition. First every thread searches the whole problem
 * from its own first plan (independent searches, as ../best-of.ts picks among them) for a share of the
 * budget; the best plan wins. Then, epoch after epoch, that plan's routes are cut by angle into one
 * part per thread (parts.ts, the borders turned at random each epoch), each part is
 * searched apart on its own thread from its share of the plan (../improve.ts), and the parts'
 * routes merge back. The merged plan is kept only when it beats the best by the whole objective,
 * so the answer is never worse than the plan an epoch started from. The temperature cools over the
 * whole run, each search covering its slice of the schedule. The run stops at the time or
 * iteration limit, on an abort, or once epochs stall (../stop/stalled-epochs.ts).
 *
 * The searches run through the ImproveRunner port (runner.ts): src/threads/ implements it with
 * worker threads, so this meta-search stays pure (no I/O, no Node built-ins).
 *
 * Everything crossing threads is plain data: the sub-problem (travel matrices in shared memory)
 * and route sequences. Under an iteration limit each epoch is an iteration budget and each search
 * has a seed derived from the given one, so a seed and a limit reproduce the plan, on worker
 * threads or inline (one after the other on the calling thread).
 */
import type { Problem } from '../../model/problem.js';
import { combineProgress, seedOf } from '../best-of.js';
import { compareObjective, type ObjectiveValue } from '../cost.js';
import { objectiveOfRoutes, type ImproveOutcome } from '../improve.js';
import { reserveOf, resultOfRoutes } from '../index.js';
import { timeLeftOf, timeLimitOf } from '../time-limit.js';
import {
  CONSTRUCTION_CAP_MS,
  CONSTRUCTION_SHARE,
  FLEET_IN_SPLIT_WARMUP,
  PARTS_POLISH_AS_WHOLE,
  SPLIT_EPOCH_MS,
  SPLIT_EPOCHS_PER_LIMIT,
  SPLIT_EPOCHS_UNDER_ITERATIONS,
  SPLIT_MIN_STOPS,
  SPLIT_PARTS_PER_THREAD,
  SPLIT_STALL_EPOCHS,
  SPLIT_WARMUP_SHARE,
} from '../params.js';
import { leversOf } from '../levers.js';
import { Rng } from '../rng.js';
import { StalledEpochs, type StopCriterion } from '../stop/index.js';
import type { SolveOptions, SolveProgress, SolveResult } from '../types.js';
import { decomposable, mergeParts, routesInPart, splitByAngle, subProblem } from './parts.js';
import type { ImproveRunner } from './runner.js';

/** Whether `threads` threads solve this problem by decomposition (`options.split`, else by its size). */
export function usesSplit(problem: Problem, options: Pick<SolveOptions, 'split'>, threads: number): boolean {
  // Fewer vehicles than threads leave a part without any: nothing to share.
  if (threads < 2 || !decomposable(problem) || problem.vehicles.length < threads) return false;
  return options.split ?? problem.stops.length >= SPLIT_MIN_STOPS;
}

/**
 * How long an epoch's parts are searched under a time limit of `limitMs` (Infinity: none) and no
 * iteration limit: SPLIT_EPOCH_MS, or a SPLIT_EPOCHS_PER_LIMIT-th of the limit when longer.
 */
export function epochMsOf(limitMs: number): number {
  return Number.isFinite(limitMs) ? Math.max(SPLIT_EPOCH_MS, limitMs / SPLIT_EPOCHS_PER_LIMIT) : SPLIT_EPOCH_MS;
}

interface Best {
  routes: Int32Array[];
  objective: ObjectiveValue;
}

type StopReason = SolveResult['stats']['stoppedBy'];

/**
 * Solves `problem` by decomposition on `threads` threads through `runner`. `problem` should hold its
 * matrices in shared memory when the runner uses workers (src/threads/searches.ts shares them).
 */
export async function solveBySplitting(
  problem: Problem,
  options: SolveOptions,
  threads: number,
  runner: ImproveRunner,
): Promise<SolveResult> {
  const onAbort = (): void => runner.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await new Decomposition(problem, options, threads, runner).solve();
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

class Decomposition {
  private readonly started = performance.now();
  /** When the searches must be done (the result is built after). */
  private readonly end: number;
  /** Until when the unserved stops' hints are looked for: the limit bounds the command. */
  private readonly hintsBy: number;
  private readonly limit: number;
  private readonly seed: number;
  private readonly budget: number | undefined;
  private readonly stalls: boolean;
  /** Whether the epochs have stalled; null when a stall does not stop the run. */
  private readonly stalled: StopCriterion | null;
  private best: Best = { routes: [], objective: { priority: 0, violations: 0, routes: 0, moved: 0, cost: 0 } };
  private bestFoundMs = 0;
  private firstPlanMs = 0;
  private arcCost = 1;
  /** Iterations of all searches, and along one thread (what an iteration limit bounds). */
  private iterations = 0;
  private perThread = 0;
  /** When the epochs began. */
  private searchStart = 0;
  /** Set when no part had anything to search in an epoch: the plan is as good as these searches make it. */
  private idle = false;

  constructor(
    private readonly problem: Problem,
    private readonly options: SolveOptions,
    private readonly threads: number,
    private readonly runner: ImproveRunner,
  ) {
    this.limit = timeLimitOf(options);
    const left = timeLeftOf(options);
    const reserve = reserveOf(left, problem.stops.length);
    this.end = this.started + left - reserve;
    this.hintsBy = this.started + left;
    this.seed = options.seed ?? 0;
    this.budget = options.maxIterations;
    this.stalls = options.fullTime !== true && (options.stopWhenStalled ?? this.budget === undefined);
    this.stalled = this.stalls ? new StalledEpochs(SPLIT_STALL_EPOCHS) : null;
  }

  async solve(): Promise<SolveResult> {
    let stoppedBy = await this.warmUp();
    if (stoppedBy !== 'no_improvement') stoppedBy = await this.epochs();
    const hintsBy = this.hintsBy;
    return resultOfRoutes(
      this.problem,
      this.best.routes,
      {
        elapsedMs: performance.now() - this.started,
        iterations: this.iterations,
        firstPlanMs: this.firstPlanMs,
        bestFoundMs: this.bestFoundMs,
        seed: this.seed,
        threads: this.threads,
        stoppedBy,
      },
      () => performance.now() < hintsBy,
    );
  }

  /** Independent searches of the whole problem, each from its own first plan; the best is the start. */
  private async warmUp(): Promise<StopReason> {
    const { options, threads, budget } = this;
    const constructionMs = Math.min(this.limit * CONSTRUCTION_SHARE, CONSTRUCTION_CAP_MS);
    const warmupMs = constructionMs + SPLIT_WARMUP_SHARE * Math.max(0, this.end - this.started - constructionMs);
    const latest = new Array<SolveProgress | null>(threads).fill(null);
    const forward = (i: number) => (progress: SolveProgress) => {
      latest[i] = progress;
      options.onProgress!(combineProgress(latest));
    };
    const warmups = await Promise.all(
      Array.from({ length: threads }, (_, i) =>
        this.runner.run(
          i,
          this.problem,
          null,
          {
            timeLimitMs: Math.max(1, Math.min(warmupMs, this.end - performance.now())),
            seed: seedOf(this.seed, i),
            maxIterations: budget === undefined ? undefined : Math.round(budget * SPLIT_WARMUP_SHARE),
            constructionMs,
            coolWindow: { from: 0, to: SPLIT_WARMUP_SHARE },
            stopWhenStalled: this.stalls,
            ...leversOf(options),
            fleetMinimisation: options.fleetMinimisation ?? FLEET_IN_SPLIT_WARMUP,
          },
          options.onProgress ? forward(i) : undefined,
        ),
      ),
    );
    // The lowest objective; ties go to the lowest thread, so that a seed reproduces.
    let first = warmups[0]!;
    for (const w of warmups) if (compareObjective(w.objective, first.objective, this.problem.objective.minimizeRoutes) < 0) first = w;
    this.best = { routes: first.routes, objective: first.objective };
    this.bestFoundMs = first.bestFoundMs;
    this.firstPlanMs = Math.min(...warmups.map((w) => w.firstPlanMs ?? Infinity));
    this.arcCost = first.arcCost;
    this.iterations = warmups.reduce((sum, w) => sum + w.iterations, 0);
    this.perThread = Math.max(...warmups.map((w) => w.iterations));
    return warmups.every((w) => w.stoppedBy === 'no_improvement') ? 'no_improvement' : 'time';
  }

  /** Epoch after epoch: the parts searched apart, then merged. */
  private async epochs(): Promise<StopReason> {
    const rng = new Rng(seedOf(this.seed, this.threads) ^ 0x5bd1e995);
    this.searchStart = performance.now();
    let stale = 0;
    for (let epoch = 0; ; epoch++) {
      if (this.options.signal?.aborted === true) return 'aborted';
      if (this.idle) return 'complete';
      const budget = this.epochBudget();
      if (typeof budget === 'string') return budget;
      const improved = await this.epoch(epoch, rng.next(), budget);
      if (improved === null) return 'aborted';
      stale = improved ? 0 : stale + 1;
      const stalled = this.stalled?.check(epoch + 1, stale, performance.now(), 0) ?? null;
      if (stalled !== null) return stalled;
    }
  }

  /** The next epoch's time, iterations and slice of the cooling; or why there is none. */
  private epochBudget(): { ms: number; iterations: number | undefined; cool: { from: number; to: number } } | StopReason {
    const { end, budget } = this;
    const now = performance.now();
    if (now >= end) return 'time';
    // Under an iteration limit the epochs are its shares; their time stays SPLIT_EPOCH_MS.
    const epochMs = budget === undefined ? epochMsOf(this.limit) : SPLIT_EPOCH_MS;
    let ms = Math.min(epochMs, end - now);
    // A short last piece goes to the epoch before it.
    if (end - now - ms < epochMs / 2) ms = end - now;
    if (budget !== undefined) {
      const left = budget - this.perThread;
      if (left <= 0) return 'iterations';
      const perEpoch = Math.max(1, Math.ceil((budget - Math.round(budget * SPLIT_WARMUP_SHARE)) / SPLIT_EPOCHS_UNDER_ITERATIONS));
      const iterations = Math.min(perEpoch, left);
      return { ms, iterations, cool: { from: this.perThread / budget, to: (this.perThread + iterations) / budget } };
    }
    const span = Math.max(1, end - this.searchStart);
    const at = (t: number): number => SPLIT_WARMUP_SHARE + (1 - SPLIT_WARMUP_SHARE) * Math.min(1, (t - this.searchStart) / span);
    return { ms, iterations: undefined, cool: { from: at(now), to: at(now + ms) } };
  }

  /** One epoch: whether it improved the best plan; null when an abort stopped it. */
  private async epoch(
    epoch: number,
    rotation: number,
    budget: { ms: number; iterations: number | undefined; cool: { from: number; to: number } },
  ): Promise<boolean | null> {
    const { problem, best } = this;
    const perThread = SPLIT_PARTS_PER_THREAD;
    const count = this.threads * perThread;
    const parts = splitByAngle(problem, best.routes, count, rotation);
    const epochEnd = performance.now() + budget.ms;
    const outcomes: ImproveOutcome[] = new Array<ImproveOutcome>(count);
    // Thread t searches parts t, t + threads, … one after the other, sharing the epoch.
    const runThread = async (t: number): Promise<void> => {
      for (let j = 0, i = t; i < count; j++, i += this.threads) {
        const part = parts[i]!;
        outcomes[i] = await this.runner.run(t, subProblem(problem, part), routesInPart(part, best.routes, problem.stops.length), {
          timeLimitMs: Math.max(1, (epochEnd - performance.now()) / (perThread - j)),
          seed: seedOf(this.seed, count * (epoch + 1) + i),
          maxIterations: budget.iterations === undefined ? undefined : Math.max(1, Math.round(budget.iterations / perThread)),
          arcCost: this.arcCost,
          coolWindow: budget.cool,
          ...leversOf(this.options),
          lsRuleStops: partsPolishRuleStops(problem),
        });
      }
    };
    try {
      await Promise.all(Array.from({ length: this.threads }, (_, t) => runThread(t)));
    } catch (error) {
      // Searches stopped after an abort: the best plan so far is the answer.
      if (this.options.signal?.aborted !== true) throw error;
      return null;
    }
    this.iterations += outcomes.reduce((sum, o) => sum + o.iterations, 0);
    // The epoch's share of an iteration limit is spent even by a part with nothing to search.
    this.perThread += budget.iterations ?? Math.max(...outcomes.map((o) => o.iterations));
    if (outcomes.every((o) => o.iterations === 0)) this.idle = true;
    const merged = mergeParts(
      problem.vehicles.length,
      parts,
      outcomes.map((o) => o.routes),
    );
    const objective = objectiveOfRoutes(problem, merged);
    // Kept only when better by the whole objective: never worse than the epoch's start.
    const improved = compareObjective(objective, best.objective, problem.objective.minimizeRoutes) < 0;
    if (improved) {
      this.best = { routes: merged, objective };
      this.bestFoundMs = performance.now() - this.started;
    }
    this.options.onProgress?.(progressOf(this.best, this.iterations, performance.now() - this.started, problem.stops.length));
    return improved;
  }
}

/**
 * The stop count a part's local search reads its neighbour rules from (lsNeighboursOf): the whole
 * problem's where PARTS_POLISH_AS_WHOLE says so, so that the parts of Gehring–Homberger 1000 (some
 * 500 stops each) polish as the whole does (10 neighbours, the changed routes' stops only) rather
 * than as a 500-stop problem (15, and 30 for each epoch's first polish); the part's own when absent.
 */
export function partsPolishRuleStops(problem: Problem): number | undefined {
  return PARTS_POLISH_AS_WHOLE ? problem.stops.length : undefined;
}

function progressOf(best: Best, iterations: number, elapsedMs: number, nStops: number): SolveProgress {
  let served = 0;
  let routesUsed = 0;
  for (const route of best.routes) {
    served += route.length;
    if (route.length > 0) routesUsed++;
  }
  return { elapsedMs, iterations, served, unserved: nStops - served, routesUsed, cost: best.objective.cost };
}
