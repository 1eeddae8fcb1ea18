/** Dispatch's and the outbox's records in PostgreSQL, by collection and id (the RecordStore of ports.ts). */
import type { Collection, LoadedRecords, RecordStore } from '../ports.js';
import { KeyedTurns } from '../../turns.js';
import type { Database } from './database.js';

export class PgRecordStore implements RecordStore {
  /** A process's own changes to one record queue here, so that each holds at most one connection waiting for the lock. */
  private readonly turns = new KeyedTurns();

  constructor(private readonly db: Database) {}

  exclusively<T>(collection: Collection, id: string, work: () => Promise<T>): Promise<T> {
    const name = `${collection}/${id}`;
    return this.turns.run(name, () => this.db.withLock(name, work));
  }

  async write(collection: Collection, id: string, record: unknown): Promise<void> {
    await this.db.query(
      `INSERT INTO routeplan_records (collection, id, body) VALUES ($1, $2, $3)
       ON CONFLICT (collection, id) DO UPDATE SET body = EXCLUDED.body, updated_at = now()`,
      [collection, id, JSON.stringify(record)],
    );
  }

  async read<T>(collection: Collection, id: string): Promise<T | null> {
    const { rows } = await this.db.query<{ body: T }>('SELECT body FROM routeplan_records WHERE collection = $1 AND id = $2', [
      collection,
      id,
    ]);
    return rows[0]?.body ?? null;
  }

  async readAll<T>(collection: Collection): Promise<LoadedRecords<T>> {
    const { rows } = await this.db.query<{ body: T }>('SELECT body FROM routeplan_records WHERE collection = $1 ORDER BY id', [collection]);
    return { records: rows.map((row) => row.body), unreadable: [] };
  }

  async remove(collection: Collection, id: string): Promise<void> {
    await this.db.query('DELETE FROM routeplan_records WHERE collection = $1 AND id = $2', [collection, id]);
  }
}
