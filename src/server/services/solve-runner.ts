/**
 * Runs solves on a bounded pool of worker threads (src/threads/) so that neither a long search
 * nor building a large problem (seconds for 5,000 stops) blocks the HTTP event loop.
 */
import type { Plan } from '../../output/plan-types.js';
import type { SolveProgress } from '../../solver/types.js';
import { JobAbortedError, WorkerPool } from '../../threads/pool.js';
import { WorkerFailure } from '../../threads/thread.js';
import { workerUrl } from '../../threads/worker-url.js';
import { describeFailure, type SolveJob, type SolveOutcome } from './job.js';

export { JobAbortedError } from '../../threads/pool.js';

export interface SolveRunner {
  /**
   * Resolves with the outcome, passing the solver's best-so-far reports to `onProgress` meanwhile;
   * rejects with JobAbortedError when `signal` aborts (a shutdown or a cancel: the caller knows which).
   */
  run(job: SolveJob, signal: AbortSignal, onProgress?: (progress: SolveProgress) => void): Promise<SolveOutcome>;
  /** Releases what the runner holds (idle worker threads). */
  close?(): Promise<void>;
}

/** Extra time a worker gets past its solve time limit (start-up, building the problem and the plan). */
const WORKER_GRACE_MS = 30_000;

export class WorkerSolveRunner implements SolveRunner {
  private readonly pool: WorkerPool;

  constructor(
    /** Solves running at once (the job queue already holds this bound). */
    concurrency: number,
    url: URL | null = workerUrl(),
  ) {
    if (url === null) throw new Error('the worker thread entry (dist/src/threads/worker.js) is missing; build with "npx tsc -p ."');
    this.pool = new WorkerPool(url, concurrency);
  }

  async run(job: SolveJob, signal: AbortSignal, onProgress?: (progress: SolveProgress) => void): Promise<SolveOutcome> {
    try {
      const plan = await this.pool.run<Plan>({ kind: 'plan', job }, job.timeLimitMs + WORKER_GRACE_MS, signal, onProgress);
      return { ok: true, plan };
    } catch (error) {
      if (error instanceof JobAbortedError) throw error;
      if (error instanceof WorkerFailure) return { ok: false, error: { code: error.code, message: error.message, details: [] } };
      return { ok: false, error: describeFailure(error) };
    }
  }

  /** Worker threads alive, busy or idle (an aborted solve's thread is terminated, not kept). */
  get threads(): number {
    return this.pool.threads;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
