/**
 * Several threads on one plan, by decomposition. First every thread searches the whole problem
 * from its own first plan (independent searches, as searches.ts runs them) for a share of the
 * budget; the best plan wins. Then, epoch after epoch, that plan's routes are cut by angle into one
 * part per thread (solver/decompose.ts, the borders turned at random each epoch), each part is
 * searched apart on its own thread from its share of the plan (solver/improve.ts), and the parts'
 * routes merge back. The merged plan is kept only when it beats the best by the whole objective,
 * so the answer is never worse than the plan an epoch started from. The temperature cools over the
 * whole run, each search covering its slice of the schedule.
 *
 * Everything crossing threads is plain data: the sub-problem (travel matrices in shared memory)
 * and route sequences. Under an iteration limit each epoch is an iteration budget and each search
 * has a seed derived from the given one, so a seed and a limit reproduce the plan, on worker
 * threads or inline (one after the other on the calling thread).
 */
import type { Problem } from '../model/problem.js';
import { combineProgress, seedOf } from '../solver/best-of.js';
import { compareObjective, type ObjectiveValue } from '../solver/cost.js';
import { decomposable, mergeParts, routesInPart, splitByAngle, subProblem } from '../solver/decompose.js';
import { improvePlan, objectiveOfRoutes, type ImproveOptions, type ImproveOutcome } from '../solver/improve.js';
import { resultOfRoutes, timeLimitOf } from '../solver/index.js';
import {
  CONSTRUCTION_CAP_MS,
  CONSTRUCTION_SHARE,
  RESERVE_BASE_MS,
  RESERVE_PER_STOP_MS,
  RESERVE_SHARE,
  SPLIT_EPOCH_MS,
  SPLIT_EPOCHS_UNDER_ITERATIONS,
  SPLIT_MIN_STOPS,
  SPLIT_STALL_EPOCHS,
  SPLIT_WARMUP_SHARE,
} from '../solver/params.js';
import { Rng } from '../solver/rng.js';
import type { SolveOptions, SolveProgress, SolveResult } from '../solver/types.js';
import type { ImproveTask } from './protocol.js';
import { WorkerThread } from './thread.js';

/** Whether `threads` threads solve this problem by decomposition (`options.split`, else by its size). */
export function usesSplit(problem: Problem, options: Pick<SolveOptions, 'split'>, threads: number): boolean {
  if (threads < 2 || !decomposable(problem)) return false;
  return options.split ?? problem.stops.length >= SPLIT_MIN_STOPS;
}

type Plain = Omit<ImproveOptions, 'signal' | 'onProgress'>;

/** Runs one search of a plan on thread `index` (a worker, or the calling thread). */
export interface ImproveRunner {
  run(index: number, problem: Problem, initial: Int32Array[] | null, options: Plain, onProgress?: (p: SolveProgress) => void): Promise<ImproveOutcome>;
  /** Asks every running search for its best plan now. */
  abort(): void;
}

/** The searches one after the other on the calling thread (tests of the sources; no build). */
export function inlineRunner(signal?: AbortSignal): ImproveRunner {
  return {
    run: (_index, problem, initial, options, onProgress) => improvePlan(problem, initial, { ...options, signal, onProgress }),
    abort: () => {},
  };
}

/** One worker thread per index. */
export function workerRunner(workers: WorkerThread[]): ImproveRunner {
  return {
    run: (index, problem, initial, options, onProgress) => {
      const task: ImproveTask = { kind: 'improve', problem, initial, options };
      return workers[index]!.run<ImproveOutcome>(task, onProgress);
    },
    abort: () => {
      for (const worker of workers) worker.abort();
    },
  };
}

interface Best {
  routes: Int32Array[];
  objective: ObjectiveValue;
}

/**
 * Solves `problem` by decomposition on `threads` threads through `runner`. `problem` should hold its
 * matrices in shared memory when the runner uses workers (searches.ts's withSharedMatrices).
 */
