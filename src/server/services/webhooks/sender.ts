/**
 * Delivers the recorded events: every process looks for due deliveries (its own and those another
 * process recorded or left when it died), takes each under a lease from the store, attempts it and
 * writes the outcome. A 2xx answer ends it; a failure is tried again on the retry schedule until
 * the window from the event has passed, then given up (logged); a 410 Gone gives it up at once.
 * At most MAX_ATTEMPTING attempts run at once per process, never on a request's path.
 */
import { randomUUID } from 'node:crypto';
import type { StoredDelivery, WebhookStore } from '../../store/ports.js';
import type { ServiceMetrics, WebhookOutcome } from '../../metrics.js';
import { withoutLogIds } from '../../log-context.js';
import type { AttemptOutcome } from './post.js';
import { nextAttemptAt, type RetrySchedule } from './schedule.js';

type Log = (event: Record<string, unknown>) => void;

/** One attempt of one delivery (post.ts's postEvent with the secret and time-out applied); `stop` cuts it short. */
export type Deliver = (delivery: StoredDelivery, now: Date, stop: AbortSignal) => Promise<AttemptOutcome>;

const MAX_ATTEMPTING = 4;
/** How often a process looks for deliveries it did not record itself. */
export const POLL_MS = 1_000;

export interface SenderSettings {
  schedule: RetrySchedule;
  now: () => Date;
  pollMs: number;
  /** [0, 1): the jitter of the retry waits. */
  random: () => number;
}

export class WebhookSender {
  /** This process's name on the leases it takes. */
  private readonly holder = randomUUID();
  private attempting = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  /** Cuts the attempts under way short when the service stops. */
  private readonly stopping = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  /** The store's last failure, logged once until a look at the store succeeds again. */
  private lastFailure: string | null = null;

  constructor(
    private readonly store: WebhookStore,
    private readonly deliver: Deliver,
    private readonly settings: SenderSettings,
    private readonly metrics: ServiceMetrics,
    private readonly log: Log,
  ) {}

  /** Starts one more attempter, up to the limit (a new event, a timer, or a delivery found). */
  pump(): void {
    if (this.closed || this.attempting >= MAX_ATTEMPTING) return;
    this.attempting++;
    // Deliveries outlive the request whose event woke them: their lines carry no request's id.
    const attempter = withoutLogIds(() => this.attemptDue()).finally(() => {
      this.attempting--;
      this.inFlight.delete(attempter);
      if (this.attempting === 0) void this.scheduleNext();
    });
    this.inFlight.add(attempter);
  }

  /**
   * Stops looking and cuts the attempts under way short: what they held is written by nobody, so it
   * stays in the store as it was (its lease lets another process take it, or the next start).
   */
  async close(waitMs = 5_000): Promise<void> {
    this.closed = true;
    this.stopping.abort();
    if (this.timer) clearTimeout(this.timer);
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
  }

  private async attemptDue(): Promise<void> {
    try {
      for (;;) {
        if (this.closed) return;
        const delivery = await this.store.claimDue(this.settings.now(), this.holder, this.settings.schedule.leaseMs);
        if (delivery === null) break;
        this.pump();
        await this.attempt(delivery);
      }
      this.lastFailure = null;
    } catch (error) {
      const reason = (error as Error).message;
      if (reason !== this.lastFailure) this.log({ event: 'webhook_store_failed', reason });
      this.lastFailure = reason;
    }
  }

  private async attempt(delivery: StoredDelivery): Promise<void> {
    const outcome = await this.deliver(delivery, this.settings.now(), this.stopping.signal);
    // Cut short by the shutdown: no attempt to count, and the store may be closing.
    if (this.closed) return;
    delivery.attempts += 1;
    if (outcome.kind === 'delivered') return this.settled(delivery, 'done', 'delivered');
    if (outcome.kind === 'gone') {
      this.log({ ...facts(delivery), event: 'webhook_gone', status: 410 });
      return this.settled(delivery, 'done', 'abandoned');
    }
    delivery.last_error = outcome.error;
    const next = nextAttemptAt(delivery.created_at, delivery.attempts, this.settings.now(), this.settings.schedule, this.settings.random());
    if (next === null) {
      this.log({
        ...facts(delivery),
        event: 'webhook_abandoned',
        error: outcome.error,
        window_h: this.settings.schedule.windowMs / 3_600_000,
      });
      return this.settled(delivery, 'done', 'abandoned');
    }
    delivery.next_attempt_at = next.toISOString();
    await this.settled(delivery, 'retry', 'failed');
  }

  /** Writes the outcome; one whose lease passed to another process meanwhile is that one's to write. */
  private async settled(delivery: StoredDelivery, settlement: 'done' | 'retry', outcome: WebhookOutcome): Promise<void> {
    this.metrics.webhookDelivery(delivery.event_type, outcome);
    if (!(await this.store.settle(delivery, this.holder, settlement))) {
      this.log({ ...facts(delivery), event: 'webhook_lease_lost', outcome });
    }
  }

  /** The next look: when the next retry is due, and at least every poll interval for deliveries recorded elsewhere. */
  private async scheduleNext(): Promise<void> {
    if (this.closed) return;
    const next = await this.store.nextDue().catch(() => null);
    const { pollMs, now } = this.settings;
    const wait = next === null ? pollMs : Math.min(pollMs, Math.max(0, Date.parse(next) - now().getTime()));
    if (this.timer) clearTimeout(this.timer);
    if (this.closed || this.attempting > 0) return;
    this.timer = setTimeout(() => this.pump(), wait);
    this.timer.unref();
  }
}

/** What the log says of a delivery: ids, the type, the attempts and the receiver's origin (its path may hold a token). */
function facts(delivery: StoredDelivery): Record<string, unknown> {
  return { event_id: delivery.event_id, type: delivery.event_type, attempts: delivery.attempts, receiver: new URL(delivery.url).origin };
}
