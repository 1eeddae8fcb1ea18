/**
 * Where accepted solves wait and who runs them: the seam between the actions (actions.ts) and the
 * queue that is kept with them. The data directory's queue lives in this process (LocalSolveQueue,
 * on queue.ts's JobQueue) and is filled again from the pending actions at start; PostgreSQL's
 * (postgres/solve-queue.ts, on pg-boss) is durable and shared, and any worker process may run a solve.
 */
import { JobAbortedError } from '../../services/solve-runner.js';
import type { JobQueue, QueueStats } from './job-queue.js';

export type { QueueStats } from './job-queue.js';

/** What a worker does with queued actions. */
export interface SolveHandlers {
  /** Runs one queued action; rejects with JobAbortedError when a shutdown interrupted it. */
  solve(actionUuid: string, signal: AbortSignal): Promise<void>;
  /** Fails an action whose runs the queue gave up on (their workers died too often). */
  gaveUp(actionUuid: string): Promise<void>;
}

/** A place held in the queue while the action is being written; then started, or given back. */
export interface QueueTicket {
  start(actionUuid: string): Promise<void>;
  cancel(): void;
}

export interface SolveQueue {
  /** Whether the queue keeps accepted solves itself, across restarts and processes. */
  readonly durable: boolean;
  /** A place for one more solve of `owner`; throws QueueFullError when it may not have one now. */
  reserve(owner: string): Promise<QueueTicket>;
  /** Queues an action accepted before a restart, past every limit (a queue that is not durable). */
  requeue(owner: string, actionUuid: string): void;
  /** Takes a waiting action out, or stops its running solve; call it once its record has ended. */
  cancel(actionUuid: string): Promise<void>;
  stats(): Promise<QueueStats>;
  /** Starts handing queued actions to `handlers` (the roles `worker` and `all`). */
  work(handlers: SolveHandlers): Promise<void>;
  /** The actions whose solve runs in this process. */
  runningHere(): string[];
  /** Stops starting solves, waits up to `timeoutMs` for those running, then interrupts them (they stay pending). */
  stop(timeoutMs: number): Promise<{ leftWaiting: number; interrupted: boolean }>;
}

/** The data directory's queue: JobQueue's fair, bounded queue in this process. */
export class LocalSolveQueue implements SolveQueue {
  readonly durable = false;
  private handlers: SolveHandlers | null = null;
  private readonly waiting = new Map<string, () => Promise<void>>();
  private readonly running = new Map<string, AbortController>();
  private interrupting = false;

  constructor(private readonly jobs: JobQueue) {}

  reserve(owner: string): Promise<QueueTicket> {
    // Synchronously, so that concurrent requests cannot overfill the queue while their actions are written.
    const reservation = this.jobs.reserve(owner);
    return Promise.resolve({
      start: (actionUuid) => Promise.resolve(reservation.start(this.jobOf(actionUuid))),
      cancel: () => reservation.cancel(),
    });
  }

  requeue(owner: string, actionUuid: string): void {
    this.jobs.pushAccepted(owner, this.jobOf(actionUuid));
  }

  cancel(actionUuid: string): Promise<void> {
    const waiting = this.waiting.get(actionUuid);
    if (waiting) {
      this.jobs.withdraw(waiting);
      this.waiting.delete(actionUuid);
    }
    this.running.get(actionUuid)?.abort();
    return Promise.resolve();
  }

  stats(): Promise<QueueStats> {
    return Promise.resolve(this.jobs.stats());
  }

  work(handlers: SolveHandlers): Promise<void> {
    this.handlers = handlers;
    return Promise.resolve();
  }

  runningHere(): string[] {
    return [...this.running.keys()];
  }

  async stop(timeoutMs: number): Promise<{ leftWaiting: number; interrupted: boolean }> {
    const leftWaiting = this.jobs.stop();
    const drained = await this.jobs.whenIdle(timeoutMs);
    if (!drained) {
      this.interrupting = true;
      for (const stopper of this.running.values()) stopper.abort();
      await this.jobs.whenIdle(5_000);
    }
    return { leftWaiting, interrupted: !drained };
  }

  private jobOf(actionUuid: string): () => Promise<void> {
    const job = async (): Promise<void> => {
      this.waiting.delete(actionUuid);
      const stopper = new AbortController();
      if (this.interrupting) stopper.abort();
      this.running.set(actionUuid, stopper);
      try {
        await this.handlers?.solve(actionUuid, stopper.signal);
      } catch (error) {
        // Interrupted by a shutdown: the action stays pending on disk and runs at the next start.
        if (!(error instanceof JobAbortedError)) throw error;
      } finally {
        this.running.delete(actionUuid);
      }
    };
    this.waiting.set(actionUuid, job);
    return job;
  }
}
