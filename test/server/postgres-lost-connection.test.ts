/**
 * A connection of the store's pool that loses its server while checked out (a transaction waiting
 * for its work, as withLock's does) fails that transaction as storage unavailable, and takes
 * nothing else down: no uncaught error in the process, and the store works again afterwards.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/server/store/postgres/database.js';
import { StoreUnavailableError } from '../../src/server/store/errors.js';
import { freshDatabase, postgresUnavailable, withClient, type TestDatabase } from '../support/postgres.js';

describe.skipIf(postgresUnavailable())('a checked-out connection that loses its server', () => {
  let db: TestDatabase;
  const uncaught: unknown[] = [];
  const keep = (error: unknown): void => void uncaught.push(error);

  beforeEach(async () => {
    db = await freshDatabase();
    process.on('uncaughtException', keep);
  });
  afterEach(async () => {
    process.off('uncaughtException', keep);
    await db.drop();
  });

  it('fails its transaction as storage unavailable, is not thrown at the process, and the store recovers', async () => {
    const database = await Database.open(db.url, () => undefined);
    try {
      const name = new URL(db.url).pathname.slice(1);
      const held = database.withLock('lost-connection', async () => {
        await withClient(db.url, (client) =>
          client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]),
        );
        // The terminated connections report their loss while this work still holds its own.
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      await expect(held).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(uncaught).toEqual([]);
      await expect.poll(async () => (await database.health()).writable, { timeout: 10_000 }).toBe(true);
    } finally {
      await database.close();
    }
  });
});
