/**
 * The solve queue on PostgreSQL, with pg-boss: every accepted action is a job whose id is the
 * action's; any process of the role `worker` or `all` claims jobs (FOR UPDATE SKIP LOCKED, so one
 * worker each) and keeps its claim alive with a heartbeat. A worker that dies stops beating, and
 * another process's supervisor fails the job within HEARTBEAT_SECONDS plus SUPERVISE_SECONDS, after
 * which it is retried, by any worker; after MAX_RETRIES retries it goes to the dead-letter queue,
 * whose worker fails the action. Fairness between keys: a job's priority is minus the number of
 * its owner's solves already waiting, so each key's first waiting solve goes before any key's second.
 * Admission (the queue's size and the per-key quota) is checked in the transaction that inserts the
 * action and its job, under one advisory lock: however many processes admit at once, the limits hold.
 * A graceful stop gives its running jobs back without spending one of their retries.
 */
import { PgBoss } from 'pg-boss';
import { QueueFullError } from '../errors.js';
import type { QueueStats, SolveHandlers, SolveQueue, StoredAction } from '../ports.js';
import { JobAbortedError } from '../../../threads/pool.js';
import type { PendingCounts, PgActionStore } from './action-store.js';
import type { Database, Queryable } from './database.js';
import { RateLimitedLog } from '../../rate-limited-log.js';

const SOLVE_QUEUE = 'routeplan-solve';
const GAVE_UP_QUEUE = 'routeplan-solve-gave-up';
/** The shortest pg-boss allows; a claim is refreshed every HEARTBEAT_REFRESH_SECONDS. */
export const HEARTBEAT_SECONDS = 10;
const HEARTBEAT_REFRESH_SECONDS = 2;
/** How often each process looks for jobs whose heartbeat stopped (pg-boss's default is a minute). */
export const SUPERVISE_SECONDS = 5;
/** Runs after the first that a dead worker may cost an action before it is failed. */
const MAX_RETRIES = 4;
const POLL_SECONDS = 0.5;
/**
 * A pending action that has had no job for this long is queued again. admit() inserts an action
 * and its job in one transaction, but a routeplan before it inserted them apart (and could die in
 * between), and a job may be lost on its own (pg-boss's tables restored apart). Checked at start
 * (startOrphanChecks) and then every ORPHAN_CHECK_MS by every process; queueing an action that has
 * a job is a no-op.
 */
export const ORPHAN_AGE_SECONDS = 10;
const ORPHAN_CHECK_MS = 60_000;
/** An arbitrary but fixed advisory lock key: one admission at a time, across every process. */
const ADMISSION_LOCK = 7_355_608_012;

export interface PgQueueSettings {
  /** Solves this process runs at once (role worker or all). */
  concurrency: number;
  capacity: number;
  perKey: number;
  /** Each solve's time limit. */
  timeLimitMs: number;
  log: (event: Record<string, unknown>) => void;
}

