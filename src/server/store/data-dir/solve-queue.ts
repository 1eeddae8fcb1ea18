/**
 * The data directory's SolveQueue (ports.ts): JobQueue's fair, bounded queue in this process. It
 * keeps nothing across restarts, so the actions found pending at start are handed to it
 * (resumeAtWork) and queued once a worker takes them, past every limit since they were accepted.
 */
import { JobAbortedError } from '../../../threads/pool.js';
import type { JobQueue } from './job-queue.js';
import type { ActionStore, GaveUpReason, QueueStats, SolveHandlers, SolveQueue, StoredAction } from '../ports.js';

/** An action accepted before a restart: queued again, or given up on (`gaveUp`) when its runs crashed the service too often. */
export interface Resumed {
  owner: string;
  actionUuid: string;
  /** When it was accepted: its wait counts from then. */
  createdAt: string;
  gaveUp?: GaveUpReason;
}

export class LocalSolveQueue implements SolveQueue {
  private handlers: SolveHandlers | null = null;
  private readonly waiting = new Map<string, () => Promise<void>>();
  private readonly running = new Map<string, AbortController>();
  private resumed: Resumed[] = [];
  private stopping = false;
  private interrupting = false;

  constructor(
    private readonly jobs: JobQueue,
    private readonly actions: ActionStore,
  ) {}

  async admit(stored: StoredAction): Promise<void> {
    // Synchronously, so that concurrent requests cannot overfill the queue while their actions are written.
    const reservation = this.jobs.reserve(stored.owner);
    try {
      await this.actions.create(stored);
    } catch (error) {
      reservation.cancel();
      throw error;
    }
    reservation.start(this.jobOf(stored.record.actionUuid));
  }

  /** The actions found pending at start, oldest first: work() queues them before anything new. */
  resumeAtWork(actions: Resumed[]): void {
    this.resumed = actions;
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

  async work(handlers: SolveHandlers): Promise<void> {
    this.handlers = handlers;
    const resumed = this.resumed;
    this.resumed = [];
    for (const { owner, actionUuid, createdAt, gaveUp } of resumed) {
      if (gaveUp) await handlers.gaveUp(actionUuid, gaveUp);
      else this.jobs.pushAccepted(owner, this.jobOf(actionUuid), Date.parse(createdAt) || Date.now());
    }
  }

  runningHere(): string[] {
    return [...this.running.keys()];
  }

  /** The solves running as the process exits, unless a clean shutdown (stop) began: those the service died during. */
  runningAtExit(): string[] {
    return this.stopping ? [] : this.runningHere();
  }

  async stop(timeoutMs: number): Promise<{ leftWaiting: number; interrupted: boolean }> {
    this.stopping = true;
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
