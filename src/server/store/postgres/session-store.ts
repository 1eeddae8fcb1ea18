/** Browser sessions in PostgreSQL, so that any process knows any cookie (the SessionStore of ports.ts). */
import type { SessionStore, StoredSession } from '../ports.js';
import type { Database } from './database.js';

export class PgSessionStore implements SessionStore {
  constructor(private readonly db: Database) {}

  async save(id: string, stored: StoredSession): Promise<void> {
    await this.db.query(
      `INSERT INTO routeplan_sessions (id, owner, expires_at, stored) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at, stored = EXCLUDED.stored`,
      [id, stored.owner, stored.expires_at, JSON.stringify(stored)],
    );
  }

  async load(id: string): Promise<StoredSession | null> {
    const { rows } = await this.db.query<{ stored: StoredSession }>('SELECT stored FROM routeplan_sessions WHERE id = $1', [id]);
    return rows[0]?.stored ?? null;
  }

  async remove(id: string): Promise<void> {
    await this.db.query('DELETE FROM routeplan_sessions WHERE id = $1', [id]);
  }

  async removeExpired(now: Date): Promise<number> {
    const result = await this.db.query('DELETE FROM routeplan_sessions WHERE expires_at <= $1', [now.toISOString()]);
    return result.rowCount ?? 0;
  }
}