export class PgSolveQueue implements SolveQueue {
  private readonly running = new Map<string, { stopper: AbortController; done: Promise<void> }>();
  private working = false;
  /** A graceful stop has begun: a solve aborted from now on was interrupted, and its job is given back uncounted. */
  private stopping = false;
  private orphanTimer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly boss: PgBoss,
    private readonly db: Database,
    private readonly actions: PgActionStore,
    private readonly settings: PgQueueSettings,
  ) {}

  /** Starts pg-boss on the database (it creates and migrates its own schema) and makes sure both queues exist. */
  static async open(url: string, db: Database, actions: PgActionStore, settings: PgQueueSettings): Promise<PgSolveQueue> {
    // Both intervals: the supervisor fails stalled jobs only in a pass its queue monitor also claims.
    const intervals = { superviseIntervalSeconds: SUPERVISE_SECONDS, monitorIntervalSeconds: SUPERVISE_SECONDS };
    const boss = new PgBoss({ connectionString: url, schema: 'routeplan_jobs', ...intervals, max: 4 });
    // While the database is unreachable pg-boss reports each failed poll: ten lines a minute say so.
    const errors = new RateLimitedLog(settings.log);
    boss.on('error', (error: Error) => errors.write({ event: 'queue_error', reason: error.message }));
    await boss.start();
    await boss.createQueue(GAVE_UP_QUEUE);
    await boss.createQueue(SOLVE_QUEUE, {
      heartbeatSeconds: HEARTBEAT_SECONDS,
      retryLimit: MAX_RETRIES,
      retryDelay: 1,
      deadLetter: GAVE_UP_QUEUE,
    });
    return new PgSolveQueue(boss, db, actions, settings);
  }

  /** Queues again the orphans there are now, then looks for more every ORPHAN_CHECK_MS; answers how many it queued now. */
  async startOrphanChecks(): Promise<number> {
    const queued = await this.requeueOrphans();
    this.orphanTimer ??= setInterval(() => void this.requeueOrphans(), ORPHAN_CHECK_MS);
    this.orphanTimer.unref();
    return queued;
  }

  /** Queues again the pending actions stored without a job (their API process died in between); answers how many. */
  async requeueOrphans(): Promise<number> {
    try {
      let queued = 0;
      for (const { actionUuid } of await this.actions.unstartedBefore(new Date(Date.now() - ORPHAN_AGE_SECONDS * 1000))) {
        if ((await this.boss.send(SOLVE_QUEUE, { actionUuid }, { id: actionUuid, expireInSeconds: this.expirySeconds() })) !== null)
          queued += 1;
      }
      if (queued > 0) this.settings.log({ event: 'orphans_requeued', count: queued });
      return queued;
    } catch (error) {
      this.settings.log({ event: 'orphan_check_failed', reason: (error as Error).message });
      return 0;
    }
  }

  async admit(stored: StoredAction): Promise<void> {
    const actionUuid = stored.record.actionUuid;
    await this.db.transaction(async (tx) => {
      // Held to the commit: the next admission, in any process, counts this one's action.
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ADMISSION_LOCK]);
      const ownerWaiting = this.checkLimits(stored.owner, await this.actions.pendingCounts(tx));
      await this.actions.create(stored, tx);
      await this.boss.send(
        SOLVE_QUEUE,
        { actionUuid },
        { id: actionUuid, priority: -ownerWaiting, expireInSeconds: this.expirySeconds(), db: executorOf(tx) },
      );
    });
  }

  /** Throws QueueFullError when the queue, or `owner`'s share of it, is full; answers how many `owner` has waiting. */
  private checkLimits(owner: string, counts: Map<string, PendingCounts>): number {
    const waiting = [...counts.values()].reduce((sum, count) => sum + count.waiting, 0);
    const ownerWaiting = counts.get(owner)?.waiting ?? 0;
    const { capacity, perKey } = this.settings;
    if (waiting >= capacity) throw new QueueFullError(this.secondsFor(waiting + 1));
    if (perKey < capacity && ownerWaiting >= perKey) throw new QueueFullError(this.secondsFor(counts.size), 'key', perKey);
    return ownerWaiting;
  }

  async cancel(actionUuid: string): Promise<void> {
    this.running.get(actionUuid)?.stopper.abort();
    await this.boss.cancel(SOLVE_QUEUE, actionUuid).catch((error: unknown) => {
      this.settings.log({ event: 'queue_cancel_failed', action_id: actionUuid, reason: (error as Error).message });
    });
  }

  async stats(): Promise<QueueStats> {
    const counts = await this.actions.pendingCounts();
    const waitingByKey: Record<string, number> = {};
    let waiting = 0;
    let running = 0;
    let oldestWaitingSeconds = 0;
    for (const [owner, count] of counts) {
      if (count.waiting > 0) waitingByKey[owner] = count.waiting;
      waiting += count.waiting;
      running += count.running;
      oldestWaitingSeconds = Math.max(oldestWaitingSeconds, count.oldestWaitingSeconds);
    }
    const { concurrency, capacity, perKey } = this.settings;
    const working = this.working ? concurrency : 0;
    return { running, waiting, reserved: 0, concurrency: working, capacity, perKey, waitingByKey, oldestWaitingSeconds };
  }

  async work(handlers: SolveHandlers): Promise<void> {
    this.working = true;
    const options = { batchSize: 1, pollingIntervalSeconds: POLL_SECONDS, heartbeatRefreshSeconds: HEARTBEAT_REFRESH_SECONDS };
    await this.boss.work<{ actionUuid: string }>(SOLVE_QUEUE, { ...options, localConcurrency: this.settings.concurrency }, async ([job]) =>
      this.runHere(job!.data.actionUuid, job!.signal, handlers),
    );
    await this.boss.work<{ actionUuid: string }>(GAVE_UP_QUEUE, options, async ([job]) =>
      handlers.gaveUp(job!.data.actionUuid, { cause: 'cut_short' }),
    );
  }

  runningHere(): string[] {
    return [...this.running.keys()];
  }

  async stop(timeoutMs: number): Promise<{ leftWaiting: number; interrupted: boolean }> {
    if (this.orphanTimer) clearInterval(this.orphanTimer);
    this.stopping = true;
    if (this.working) {
      await this.boss.offWork(SOLVE_QUEUE, { wait: false });
      await this.boss.offWork(GAVE_UP_QUEUE, { wait: false });
    }
    const drained = await this.whenIdle(timeoutMs);
    if (!drained) {
      for (const { stopper } of this.running.values()) stopper.abort();
      await this.whenIdle(5_000);
    }
    await this.boss.stop({ graceful: true, timeout: 5_000 });
    return { leftWaiting: 0, interrupted: !drained };
  }

  /** Runs one claimed job; its signal aborts when the claim is lost (a cancel elsewhere) or here. */
  private async runHere(actionUuid: string, claim: AbortSignal, handlers: SolveHandlers): Promise<void> {
    const stopper = new AbortController();
    const done = this.solveHere(actionUuid, AbortSignal.any([claim, stopper.signal]), handlers);
    this.running.set(actionUuid, { stopper, done: done.catch(() => undefined) });
    try {
      await done;
    } finally {
      this.running.delete(actionUuid);
    }
  }

  /** The solve, and once a graceful stop interrupted it, its job given back: a stop waits for both. */
  private async solveHere(actionUuid: string, signal: AbortSignal, handlers: SolveHandlers): Promise<void> {
    try {
      await handlers.solve(actionUuid, signal);
    } catch (error) {
      if (this.stopping && error instanceof JobAbortedError) await this.giveBackUncounted(actionUuid);
      throw error;
    }
  }

  /**
   * A job interrupted by a graceful stop goes back to the queue (pg-boss retries a job whose handler
   * threw) with one more retry allowed, so that the retry it takes is not one of the MAX_RETRIES
   * kept for workers that die: a rolling restart never fails an action. If this write fails, the
   * retry counts, as for a crash.
   */
  private async giveBackUncounted(actionUuid: string): Promise<void> {
    await this.db
      .query(`UPDATE routeplan_jobs.job SET retry_limit = retry_limit + 1 WHERE name = $1 AND id = $2 AND state = 'active'`, [
        SOLVE_QUEUE,
        actionUuid,
      ])
      .catch((error: unknown) =>
        this.settings.log({ event: 'queue_release_failed', action_id: actionUuid, reason: (error as Error).message }),
      );
  }

  private async whenIdle(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.running.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await Promise.race([Promise.all([...this.running.values()].map((entry) => entry.done)), sleep(left)]);
    }
    return true;
  }

  /** A solve's job is failed as stalled only long after its own limit; the heartbeat catches dead workers sooner. */
  private expirySeconds(): number {
    return Math.max(3_600, Math.ceil((this.settings.timeLimitMs * 2) / 1000 + 120));
  }

  private secondsFor(rounds: number): number {
    const perRoundMs = this.settings.timeLimitMs / Math.max(1, this.settings.concurrency);
    return Math.min(600, Math.max(1, Math.ceil((rounds * perRoundMs) / 1000)));
  }
}

/** A transaction as pg-boss's `db` option wants it, so that a job is inserted in it. */
function executorOf(tx: Queryable): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } {
  return { executeSql: (text, values) => tx.query(text, values) };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
