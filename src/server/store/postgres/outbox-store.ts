/**
 * The outbox in PostgreSQL (`routeplan_records`, collection `outbox`), shared by every process: a
 * message's id is its key, so a second insert of it (from any process) is a no-op; a send holds its
 * row locked (FOR UPDATE SKIP LOCKED) in a transaction, so no other process takes it meanwhile, and
 * a process killed mid-send lets go of it with its connection.
 */
import type { OutboxStore, StoredMessage } from '../ports.js';
import type { Database } from './database.js';

export class PgOutboxStore implements OutboxStore {
  constructor(private readonly db: Database) {}

  /** Nothing kept in memory: every read goes to the database. */
  recover(): Promise<void> {
    return Promise.resolve();
  }

  async add(message: StoredMessage): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO routeplan_records (collection, id, body) VALUES ('outbox', $1, $2) ON CONFLICT (collection, id) DO NOTHING`,
      [message.id, JSON.stringify(message)],
    );
    return rowCount === 1;
  }

  async ofProject(projectId: string): Promise<StoredMessage[]> {
    const { rows } = await this.db.query<{ body: StoredMessage }>(
      `SELECT body FROM routeplan_records WHERE collection = 'outbox' AND body->>'project_id' = $1 ORDER BY body->>'created_at', id`,
      [projectId],
    );
    return rows.map((row) => row.body);
  }

  claimDue(now: Date, attempt: (message: StoredMessage) => Promise<StoredMessage>): Promise<boolean> {
    return this.db.transaction(async (client) => {
      const { rows } = await client.query<{ body: StoredMessage }>(
        `SELECT body FROM routeplan_records
          WHERE collection = 'outbox' AND body->>'status' = 'queued' AND body->>'next_attempt_at' <= $1
          ORDER BY body->>'next_attempt_at', id LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [now.toISOString()],
      );
      const due = rows[0]?.body;
      if (due === undefined) return false;
      const after = await attempt(due);
      await client.query(`UPDATE routeplan_records SET body = $2, updated_at = now() WHERE collection = 'outbox' AND id = $1`, [
        after.id,
        JSON.stringify(after),
      ]);
      return true;
    });
  }

  /** A send under way holds its row: the delete waits for it, and its UPDATE then finds nothing left to write back. */
  async removeProject(projectId: string): Promise<number> {
    const { rowCount } = await this.db.query(`DELETE FROM routeplan_records WHERE collection = 'outbox' AND body->>'project_id' = $1`, [
      projectId,
    ]);
    return rowCount ?? 0;
  }

  async nextDue(): Promise<string | null> {
    const { rows } = await this.db.query<{ due: string | null }>(
      `SELECT min(body->>'next_attempt_at') AS due FROM routeplan_records WHERE collection = 'outbox' AND body->>'status' = 'queued'`,
    );
    return rows[0]?.due ?? null;
  }
}
