/**
 * The data directory's outbox (`outbox/<message id>.json`): the one process that owns the directory
 * keeps every message in memory too, creates each record exclusively (its id is the message's key),
 * and holds a message in memory while one attempt sends it.
 */
import type { OutboxStore, StoredMessage } from '../ports.js';
import type { JsonStore } from './json-store.js';

export class DataDirOutboxStore implements OutboxStore {
  private readonly byId = new Map<string, StoredMessage>();
  /** Messages an attempt holds now. */
  private readonly claimed = new Set<string>();
  /** Messages of deleted projects: an attempt under way for one writes nothing back. */
  private readonly removed = new Set<string>();

  constructor(private readonly json: JsonStore) {}

  async recover(log: (event: Record<string, unknown>) => void): Promise<void> {
    const { records, unreadable } = await this.json.readAll<StoredMessage>('outbox');
    for (const bad of unreadable) log({ event: 'unreadable_record', file: bad.file, reason: bad.reason });
    for (const message of records) this.byId.set(message.id, message);
  }

  async add(message: StoredMessage): Promise<boolean> {
    if (this.byId.has(message.id)) return false;
    const created = await this.json.create('outbox', message.id, message);
    if (created) this.byId.set(message.id, message);
    return created;
  }

  ofProject(projectId: string): Promise<StoredMessage[]> {
    const messages = [...this.byId.values()].filter((message) => message.project_id === projectId);
    return Promise.resolve(messages.sort(byCreation));
  }

  async claimDue(now: Date, attempt: (message: StoredMessage) => Promise<StoredMessage>): Promise<boolean> {
    const due = this.queued().find(
      (message) => !this.claimed.has(message.id) && Date.parse(message.next_attempt_at ?? '') <= now.getTime(),
    );
    if (due === undefined) return false;
    this.claimed.add(due.id);
    try {
      const after = await attempt(structuredClone(due));
      if (this.removed.has(after.id)) return true;
      this.byId.set(after.id, after);
      await this.json.write('outbox', after.id, after);
    } finally {
      this.claimed.delete(due.id);
    }
    return true;
  }

  async removeProject(projectId: string): Promise<number> {
    const own = [...this.byId.values()].filter((message) => message.project_id === projectId);
    for (const message of own) {
      this.removed.add(message.id);
      this.byId.delete(message.id);
      await this.json.remove('outbox', message.id);
    }
    return own.length;
  }

  nextDue(): Promise<string | null> {
    const times = this.queued().map((message) => message.next_attempt_at ?? '');
    return Promise.resolve(times.length === 0 ? null : times.sort()[0]!);
  }

  private queued(): StoredMessage[] {
    return [...this.byId.values()].filter((message) => message.status === 'queued').sort(byDue);
  }
}

function byCreation(a: StoredMessage, b: StoredMessage): number {
  return a.created_at.localeCompare(b.created_at);
}

function byDue(a: StoredMessage, b: StoredMessage): number {
  return (a.next_attempt_at ?? '').localeCompare(b.next_attempt_at ?? '') || byCreation(a, b);
}
