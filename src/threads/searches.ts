/**
 * `threads` independent searches of one problem from one place, each on its own worker thread
 * (seeds and the winner: solver/best-of.ts), or one plan improved by decomposition on them
 * (solver/decompose/search.ts, through the ImproveRunner port implemented here). Aborting asks every search for its best plan so far;
 * searches that cannot answer within a grace period (still building their first plan) are
 * stopped, and the solve rejects with an `interrupted` error (exit 130).
 *
 * Without a compiled worker (TypeScript sources, no build), or with `inline`, the searches run
 * one after the other on the calling thread, sharing the time limit.
 */
import { ExitCode, RouteplanError } from '../errors.js';
import type { Problem } from '../model/problem.js';
import { bestResult, combineProgress, seedOf, type SearchOutcome } from '../solver/best-of.js';
import type { ImproveOutcome } from '../solver/improve.js';
import { solveOnce } from '../solver/index.js';
import { timeLeftOf } from '../solver/time-limit.js';
import { inlineRunner, type ImproveRunner } from '../solver/decompose/runner.js';
import { solveBySplitting, usesSplit } from '../solver/decompose/search.js';
import type { SolveOptions, SolveProgress, SolveResult } from '../solver/types.js';
import type { ImproveTask, PlainSolveOptions, SearchTask } from './protocol.js';
import { WorkerThread } from './thread.js';
import { workerUrl } from './worker-url.js';

/** How long aborted searches may take to hand back their best plans before they are stopped. */
const ABORT_GRACE_MS = 2000;

class InterruptedError extends RouteplanError {
  constructor() {
    super('interrupted', 'interrupted before the solver had a plan to show', ExitCode.interrupted);
    this.name = 'InterruptedError';
  }
}

export interface ThreadOptions {
  /** Run the searches on the calling thread, one after the other (tests of the sources, the bench). */
  inline?: boolean;
  /**
   * With one search, move the travel matrices (the bulk of a large problem, hundreds of MB at the
   * 5,000-stop limit) to its worker rather than copy them: afterwards `problem.travel` is empty on
   * the calling thread, while everything a plan needs stays usable.
   */
  moveMatrices?: boolean;
  /**
   * Workers already started (the CLI starts one while a large problem loads): the searches run
   * on them first; they are stopped like the others when the solve ends, or at once when unused.
   */
  started?: WorkerThread[];
}

export async function solveInThreads(problem: Problem, options: SolveOptions, how: ThreadOptions = {}): Promise<SolveResult> {
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  const url = how.inline === true ? null : workerUrl();
  const early = how.started ?? [];
  if (url === null || usesSplit(problem, options, threads)) for (const worker of early.splice(0)) void worker.terminate();
  if (usesSplit(problem, options, threads)) return split(url, problem, options, threads);
  const started = performance.now();
  const outcomes =
    url === null
      ? await searchOneAfterAnother(problem, options, threads)
      : await searchOnWorkers(url, problem, options, threads, how.moveMatrices === true, early);
  if (threads === 1) return outcomes[0]!.result;
  return bestResult(outcomes, problem.objective.minimizeRoutes, performance.now() - started);
}

async function searchOnWorkers(
  url: URL,
  problem: Problem,
  options: SolveOptions,
  threads: number,
  moveMatrices: boolean,
  started: WorkerThread[],
): Promise<SearchOutcome[]> {
  // The clock (tests) stays here too: a function does not cross to a worker, which reads its own.
  const { signal, onProgress, clock: _callersClock, ...plain } = options;
  for (const unused of started.splice(threads)) void unused.terminate();
  const workers = Array.from({ length: threads }, (_, i) => started[i] ?? new WorkerThread(url));
  const searches =
    threads === 1 ? [runAlone(workers[0]!, problem, plain, onProgress, moveMatrices)] : runTogether(workers, problem, plain, onProgress);
  const stopAll = (failure?: Error): Promise<void[]> => Promise.all(workers.map((worker) => worker.terminate(failure)));
  let grace: NodeJS.Timeout | undefined;
  const onAbort = (): void => {
    for (const worker of workers) worker.abort();
    grace = setTimeout(() => void stopAll(new InterruptedError()), ABORT_GRACE_MS);
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await Promise.all(searches);
  } finally {
    // Done, failed (one search failing fails the solve) or interrupted: no search keeps running.
    clearTimeout(grace);
    signal?.removeEventListener('abort', onAbort);
    void stopAll();
  }
}

