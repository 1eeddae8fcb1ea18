/**
 * The loop that the webhook sender and the e-mail outbox share: workers that take what is due from
 * the store, one item at a time, until nothing is. At most `max` run at once per process, none on a
 * request's path. `pump()` starts one more (something was recorded, a timer fired, or a worker took an
 * item, since more may be due); the last worker to stop times the next look: when the store says the
 * next retry is due, and at least every `pollMs` for what another process recorded (or left when it
 * died). A store that fails is reported once per cause, not at every look.
 */
import { withoutLogIds } from '../log-context.js';

/**
 * Takes one due item and handles it; false when none is due. `took` may be called once the item is
 * claimed, so that another worker starts while this one handles it.
 */
export type TakeOne = (took: () => void) => Promise<boolean>;

export interface DueWorkerSettings {
  max: number;
  pollMs: number;
  now: () => Date;
  /** When the next item is due (ISO time), or null when none is waiting. */
  nextDue: () => Promise<string | null>;
  /** A look at the store failed for `reason`: called once until a look succeeds again. */
  failed: (reason: string) => void;
}

export class DueWorkers {
  private running = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();
  private lastFailure: string | null = null;

  constructor(
    private readonly takeOne: TakeOne,
    private readonly settings: DueWorkerSettings,
  ) {}

  /** Whether close() was called: work under way is being cut short. */
  get closed(): boolean {
    return this.stopped;
  }

  /** Starts one more worker, up to the limit. */
  pump(): void {
    if (this.stopped || this.running >= this.settings.max) return;
    this.running++;
    // Workers outlive the request whose change woke them: their log lines carry no request's id.
    const worker = withoutLogIds(() => this.takeUntilNoneDue()).finally(() => {
      this.running--;
      this.inFlight.delete(worker);
      if (this.running === 0) void this.scheduleNext();
    });
    this.inFlight.add(worker);
  }

  /** Stops looking and waits (up to `waitMs`) for the workers under way; what is not done stays in the store. */
  async close(waitMs = 5_000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
  }

  private async takeUntilNoneDue(): Promise<void> {
    try {
      while (!this.stopped && (await this.takeOne(() => this.pump()))) this.pump();
      this.lastFailure = null;
    } catch (error) {
      const reason = (error as Error).message;
      if (reason !== this.lastFailure) this.settings.failed(reason);
      this.lastFailure = reason;
    }
  }

  private async scheduleNext(): Promise<void> {
    if (this.stopped) return;
    const next = await this.settings.nextDue().catch(() => null);
    const { pollMs, now } = this.settings;
    const wait = next === null ? pollMs : Math.min(pollMs, Math.max(0, Date.parse(next) - now().getTime()));
    if (this.timer) clearTimeout(this.timer);
    if (this.stopped || this.running > 0) return;
    this.timer = setTimeout(() => this.pump(), wait);
    this.timer.unref();
  }
}
