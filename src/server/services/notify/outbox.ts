/**
 * Every customer message is a record in the store's outbox before it is sent, so it is listed on
 * its project, survives a restart and is retried: at most two sends at once per process, a temporary
 * failure tried again after 2 s, 8 s, 30 s, 2 min and 5 min, a permanent SMTP refusal (5xx) failed
 * at once. A message's id comes from its key (project, stop, kind, version), so it is queued once
 * whichever process queues it; the store hands each queued one to one process at a time, and every
 * process looks for due ones, those queued by another (or left by one that died) too.
 */
import { createHash } from 'node:crypto';
import type { NotificationKind, NotificationView, NotificationsView } from '../../api-types.js';
import type { OutboxStore, StoredMessage } from '../../store/ports.js';
import { noMetrics, type ServiceMetrics } from '../../metrics.js';
import { DueWorkers } from '../due-workers.js';

export type OutboxMessage = StoredMessage;

export interface NewMessage {
  project_id: string;
  owner: string;
  kind: NotificationKind;
  stop_id: string;
  /** What makes it this message and no other, within its project, stop and kind: the dispatch's or the promise's version. */
  version: string;
  to: string;
  subject: string;
  text: string;
}

/** Sends one message; throws on failure (with `responseCode` when the SMTP server answered). */
export type Send = (message: OutboxMessage) => Promise<void>;

export const RETRY_DELAYS_MS = [2_000, 8_000, 30_000, 120_000, 300_000] as const;
const MAX_SENDING = 2;
/** How often a process looks for messages due that it did not queue itself. */
export const POLL_MS = 1_000;

export class Outbox {
  private metrics: ServiceMetrics = noMetrics;
  private readonly senders: DueWorkers;

  constructor(
    private readonly store: OutboxStore,
    private readonly send: Send,
    private readonly log: (event: Record<string, unknown>) => void,
    private readonly now: () => Date,
    private readonly retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
    pollMs: number = POLL_MS,
  ) {
    this.senders = new DueWorkers(() => store.claimDue(this.now(), (message) => this.attempt(message)), {
      max: MAX_SENDING,
      pollMs,
      now,
      nextDue: () => store.nextDue(),
      // A store down for a while is looked at every second: logged once per cause.
      failed: (reason) => log({ event: 'outbox_write_failed', reason }),
    });
  }

  /** Counts each message sent, and each given up on (refused, or out of retries), in `metrics`. */
  countIn(metrics: ServiceMetrics): void {
    this.metrics = metrics;
  }

  /** Reads the stored messages and starts sending those not yet sent. */
  async recover(): Promise<void> {
    await this.store.recover(this.log);
    this.pump();
  }

  async of(projectId: string): Promise<NotificationsView> {
    const messages = (await this.store.ofProject(projectId)).map(viewOf);
    return { enabled: true, messages: messages.reverse() };
  }

  /** Records the message, unless one of its key exists, then sends it (or records at once why it cannot be sent). */
  async add(fields: NewMessage, refusal: string | null = null): Promise<void> {
    const now = this.now().toISOString();
    const { version, ...rest } = fields;
    const key = [fields.project_id, fields.stop_id, fields.kind, version].join('\n');
    const message: OutboxMessage = { id: idOf(key), key, ...rest, created_at: now, status: 'queued', attempts: 0, next_attempt_at: now };
    if (refusal !== null) {
      message.status = 'failed';
      message.error = refusal;
      delete message.next_attempt_at;
    }
    if (!(await this.store.add(message))) return;
    if (message.status === 'queued') this.pump();
    else this.metrics.message('failed');
  }

  /** Stops the timers and waits (up to `waitMs`) for the sends under way; queued ones stay queued in the store. */
  close(waitMs = 5_000): Promise<void> {
    return this.senders.close(waitMs);
  }

  /** Starts one more sender, up to the limit (due-workers.ts). */
  private pump(): void {
    this.senders.pump();
  }

  /** One send of a message this process holds: the message as it stands after it. */
  private async attempt(message: OutboxMessage): Promise<OutboxMessage> {
    message.attempts++;
    try {
      await this.send(message);
      message.status = 'sent';
      message.sent_at = this.now().toISOString();
      delete message.next_attempt_at;
      delete message.error;
      this.metrics.message('sent');
    } catch (error) {
      this.failed(message, error);
    }
    return message;
  }

  private failed(message: OutboxMessage, error: unknown): void {
    const code = (error as { responseCode?: number }).responseCode;
    message.error = describe(error);
    const delay = this.retryDelaysMs[message.attempts - 1];
    if ((code !== undefined && code >= 500) || delay === undefined) {
      message.status = 'failed';
      delete message.next_attempt_at;
      this.metrics.message('failed');
      this.log({
        event: 'notification_failed',
        message_id: message.id,
        project_id: message.project_id,
        attempts: message.attempts,
        // An SMTP refusal often quotes the address: the log keeps no personal data (README, "Personal data").
        error: message.error.replaceAll(message.to, '<recipient>'),
      });
      return;
    }
    message.next_attempt_at = new Date(this.now().getTime() + delay).toISOString();
  }
}

/** A record id (lower-case hex, safe as a file name) that only this key has. */
function idOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}

function viewOf(message: OutboxMessage): NotificationView {
  const { id, kind, stop_id, to, subject, created_at, status, attempts, sent_at, error } = message;
  return { id, kind, stop_id, to, subject, created_at, status, attempts, ...(sent_at ? { sent_at } : {}), ...(error ? { error } : {}) };
}

/** The SMTP reply or network error, without anything from the server's URL (which may carry a password). */
function describe(error: unknown): string {
  const { response, code, message } = error as { response?: string; code?: string; message?: string };
  return (response ?? (code ? `${code}: ${message ?? ''}` : (message ?? String(error)))).slice(0, 300);
}