/** One plan improved by decomposition (solver/decompose/search.ts): on worker threads, or inline without them. */
async function split(url: URL | null, problem: Problem, options: SolveOptions, threads: number): Promise<SolveResult> {
  if (url === null) return solveBySplitting(problem, options, threads, inlineRunner(options.signal));
  const workers = Array.from({ length: threads }, () => new WorkerThread(url));
  const stopAll = (failure?: Error): Promise<void[]> => Promise.all(workers.map((worker) => worker.terminate(failure)));
  let grace: NodeJS.Timeout | undefined;
  // Searches that cannot answer an abort within the grace period (still building a first plan) are stopped.
  const onAbort = (): void => void (grace = setTimeout(() => void stopAll(new InterruptedError()), ABORT_GRACE_MS));
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await solveBySplitting(withSharedMatrices(problem), options, threads, workerRunner(workers));
  } finally {
    clearTimeout(grace);
    options.signal?.removeEventListener('abort', onAbort);
    void stopAll();
  }
}

/** The decomposition's ImproveRunner port on worker threads: one worker per index. */
function workerRunner(workers: WorkerThread[]): ImproveRunner {
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

/** One search, its matrices moved to its worker or copied. */
function runAlone(
  worker: WorkerThread,
  problem: Problem,
  options: PlainSolveOptions,
  onProgress: SolveOptions['onProgress'],
  moveMatrices: boolean,
): Promise<SearchOutcome> {
  const task: SearchTask = { kind: 'search', problem, options };
  return worker.run<SearchOutcome>(task, onProgress, moveMatrices ? travelBuffers(problem) : []);
}

/** Several searches: the matrices in shared memory, progress combined. */
function runTogether(
  workers: WorkerThread[],
  problem: Problem,
  options: PlainSolveOptions,
  onProgress: SolveOptions['onProgress'],
): Array<Promise<SearchOutcome>> {
  const shared = withSharedMatrices(problem);
  const latest = new Array<SolveProgress | null>(workers.length).fill(null);
  return workers.map((worker, i) => {
    const task: SearchTask = { kind: 'search', problem: shared, options: { ...options, seed: seedOf(options.seed ?? 0, i) } };
    const forward = (progress: SolveProgress): void => {
      latest[i] = progress;
      onProgress?.(combineProgress(latest));
    };
    return worker.run<SearchOutcome>(task, onProgress ? forward : undefined);
  });
}

/** Each distinct, transferable buffer behind the travel matrices (views may share one). */
function travelBuffers(problem: Problem): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const matrix of [problem.travel.distance, ...problem.travel.durations]) {
    if (matrix.buffer instanceof ArrayBuffer) buffers.add(matrix.buffer);
  }
  return [...buffers];
}

/**
 * The problem with its travel matrices copied once into shared memory, so that every worker
 * reads the same bytes instead of receiving its own copy.
 */
function withSharedMatrices(problem: Problem): Problem {
  const share = (matrix: Int32Array): Int32Array => {
    const copy = new Int32Array(new SharedArrayBuffer(matrix.byteLength));
    copy.set(matrix);
    return copy;
  };
  const distance = share(problem.travel.distance);
  const durations = problem.travel.durations.map((m) => (m === problem.travel.distance ? distance : share(m)));
  return { ...problem, travel: { ...problem.travel, distance, durations } };
}

/**
 * `threads` searches one after the other on the calling thread, sharing the time limit (no worker
 * threads: the sources under test, or the caller asked for it); search 0 reports progress.
 */
async function searchOneAfterAnother(problem: Problem, options: SolveOptions, threads: number): Promise<SearchOutcome[]> {
  if (threads === 1) return [await solveOnce(problem, options)];
  const started = performance.now();
  const limit = timeLeftOf(options);
  const outcomes: SearchOutcome[] = [];
  for (let i = 0; i < threads; i++) {
    const left = limit === Infinity ? Infinity : Math.max(1, (started + limit - performance.now()) / (threads - i));
    outcomes.push(
      await solveOnce(problem, {
        ...options,
        seed: seedOf(options.seed ?? 0, i),
        timeLimitMs: left,
        onProgress: i === 0 ? options.onProgress : undefined,
      }),
    );
  }
  return outcomes;
}
