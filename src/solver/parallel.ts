/**
 * Several independent searches at once: search 0 runs on the calling thread with the given
 * seed, searches 1..threads-1 on worker threads with seeds derived from it. The best plan by
 * the lexicographic objective wins; ties go to the lowest search index, so a run stopped by an
 * iteration limit is reproducible for a seed and a thread count.
 *
 * The travel matrices are handed to the workers once, in shared memory. When the compiled
 * worker script is missing (tests run the TypeScript sources), the searches run one after
 * the other on the calling thread, sharing the time limit.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Problem } from '../model/problem.js';
import { solveOnce } from './index.js';
import { compareObjective, type ObjectiveValue } from './cost.js';
import type { SolveOptions, SolveProgress, SolveResult } from './types.js';

export interface WorkerRequest {
  problem: Problem;
  options: Omit<SolveOptions, 'signal' | 'onProgress'>;
  /** Absolute deadline (performance.timeOrigin + performance.now() scale), ms. */
  deadline: number;
}

export type WorkerMessage =
  | { type: 'progress'; progress: SolveProgress }
  | { type: 'result'; result: SolveResult; objective: ObjectiveValue }
  | { type: 'error'; message: string; stack?: string };

interface Outcome {
  result: SolveResult;
  objective: ObjectiveValue;
}

/** The seed of search `index`: the given seed for search 0, well-spread derived seeds for the others. */
export function seedOf(seed: number, index: number): number {
  if (index === 0) return seed;
  return (Math.imul((seed | 0) + index, 0x9e3779b1) ^ (index * 0x85ebca6b)) | 0;
}

export function absoluteNow(): number {
  return performance.timeOrigin + performance.now();
}

export async function solveParallel(problem: Problem, options: SolveOptions, threads: number): Promise<SolveResult> {
  const started = performance.now();
  const limit = Number.isFinite(options.timeLimitMs) && options.timeLimitMs > 0 ? options.timeLimitMs : Infinity;
  const url = workerUrl();
  const outcomes =
    url === null ? await runSequentially(problem, options, threads, limit) : await runOnWorkers(url, problem, options, threads, limit);
  const best = pickBest(outcomes, problem.objective.minimizeRoutes);
  const iterations = outcomes.reduce((sum, o) => sum + o.result.stats.iterations, 0);
  return { ...best.result, stats: { ...best.result.stats, iterations, elapsedMs: performance.now() - started } };
}

/** Lowest objective; the first of equals (lowest search index) wins. */
export function pickBest(outcomes: Outcome[], minimizeRoutes: boolean): Outcome {
  let best = outcomes[0]!;
  for (const outcome of outcomes.slice(1)) if (compareObjective(outcome.objective, best.objective, minimizeRoutes) < 0) best = outcome;
  return best;
}

function workerUrl(): URL | null {
  const url = new URL('./search-worker.js', import.meta.url);
  if (!import.meta.url.endsWith('.js') || !existsSync(fileURLToPath(url))) return null;
  return url;
}

async function runSequentially(problem: Problem, options: SolveOptions, threads: number, limit: number): Promise<Outcome[]> {
  const started = performance.now();
  const outcomes: Outcome[] = [];
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

async function runOnWorkers(url: URL, problem: Problem, options: SolveOptions, threads: number, limit: number): Promise<Outcome[]> {
  const deadline = limit === Infinity ? Infinity : absoluteNow() + limit;
  const shared = withSharedMatrices(problem);
  const { signal, onProgress, ...plain } = options;
  const latest: Array<SolveProgress | null> = new Array<SolveProgress | null>(threads).fill(null);
  const forward = (index: number, progress: SolveProgress): void => {
    latest[index] = progress;
    onProgress?.(combineProgress(latest));
  };
  const workers: Worker[] = [];
  const searches: Array<Promise<Outcome>> = [];
  for (let i = 1; i < threads; i++) {
    const request: WorkerRequest = { problem: shared, options: { ...plain, seed: seedOf(options.seed ?? 0, i) }, deadline };
    const worker = new Worker(url, { workerData: request });
    workers.push(worker);
    searches.push(runWorker(worker, signal, onProgress ? (p) => forward(i, p) : null));
  }
  try {
    const own = solveOnce(problem, { ...options, onProgress: onProgress ? (p) => forward(0, p) : undefined });
    return await Promise.all([own, ...searches]);
  } catch (error) {
    // One search failing fails the solve; the others must not keep running.
    await Promise.all(workers.map((w) => w.terminate()));
    throw error;
  }
}

function runWorker(worker: Worker, signal: AbortSignal | undefined, onProgress: ((p: SolveProgress) => void) | null): Promise<Outcome> {
  return new Promise<Outcome>((resolve, reject) => {
    let settled = false;
    const onAbort = (): void => worker.postMessage({ type: 'abort' });
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'progress') onProgress?.(message.progress);
      else if (message.type === 'result') settle(() => resolve({ result: message.result, objective: message.objective }));
      else
        settle(() =>
          reject(Object.assign(new Error(`search thread failed: ${message.message}`), message.stack ? { stack: message.stack } : {})),
        );
    });
    worker.on('error', (error) => settle(() => reject(new Error(`search thread stopped unexpectedly: ${error.message}`))));
    worker.on('exit', (code) => settle(() => reject(new Error(`search thread exited (code ${code}) without a result`))));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Best of the searches' latest reports (most served, then lowest cost), iterations summed. */
function combineProgress(latest: Array<SolveProgress | null>): SolveProgress {
  let best: SolveProgress | null = null;
  let iterations = 0;
  for (const p of latest) {
    if (!p) continue;
    iterations += p.iterations;
    if (!best || p.served > best.served || (p.served === best.served && p.cost < best.cost)) best = p;
  }
  return { ...best!, iterations };
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