export async function solveBySplitting(problem: Problem, options: SolveOptions, threads: number, runner: ImproveRunner): Promise<SolveResult> {
  const started = performance.now();
  const limit = timeLimitOf(options);
  const n = problem.stops.length;
  const reserve = Math.min(limit * RESERVE_SHARE, RESERVE_BASE_MS + RESERVE_PER_STOP_MS * n);
  const end = started + limit - reserve;
  const seed = options.seed ?? 0;
  const budget = options.maxIterations;
  const minimizeRoutes = problem.objective.minimizeRoutes;
  const stalls = options.stopWhenStalled ?? budget === undefined;
  const signal = options.signal;
  const onAbort = (): void => runner.abort();
  signal?.addEventListener('abort', onAbort, { once: true });

  try {
    // Independent searches of the whole problem, each from its own first plan.
    const constructionMs = Math.min(limit * CONSTRUCTION_SHARE, CONSTRUCTION_CAP_MS);
    const warmupMs = constructionMs + SPLIT_WARMUP_SHARE * Math.max(0, end - started - constructionMs);
    const warmupIterations = budget === undefined ? undefined : Math.round(budget * SPLIT_WARMUP_SHARE);
    const latest = new Array<SolveProgress | null>(threads).fill(null);
    const warmups = await Promise.all(
      Array.from({ length: threads }, (_, i) =>
        runner.run(
          i,
          problem,
          null,
          {
            timeLimitMs: Math.max(1, Math.min(warmupMs, end - performance.now())),
            seed: seedOf(seed, i),
            maxIterations: warmupIterations,
            constructionMs,
            coolWindow: { from: 0, to: SPLIT_WARMUP_SHARE },
            stopWhenStalled: stalls,
          },
          options.onProgress
            ? (p) => {
                latest[i] = p;
                options.onProgress!(combineProgress(latest));
              }
            : undefined,
        ),
      ),
    );
    let bestIndex = 0;
    warmups.forEach((w, i) => {
      if (compareObjective(w.objective, warmups[bestIndex]!.objective, minimizeRoutes) < 0) bestIndex = i;
    });
    const first = warmups[bestIndex]!;
    let best: Best = { routes: first.routes, objective: first.objective };
    let bestFoundMs = first.bestFoundMs;
    const arcCost = first.arcCost;
    let iterations = warmups.reduce((sum, w) => sum + w.iterations, 0);
    let perThread = Math.max(...warmups.map((w) => w.iterations));
    let stoppedBy: SolveResult['stats']['stoppedBy'] = warmups.every((w) => w.stoppedBy === 'no_improvement') ? 'no_improvement' : 'time';

    // Epochs: the parts searched apart, then merged.
    const rng = new Rng(seedOf(seed, threads) ^ 0x5bd1e995);
    const epochIterations =
      budget === undefined ? undefined : Math.max(1, Math.ceil((budget - (warmupIterations ?? 0)) / SPLIT_EPOCHS_UNDER_ITERATIONS));
    const searchStart = performance.now();
    let stale = 0;
    for (let epoch = 0; stoppedBy !== 'no_improvement'; epoch++) {
      if (signal?.aborted) {
        stoppedBy = 'aborted';
        break;
      }
      const now = performance.now();
      if (now >= end) {
        stoppedBy = 'time';
        break;
      }
      let epochMs = Math.min(SPLIT_EPOCH_MS, end - now);
      // A short last piece goes to the epoch before it.
      if (end - now - epochMs < SPLIT_EPOCH_MS / 2) epochMs = end - now;
      let maxIterations: number | undefined;
      let coolWindow: { from: number; to: number };
      if (budget !== undefined) {
        const left = budget - perThread;
        if (left <= 0) {
          stoppedBy = 'iterations';
          break;
        }
        maxIterations = Math.min(epochIterations!, left);
        coolWindow = { from: perThread / budget, to: (perThread + maxIterations) / budget };
      } else {
        const span = Math.max(1, end - searchStart);
        const at = SPLIT_WARMUP_SHARE + (1 - SPLIT_WARMUP_SHARE) * ((now - searchStart) / span);
        coolWindow = { from: at, to: SPLIT_WARMUP_SHARE + (1 - SPLIT_WARMUP_SHARE) * ((now + epochMs - searchStart) / span) };
      }
      const parts = splitByAngle(problem, best.routes, threads, rng.next());
      let outcomes: ImproveOutcome[];
      try {
        outcomes = await Promise.all(
          parts.map((part, i) =>
            runner.run(i, subProblem(problem, part), routesInPart(part, best.routes, n), {
              timeLimitMs: epochMs,
              seed: seedOf(seed, threads * (epoch + 1) + i),
              maxIterations,
              arcCost,
              coolWindow,
            }),
          ),
        );
      } catch (error) {
        // Searches stopped after an abort: the best plan so far is the answer.
        if (signal?.aborted !== true) throw error;
        stoppedBy = 'aborted';
        break;
      }
      const epochIterationsDone = outcomes.reduce((sum, o) => sum + o.iterations, 0);
      iterations += epochIterationsDone;
      perThread += Math.max(...outcomes.map((o) => o.iterations));
      const merged = mergeParts(problem.vehicles.length, parts, outcomes.map((o) => o.routes));
      const objective = objectiveOfRoutes(problem, merged);
      if (compareObjective(objective, best.objective, minimizeRoutes) < 0) {
        best = { routes: merged, objective };
        bestFoundMs = performance.now() - started;
        stale = 0;
      } else if (++stale >= SPLIT_STALL_EPOCHS && stalls) {
        stoppedBy = 'no_improvement';
      }
      options.onProgress?.(progressOf(best, iterations, performance.now() - started, n));
    }
    return resultOfRoutes(problem, best.routes, {
      elapsedMs: performance.now() - started,
      iterations,
      firstPlanMs: Math.min(...warmups.map((w) => w.firstPlanMs ?? Infinity)),
      bestFoundMs,
      seed,
      threads,
      stoppedBy,
    });
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
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
