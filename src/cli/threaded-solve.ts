/**
 * Runs the solver in a worker thread (see solve-thread.ts). Aborting asks the solver for its best
 * plan so far; a solver that cannot answer within a grace period (it is still building its first
 * plan) is terminated, and the solve rejects with an `interrupted` error (exit 130).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ExitCode, RouteplanError } from '../errors.js';
import type { ErrorDetail } from '../errors.js';
import type { Problem } from '../model/problem.js';
import { solve } from '../solver/index.js';
import type { SolveOptions, SolveProgress, SolveResult } from '../solver/types.js';

export type ThreadRequest = { type: 'abort' };

export type ThreadMessage =
  | { type: 'progress'; progress: SolveProgress }
  | { type: 'result'; result: SolveResult }
  | { type: 'error'; error: { known: boolean; code: string; message: string; exitCode: number; details: ErrorDetail[]; stack?: string } };

/** How long an aborted solver may take to hand back its best plan before it is stopped. */
export const ABORT_GRACE_MS = 2000;

export class InterruptedError extends RouteplanError {
  constructor() {
    super('interrupted', 'interrupted before the solver had a plan to show', ExitCode.interrupted);
    this.name = 'InterruptedError';
  }
}

/**
 * The compiled worker beside this module; when running from TypeScript sources (tests) there is
 * none, and the solve runs on the calling thread instead.
 */
function workerUrl(): URL | null {
  const url = new URL('./solve-thread.js', import.meta.url);
  if (!import.meta.url.endsWith('.js') || !existsSync(fileURLToPath(url))) return null;
  return url;
}

/**
 * Solves on a worker thread. The travel matrices (the bulk of a large problem, hundreds of MB at
 * the 5,000-stop limit) are moved to the worker rather than copied, so afterwards
 * `problem.travel` is empty on the calling thread; everything the plan needs stays usable.
 */
export function solveInThread(problem: Problem, options: SolveOptions): Promise<SolveResult> {
  const url = workerUrl();
  if (url === null) return solve(problem, options);
  const { signal, onProgress, ...plain } = options;
  return new Promise<SolveResult>((resolve, reject) => {
    const worker = new Worker(url, { workerData: { problem, options: plain }, transferList: travelBuffers(problem) });
    let settled = false;
    let grace: NodeJS.Timeout | undefined;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      if (grace) clearTimeout(grace);
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = (): void => {
      worker.postMessage({ type: 'abort' } satisfies ThreadRequest);
      grace = setTimeout(() => {
        void worker.terminate();
        settle(() => reject(new InterruptedError()));
      }, ABORT_GRACE_MS);
    };
    worker.on('message', (message: ThreadMessage) => {
      if (message.type === 'progress') onProgress?.(message.progress);
      else if (message.type === 'result') settle(() => resolve(message.result));
      else settle(() => reject(rebuildError(message.error)));
    });
    worker.on('error', (error) => settle(() => reject(new Error(`the solver stopped unexpectedly: ${error.message}`))));
    worker.on('exit', (code) => settle(() => reject(new Error(`the solver thread exited (code ${code}) without a result`))));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
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

/** The worker's error on this side, keeping its stack for ROUTEPLAN_DEBUG=1. */
function rebuildError(error: Extract<ThreadMessage, { type: 'error' }>['error']): Error {
  const rebuilt = error.known ? new RouteplanError(error.code, error.message, error.exitCode, error.details) : new Error(error.message);
  if (error.stack !== undefined) rebuilt.stack = error.stack;
  return rebuilt;
}
