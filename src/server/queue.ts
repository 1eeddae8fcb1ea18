/**
 * A bounded job queue: at most `concurrency` jobs run, at most `capacity` wait. A request first
 * reserves a place (synchronously, so concurrent requests cannot overfill the queue while the
 * action is being written to disk), then starts its job or gives the place back.
 */

export type Job = () => Promise<void>;

export class QueueFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('the solve queue is full');
    this.name = 'QueueFullError';
  }
}

export interface Reservation {
  start(job: Job): void;
  cancel(): void;
}

export interface QueueStats {
  running: number;
  waiting: number;
  reserved: number;
  concurrency: number;
  capacity: number;
}

export class JobQueue {
  private readonly waiting: Job[] = [];
  private reserved = 0;
  private running = 0;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly capacity: number,
    /** Typical job length, for the Retry-After hint when full. */
    private readonly typicalJobSeconds: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be an integer ≥ 1');
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError('capacity must be an integer ≥ 0');
  }

  stats(): QueueStats {
    return {
      running: this.running,
      waiting: this.waiting.length,
      reserved: this.reserved,
      concurrency: this.concurrency,
      capacity: this.capacity,
    };
  }

  /** Throws QueueFullError when no job could start or wait now. */
  reserve(): Reservation {
    const free = this.running + this.waiting.length + this.reserved < this.concurrency + this.capacity;
    if (this.stopped || !free) throw new QueueFullError(this.retryAfterSeconds());
    this.reserved += 1;
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      this.reserved -= 1;
      return true;
    };
    return {
      start: (job) => {
        if (settle()) this.push(job);
      },
      cancel: () => {
        if (settle()) this.notifyIfIdle();
      },
    };
  }

  /** Adds a job past the capacity: it was accepted earlier (recovery after a restart). */
  pushAccepted(job: Job): void {
    this.push(job);
  }

  /** Takes a job out before it starts (its action was cancelled), freeing its place; false once it has started. */
  withdraw(job: Job): boolean {
    const at = this.waiting.indexOf(job);
    if (at === -1) return false;
    this.waiting.splice(at, 1);
    this.notifyIfIdle();
    return true;
  }

  /** Stops starting jobs; returns how many were waiting (they stay pending on disk). */
  stop(): number {
    this.stopped = true;
    const dropped = this.waiting.length;
    this.waiting.length = 0;
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

  private push(job: Job): void {
    if (this.stopped) return;
    this.waiting.push(job);
    this.pump();
  }

  private pump(): void {
    while (!this.stopped && this.running < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
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
    return this.running === 0 && (this.stopped || (this.waiting.length === 0 && this.reserved === 0));
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const waiter of waiters) waiter();
  }

  private retryAfterSeconds(): number {
    const rounds = Math.ceil((this.waiting.length + this.reserved + 1) / this.concurrency);
    return Math.min(600, Math.max(1, Math.ceil(rounds * this.typicalJobSeconds)));
  }
}
