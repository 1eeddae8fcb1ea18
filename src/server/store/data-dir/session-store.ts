/**
 * The data directory's SessionStore (ports.ts): every session also in memory, its one process being
 * the only writer.
 */
import type { SessionStore, StoredSession } from '../ports.js';
import type { JsonStore } from './json-store.js';

/** Sessions as `sessions/<sha-256 of the token>.json`, every one also in memory. */
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
    // The file carries its id beside the session; the session read back is the one saved, as PostgreSQL's.
    for (const { id, ...stored } of records) {
      if (typeof id === 'string') this.sessions.set(id, stored);
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
