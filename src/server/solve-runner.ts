/**
 * Runs solves in worker threads so that a long search never blocks the HTTP event loop. Each job
 * gets a fresh worker: a crash, a runaway search or leaked memory ends with its job, and the queue
 * already bounds how many run at once.
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SolveJob, SolveOutcome } from './job.js';

export interface SolveRunner {
  /** Resolves with the outcome; rejects with JobAbortedError when `signal` aborts (the job stays pending). */
  run(job: SolveJob, signal: AbortSignal): Promise<SolveOutcome>;
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
      const worker = new Worker(this.workerUrl, { workerData: job });
      let settled = false;
      const finish = (settle: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        signal.removeEventListener('abort', onAbort);
        settle();
        void worker.terminate();
      };
      const onAbort = (): void => finish(() => reject(new JobAbortedError()));
      const deadline = setTimeout(
        () =>
          finish(() =>
            resolve({
              ok: false,
              error: {
                code: 'solve_timeout',
                message: `the solve did not end within ${Math.round((job.timeLimitMs + WORKER_GRACE_MS) / 1000)} s`,
                details: [],
              },
            }),
          ),
        job.timeLimitMs + WORKER_GRACE_MS,
      );
      signal.addEventListener('abort', onAbort, { once: true });
      worker.once('message', (outcome: SolveOutcome) => finish(() => resolve(outcome)));
      worker.once('error', (error) =>
        finish(() =>
          resolve({ ok: false, error: { code: 'internal_error', message: `the solve worker crashed: ${error.message}`, details: [] } }),
        ),
      );
      worker.once('exit', (code) =>
        finish(() =>
          resolve({ ok: false, error: { code: 'internal_error', message: `the solve worker exited with code ${code}`, details: [] } }),
        ),
      );
    });
  }
}
