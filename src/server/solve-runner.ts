/**
 * Runs solves in worker threads so that a long search never blocks the HTTP event loop. Workers
 * are kept between jobs (loading the modules costs a few hundred ms, more than a short solve);
 * a worker that crashes, overruns its deadline or is interrupted is terminated and replaced, so a
 * runaway search ends with its job. The job queue bounds how many run at once, hence the pool size.
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SolveJob, SolveOutcome } from './job.js';

export interface SolveRunner {
  /** Resolves with the outcome; rejects with JobAbortedError when `signal` aborts (the job stays pending). */
  run(job: SolveJob, signal: AbortSignal): Promise<SolveOutcome>;
  /** Releases what the runner holds (idle worker threads). */
  close?(): Promise<void>;
}

export class JobAbortedError extends Error {
  constructor() {
    super('the solve was interrupted by a shutdown');
    this.name = 'JobAbortedError';
  }
}

/** Extra time a worker gets past its solve time limit (start-up, validation, building the plan). */
const WORKER_GRACE_MS = 30_000;

/**
 * The compiled worker beside this module. Under a TypeScript test runner this module is the .ts
 * source, whose sibling is not runnable by a worker thread, so the built copy in dist/ is used.
 */
export function defaultWorkerUrl(): URL {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return new URL('../../dist/src/server/solve-worker.js', here);
  return new URL('./solve-worker.js', here);
}

export class WorkerSolveRunner implements SolveRunner {
  private readonly idle: Worker[] = [];
  private readonly busy = new Set<Worker>();

  constructor(private readonly workerUrl: URL = defaultWorkerUrl()) {
    if (!existsSync(fileURLToPath(workerUrl))) {
      throw new Error(`the solve worker ${fileURLToPath(workerUrl)} is missing; build with "npx tsc -p ."`);
    }
  }

  run(job: SolveJob, signal: AbortSignal): Promise<SolveOutcome> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(new JobAbortedError());
        return;
      }
      const worker = this.idle.pop() ?? new Worker(this.workerUrl);
      worker.ref();
      this.busy.add(worker);
      let settled = false;
      const finish = (settle: () => void, keepWorker: boolean): void => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        this.busy.delete(worker);
        if (keepWorker) {
          worker.unref();
          this.idle.push(worker);
        } else {
          void worker.terminate();
        }
        settle();
      };
      const failure = (code: string, message: string): SolveOutcome => ({ ok: false, error: { code, message, details: [] } });
      const onAbort = (): void => finish(() => reject(new JobAbortedError()), false);
      const onMessage = (outcome: SolveOutcome): void => finish(() => resolve(outcome), true);
      const onError = (error: Error): void =>
        finish(() => resolve(failure('internal_error', `the solve worker crashed: ${error.message}`)), false);
      const onExit = (code: number): void =>
        finish(() => resolve(failure('internal_error', `the solve worker exited with code ${code}`)), false);
      const limitMs = job.timeLimitMs + WORKER_GRACE_MS;
      const deadline = setTimeout(
        () => finish(() => resolve(failure('solve_timeout', `the solve did not end within ${Math.round(limitMs / 1000)} s`)), false),
        limitMs,
      );
      signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(job);
    });
  }

  /** Ends the idle workers (running ones end with their jobs or the abort signal). */
  async close(): Promise<void> {
    const idle = this.idle.splice(0);
    await Promise.all(idle.map((worker) => worker.terminate()));
  }
}
