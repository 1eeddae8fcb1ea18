/** Projects in PostgreSQL, shared by every process (the ProjectStore of ports.ts). */
import { IdempotencyKeyTakenError } from '../errors.js';
import type { ProjectRecord, ProjectRef, ProjectStore, ProjectSummary, ProjectUpdate, StoredProject } from '../ports.js';
import { summarize } from '../records.js';
import { UNIQUE_VIOLATION, type Database } from './database.js';

export class PgProjectStore implements ProjectStore {
  constructor(private readonly db: Database) {}

  async save(stored: StoredProject): Promise<void> {
    const { record } = stored;
    try {
      await this.db.query(
        `INSERT INTO routeplan_projects (id, owner, created_at, idempotency_key, geocoding_pending, stored)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO UPDATE SET geocoding_pending = EXCLUDED.geocoding_pending, stored = EXCLUDED.stored`,
        [
          record.id,
          stored.owner,
          record.created_at,
          stored.idempotency?.key ?? null,
          record.geocoding_status === 'pending',
          JSON.stringify(stored),
        ],
      );
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new IdempotencyKeyTakenError({ cause: error });
      throw error;
    }
  }

  /**
   * One conditional UPDATE: the database, not this process, decides which of two changes wins (the
   * second waits for the first's row lock, then finds the version changed). The version lives in
   * the stored record, so the table needs no migration; one without it is version 1.
   */
  async update(next: StoredProject, expectedVersion: number): Promise<ProjectUpdate> {
    const written = await this.db.query(
      `UPDATE routeplan_projects SET geocoding_pending = $3, stored = $4
       WHERE id = $1 AND COALESCE((stored->'record'->>'version')::integer, 1) = $2`,
      [next.record.id, expectedVersion, next.record.geocoding_status === 'pending', JSON.stringify(next)],
    );
    if (written.rowCount === 1) return 'updated';
    const { rows } = await this.db.query('SELECT 1 FROM routeplan_projects WHERE id = $1', [next.record.id]);
    return rows.length > 0 ? 'stale' : 'missing';
  }

  async load(id: string): Promise<StoredProject | null> {
    const { rows } = await this.db.query<{ stored: StoredProject }>('SELECT stored FROM routeplan_projects WHERE id = $1', [id]);
    return rows[0]?.stored ?? null;
  }

  async findByIdempotencyKey(owner: string, key: string): Promise<StoredProject | null> {
    const { rows } = await this.db.query<{ stored: StoredProject }>(
      'SELECT stored FROM routeplan_projects WHERE owner = $1 AND idempotency_key = $2',
      [owner, key],
    );
    return rows[0]?.stored ?? null;
  }

  async summariesOf(owner: string): Promise<ProjectSummary[]> {
    // The record alone, without the stored request, which may be large.
    const { rows } = await this.db.query<{ record: ProjectRecord }>(
      "SELECT stored->'record' AS record FROM routeplan_projects WHERE owner = $1",
      [owner],
    );
    return rows.map((row) => summarize(row.record));
  }

  async pendingGeocoding(): Promise<StoredProject[]> {
    const { rows } = await this.db.query<{ stored: StoredProject }>('SELECT stored FROM routeplan_projects WHERE geocoding_pending');
    return rows.map((row) => row.stored);
  }

  async remove(id: string): Promise<void> {
    await this.db.query('DELETE FROM routeplan_projects WHERE id = $1', [id]);
  }

  async datedBefore(date: string): Promise<ProjectRef[]> {
    // Dates are YYYY-MM-DD, so text order is date order; the request is not read.
    const { rows } = await this.db.query<ProjectRef>("SELECT id, owner FROM routeplan_projects WHERE stored->'record'->>'date' < $1", [
      date,
    ]);
    return rows;
  }
}
