/**
 * Every customer message is a record in the store's `outbox` before it is sent, so it is listed on
 * its project, survives a restart and is retried: at most two sends at once, a temporary failure
 * tried again after 2 s, 8 s, 30 s, 2 min and 5 min, a permanent SMTP refusal (5xx) failed at once.
 */
import { randomUUID } from 'node:crypto';
import type { NotificationKind, NotificationView, NotificationsView } from '../../api-types.js';
import type { RecordStore } from '../../store/ports.js';

export interface OutboxMessage extends NotificationView {
  project_id: string;
  owner: string;
  text: string;
  /** When the next attempt is due (queued messages). */
  next_attempt_at?: string;
}

export interface NewMessage {
  project_id: string;
  owner: string;
  kind: NotificationKind;
  stop_id: string;
  to: string;
  subject: string;
  text: string;
}

/** Sends one message; throws on failure (with `responseCode` when the SMTP server answered). */
export type Send = (message: OutboxMessage) => Promise<void>;

export const RETRY_DELAYS_MS = [2_000, 8_000, 30_000, 120_000, 300_000] as const;
const MAX_SENDING = 2;

export class Outbox {
  private readonly byProject = new Map<string, OutboxMessage[]>();
  private readonly queued: OutboxMessage[] = [];
  private sending = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Projects deleted while this process ran: a send under way for one is not written back. */
  private readonly forgotten = new Set<string>();

  constructor(
    private readonly store: RecordStore,
    private readonly send: Send,
    private readonly log: (event: Record<string, unknown>) => void,
    private readonly now: () => Date,
    private readonly retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
  ) {}

  /** Lists the stored messages and queues again those not yet sent. */
  async recover(): Promise<void> {
    const { records, unreadable } = await this.store.readAll<OutboxMessage>('outbox');
    for (const bad of unreadable) this.log({ event: 'unreadable_record', file: bad.file, reason: bad.reason });
    for (const message of records.sort((a, b) => a.created_at.localeCompare(b.created_at))) {
      this.remember(message);
      if (message.status === 'queued') this.queued.push(message);
    }
    this.pump();
  }

  of(projectId: string): NotificationsView {
    const messages = (this.byProject.get(projectId) ?? []).map(viewOf);
    return { enabled: true, messages: messages.reverse() };
  }

  /** Whether the project already has a message of this kind for this stop. */
  has(projectId: string, stopId: string, kind: NotificationKind): boolean {
    return (this.byProject.get(projectId) ?? []).some((message) => message.stop_id === stopId && message.kind === kind);
  }

  /** Records the message, then sends it (or records at once why it cannot be sent). */
  async add(fields: NewMessage, refusal: string | null = null): Promise<void> {
    const now = this.now().toISOString();
    const message: OutboxMessage = { id: randomUUID(), ...fields, created_at: now, status: 'queued', attempts: 0, next_attempt_at: now };
    if (refusal !== null) {
      message.status = 'failed';
      message.error = refusal;
      delete message.next_attempt_at;
    }
    await this.store.write('outbox', message.id, message);
    this.remember(message);
    if (message.status === 'queued') {
      this.queued.push(message);
      this.pump();
    }
  }

  /** Drops a deleted project's messages from memory: none is sent or written again (the store's records are deleted by the caller). */
  forget(projectId: string): void {
    this.forgotten.add(projectId);
    this.byProject.delete(projectId);
    const kept = this.queued.filter((message) => message.project_id !== projectId);
    this.queued.splice(0, this.queued.length, ...kept);
  }

  /** Stops the timers and waits (up to `waitMs`) for the sends under way; queued ones stay queued on disk. */
  async close(waitMs = 5_000): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
  }

  private remember(message: OutboxMessage): void {
    const list = this.byProject.get(message.project_id) ?? [];
    list.push(message);
    this.byProject.set(message.project_id, list);
  }

  /** Starts what is due, up to the limit, and sets a timer for the next one due later. */
  private pump(): void {
    if (this.closed) return;
    const now = this.now().getTime();
    while (this.sending < MAX_SENDING) {
      const due = this.queued.findIndex((message) => Date.parse(message.next_attempt_at ?? '') <= now);
      if (due < 0) break;
      const [message] = this.queued.splice(due, 1);
      this.sending++;
      const attempt = this.attempt(message!).finally(() => {
        this.sending--;
        this.inFlight.delete(attempt);
        this.pump();
      });
      this.inFlight.add(attempt);
    }
    this.scheduleNext(now);
  }

  private scheduleNext(now: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.queued.length === 0) return;
    const next = Math.min(...this.queued.map((message) => Date.parse(message.next_attempt_at ?? '')));
    this.timer = setTimeout(() => this.pump(), Math.max(0, next - now));
    this.timer.unref();
  }

  private async attempt(message: OutboxMessage): Promise<void> {
    message.attempts++;
    try {
      await this.send(message);
      message.status = 'sent';
      message.sent_at = this.now().toISOString();
      delete message.next_attempt_at;
      delete message.error;
    } catch (error) {
      this.failed(message, error);
    }
    if (this.forgotten.has(message.project_id)) return;
    await this.store.write('outbox', message.id, message).catch((error: unknown) => {
      this.log({ event: 'outbox_write_failed', message_id: message.id, reason: (error as Error).message });
    });
  }

  private failed(message: OutboxMessage, error: unknown): void {
    const code = (error as { responseCode?: number }).responseCode;
    message.error = describe(error);
    const delay = this.retryDelaysMs[message.attempts - 1];
    if ((code !== undefined && code >= 500) || delay === undefined) {
      message.status = 'failed';
      delete message.next_attempt_at;
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
    this.queued.push(message);
  }
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
