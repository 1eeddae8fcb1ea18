/**
 * A bounded job queue: at most `concurrency` jobs run, at most `capacity` wait. A request first
 * reserves a place (synchronously, so concurrent requests cannot overfill the queue while the
 * action is being written to disk), then starts its job or gives the place back.
 *
 * Fair between API keys (owners): waiting jobs are started round-robin by owner, the owner served
 * least recently first, so a key that submitted a hundred actions does not make another key's one action
 * wait behind them all; and no owner may have more than `perKey` jobs waiting while it would have to
 * wait (QueueFullError with scope `key`, for that owner only: the others still get in).
 */

import { QueueFullError } from '../errors.js';
import { defaultPerKey, type QueueStats } from '../ports.js';

export type Job = () => Promise<void>;

export interface Reservation {
  start(job: Job): void;
  cancel(): void;
}

export class JobQueue {
  /** Waiting jobs per owner, in the order the owners began to wait. */
  private readonly waiting = new Map<string, Job[]>();
  /** When each waiting job was accepted (ms since the epoch), for the age of the oldest. */
  private readonly waitingSince = new Map<Job, number>();
  private waitingCount = 0;
  private readonly reservedBy = new Map<string, number>();
  /** When each owner last had a job started (a running count of starts): the least recent goes next. */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  private reserved = 0;
  private running = 0;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly capacity: number,
    /** Typical job length (a solve's time limit), for the Retry-After hint when full. */
    private readonly typicalJobMs: number,
    readonly perKey: number = defaultPerKey(capacity),
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be an integer ≥ 1');
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError('capacity must be an integer ≥ 0');
    if (!Number.isInteger(perKey) || perKey < 1) throw new RangeError('perKey must be an integer ≥ 1');
  }

  stats(): QueueStats {
    const waitingByKey: Record<string, number> = {};
    for (const [owner, jobs] of this.waiting) waitingByKey[owner] = jobs.length;
    return {
      running: this.running,
      waiting: this.waitingCount,
      reserved: this.reserved,
      concurrency: this.concurrency,
      capacity: this.capacity,
      perKey: this.perKey,
      waitingByKey,
      oldestWaitingSeconds: this.oldestWaitingSeconds(),
    };
  }

  private oldestWaitingSeconds(): number {
    let oldest = Infinity;
    for (const since of this.waitingSince.values()) oldest = Math.min(oldest, since);
    return oldest === Infinity ? 0 : Math.max(0, (Date.now() - oldest) / 1000);
  }

  /** Throws QueueFullError when no job of `owner` could start or wait now. */
  reserve(owner: string): Reservation {
    const queued = this.running + this.waitingCount + this.reserved;
    if (this.stopped || queued >= this.concurrency + this.capacity) throw new QueueFullError(this.retryAfterSeconds());
    // The share counts only when the job would have to wait, and only when it is less than the whole queue.
    const ownerQueued = (this.waiting.get(owner)?.length ?? 0) + (this.reservedBy.get(owner) ?? 0);
    if (this.perKey < this.capacity && queued >= this.concurrency && ownerQueued >= this.perKey) {
      throw new QueueFullError(this.keyRetryAfterSeconds(), 'key', this.perKey);
    }
    this.reserved += 1;
    this.reservedBy.set(owner, (this.reservedBy.get(owner) ?? 0) + 1);
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      this.reserved -= 1;
      const left = (this.reservedBy.get(owner) ?? 1) - 1;
      if (left > 0) this.reservedBy.set(owner, left);
      else this.reservedBy.delete(owner);
      return true;
    };
    return {
      start: (job) => {
        if (settle()) this.push(owner, job);
      },
      cancel: () => {
        if (settle()) this.notifyIfIdle();
      },
    };
  }

  /** Adds a job past the capacity and the owner's share: it was accepted earlier (recovery after a restart), at `since`. */
  pushAccepted(owner: string, job: Job, since = Date.now()): void {
    this.push(owner, job, since);
  }

  /** Takes a job out before it starts (its action was cancelled), freeing its place; false once it has started. */
  withdraw(job: Job): boolean {
    for (const [owner, jobs] of this.waiting) {
      const at = jobs.indexOf(job);
      if (at === -1) continue;
      jobs.splice(at, 1);
      this.waitingSince.delete(job);
      this.waitingCount -= 1;
      if (jobs.length === 0) this.waiting.delete(owner);
      this.notifyIfIdle();
      return true;
    }
    return false;
  }

  /** Stops starting jobs; returns how many were waiting (they stay pending on disk). */
  stop(): number {
    this.stopped = true;
    const dropped = this.waitingCount;
    this.waiting.clear();
    this.waitingSince.clear();
    this.waitingCount = 0;
    this.notifyIfIdle();
    return dropped;
  }

  /** Resolves true once no job runs, or false after `timeoutMs`. */
  whenIdle(timeoutMs: number): Promise<boolean> {
    if (this.isIdle()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.idleWaiters = this.idleWaiters.filter((waiter) => waiter !== onIdle);
        resolve(false);
      }, timeoutMs);
      const onIdle = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      this.idleWaiters.push(onIdle);
    });
  }

  private push(owner: string, job: Job, since = Date.now()): void {
    if (this.stopped) return;
    this.waitingSince.set(job, since);
    const jobs = this.waiting.get(owner);
    if (jobs) jobs.push(job);
    else this.waiting.set(owner, [job]);
    this.waitingCount += 1;
    this.pump();
  }

  /**
   * The next job: the first of the waiting owner served least recently (one never served first;
   * ties in the order they began to wait), so each key gets a turn before any key gets a second.
   */
  private next(): Job | undefined {
    let chosen: string | undefined;
    for (const owner of this.waiting.keys()) {
      if (chosen === undefined || (this.lastServed.get(owner) ?? -1) < (this.lastServed.get(chosen) ?? -1)) chosen = owner;
    }
    if (chosen === undefined) return undefined;
    const jobs = this.waiting.get(chosen)!;
    const job = jobs.shift()!;
    this.waitingSince.delete(job);
    if (jobs.length === 0) this.waiting.delete(chosen);
    this.waitingCount -= 1;
    this.lastServed.set(chosen, (this.served += 1));
    return job;
  }

  private pump(): void {
    while (!this.stopped && this.running < this.concurrency && this.waitingCount > 0) {
      const job = this.next()!;
      this.running += 1;
      void job()
        .catch(() => undefined)
        .finally(() => {
          this.running -= 1;
          this.pump();
          this.notifyIfIdle();
        });
    }
  }

  private isIdle(): boolean {
    return this.running === 0 && (this.stopped || (this.waitingCount === 0 && this.reserved === 0));
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const waiter of waiters) waiter();
  }

  private retryAfterSeconds(): number {
    return this.secondsFor(Math.ceil((this.waitingCount + this.reserved + 1) / this.concurrency));
  }

  /** An owner's next waiting job starts (freeing a place in its share) once each owner waiting has had a turn. */
  private keyRetryAfterSeconds(): number {
    return this.secondsFor(Math.ceil(Math.max(1, this.waiting.size) / this.concurrency));
  }

  private secondsFor(rounds: number): number {
    return Math.min(600, Math.max(1, Math.ceil((rounds * this.typicalJobMs) / 1000)));
  }
}
