/**
 * The test harness's PostgreSQL is a real server, and each freshDatabase() is its own empty database.
 * Under CI a missing server fails these tests rather than skipping them (postgresUnavailable throws).
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freshDatabase, postgresUnavailable, skipOrFail, type TestDatabase } from './postgres.js';

async function query(url: string, sql: string, params: unknown[] = []): Promise<any[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(postgresUnavailable())(
  'every test gets its own empty database on a real PostgreSQL server (skipped without one, failed under CI)',
  () => {
    const made: TestDatabase[] = [];
    afterEach(async () => {
      await Promise.all(made.splice(0).map((db) => db.drop()));
    });

    it('is PostgreSQL, keeps two fresh databases apart, and drop() removes a database', async () => {
      const [first, second] = [await freshDatabase(), await freshDatabase()];
      made.push(first, second);
      const [{ version }] = await query(first.url, 'SELECT version()');
      expect(version).toMatch(/^PostgreSQL \d+/);

      await query(first.url, 'CREATE TABLE stops (id integer)');
      const tables = (url: string) => query(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
      expect(await tables(first.url)).toEqual([{ tablename: 'stops' }]);
      expect(await tables(second.url)).toEqual([]);

      const name = new URL(second.url).pathname.slice(1);
      const idle = new pg.Client({ connectionString: second.url }); // left open: drop() must cope
      await idle.connect();
      idle.on('error', () => {}); // its backend is terminated by drop()
      await second.drop();
      expect(await query(first.url, 'SELECT 1 FROM pg_database WHERE datname = $1', [name])).toEqual([]);
      await idle.end().catch(() => {});
    });
  },
);

describe('the rule: without a server, tests skip, except under CI where they fail with the reason', () => {
  it('skips with the reason locally, and throws it when CI is set', () => {
    expect(skipOrFail('no binaries', {})).toBe('no binaries');
    expect(skipOrFail('no binaries', { CI: 'false' })).toBe('no binaries');
    expect(() => skipOrFail('no binaries', { CI: 'true' })).toThrow(/cannot skip under CI: no binaries/);
    expect(skipOrFail(null, { CI: '1' })).toBeNull();
  });
});
