/**
 * Where browser sessions are kept (session.ts): the data directory (DataDirSessionStore, every
 * session also in memory, its one process being the only writer) or PostgreSQL
 * (postgres/session-store.ts, so that any process behind a load balancer knows the cookie).
 */
import type { JsonStore } from './json-store.js';

/** The record in the `sessions` collection, keyed by the SHA-256 of the cookie's token. */
export interface StoredSession {
  owner: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export interface SessionStore {
  save(id: string, stored: StoredSession): Promise<void>;
  load(id: string): Promise<StoredSession | null>;
  /** Removes the session; one already gone is fine. */
  remove(id: string): Promise<void>;
  /** Removes every session expired at `now`; answers how many. */
  removeExpired(now: Date): Promise<number>;
}

export class DataDirSessionStore implements SessionStore {
  private readonly sessions = new Map<string, StoredSession>();

  constructor(
    private readonly json: JsonStore,
    private readonly log: (event: Record<string, unknown>) => void,
  ) {}

  /** Loads the stored sessions; answers how many. */
  async recover(): Promise<number> {
    const { records, unreadable } = await this.json.readAll<StoredSession & { id?: string }>('sessions');
    for (const bad of unreadable) this.log({ event: 'unreadable_record', file: bad.file, reason: bad.reason });
    for (const stored of records) {
      if (typeof stored.id === 'string') this.sessions.set(stored.id, stored);
    }
    return this.sessions.size;
  }

  async save(id: string, stored: StoredSession): Promise<void> {
    await this.json.write('sessions', id, { id, ...stored });
    this.sessions.set(id, stored);
  }

  load(id: string): Promise<StoredSession | null> {
    return Promise.resolve(this.sessions.get(id) ?? null);
  }

  async remove(id: string): Promise<void> {
    if (!this.sessions.delete(id)) return;
    await this.json.remove('sessions', id);
  }

  async removeExpired(now: Date): Promise<number> {
    const expired = [...this.sessions].filter(([, stored]) => Date.parse(stored.expires_at) <= now.getTime()).map(([id]) => id);
    for (const id of expired) await this.remove(id);
    return expired.length;
  }
}
