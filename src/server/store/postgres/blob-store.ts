/** Proof files in PostgreSQL, as bytea rows (the BlobStore of ports.ts): every process reads the same. */
import type { BlobStore } from '../ports.js';
import type { Database } from './database.js';

export class PgBlobStore implements BlobStore {
  constructor(private readonly db: Database) {}

  async put(id: string, bytes: Uint8Array): Promise<void> {
    await this.db.query(
      `INSERT INTO routeplan_blobs (id, body) VALUES ($1, $2)
       ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body, created_at = now()`,
      [id, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
    );
  }

  async get(id: string): Promise<Uint8Array | null> {
    const { rows } = await this.db.query<{ body: Buffer }>('SELECT body FROM routeplan_blobs WHERE id = $1', [id]);
    return rows[0] ? new Uint8Array(rows[0].body) : null;
  }

  async remove(id: string): Promise<void> {
    await this.db.query('DELETE FROM routeplan_blobs WHERE id = $1', [id]);
  }
}
