/**
 * Delivers the recorded events: every process looks for due deliveries (its own and those another
 * process recorded or left when it died), takes each under a lease from the store, attempts it and
 * writes the outcome. A 2xx answer ends it; a failure is tried again on the retry schedule until
 * the window from the event has passed, then given up (logged); a 410 Gone gives it up at once.
 * At most MAX_ATTEMPTING attempts run at once per process, never on a request's path (due-workers.ts).
 */
import { randomUUID } from 'node:crypto';
import type { StoredDelivery, WebhookStore } from '../../store/ports.js';
import type { ServiceMetrics, WebhookOutcome } from '../../metrics.js';
import { DueWorkers } from '../due-workers.js';
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
  /** Cuts the attempts under way short when the service stops. */
  private readonly stopping = new AbortController();
  private readonly workers: DueWorkers;

  constructor(
    private readonly store: WebhookStore,
    private readonly deliver: Deliver,
    private readonly settings: SenderSettings,
    private readonly metrics: ServiceMetrics,
    private readonly log: Log,
  ) {
    this.workers = new DueWorkers((took) => this.attemptOneDue(took), {
      max: MAX_ATTEMPTING,
      pollMs: settings.pollMs,
      now: settings.now,
      nextDue: () => store.nextDue(),
      failed: (reason) => log({ event: 'webhook_store_failed', reason }),
    });
  }

  /** Starts one more attempter, up to the limit (a new event, a timer, or a delivery found). */
  pump(): void {
    this.workers.pump();
  }

  /**
   * Stops looking and cuts the attempts under way short: what they held is written by nobody, so it
   * stays in the store as it was (its lease lets another process take it, or the next start).
   */
  close(waitMs = 5_000): Promise<void> {
    const closed = this.workers.close(waitMs);
    this.stopping.abort();
    return closed;
  }

  private async attemptOneDue(took: () => void): Promise<boolean> {
    const delivery = await this.store.claimDue(this.settings.now(), this.holder, this.settings.schedule.leaseMs);
    if (delivery === null) return false;
    took();
    await this.attempt(delivery);
    return true;
  }

  private async attempt(delivery: StoredDelivery): Promise<void> {
    const outcome = await this.deliver(delivery, this.settings.now(), this.stopping.signal);
    // Cut short by the shutdown: no attempt to count, and the store may be closing.
    if (this.workers.closed) return;
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
}

/** What the log says of a delivery: ids, the type, the attempts and the receiver's origin (its path may hold a token). */
function facts(delivery: StoredDelivery): Record<string, unknown> {
  return { event_id: delivery.event_id, type: delivery.event_type, attempts: delivery.attempts, receiver: new URL(delivery.url).origin };
}
