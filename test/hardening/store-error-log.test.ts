/**
 * Issue 27 (10): a database outage no longer writes a log line per failed poll (a 25 s outage wrote
 * 372 `queue_error` lines): the queue's errors go through the rate-limited log, at most ten a
 * minute. A real PostgreSQL database is made to refuse connections for a few seconds.
 */
import { describe, expect, it } from 'vitest';
import { databasePerTest, postgresUnavailable, withClient } from '../support/postgres.js';
import { servicesStoppedAfterEach } from '../server/harness.js';

describe.skipIf(postgresUnavailable())('store errors in the log (issue 27, 10)', () => {
  const db = databasePerTest();
  const service = servicesStoppedAfterEach(() => ({ database: db().url }));

  it('a database refusing connections for 8 s writes at most ten queue_error lines', async () => {
    const svc = await service();
    const name = new URL(db().url).pathname.slice(1);
    const admin = new URL(db().url);
    admin.pathname = '/postgres';
    await withClient(admin.toString(), async (client) => {
      await client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    });
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    await withClient(admin.toString(), (client) => client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
    const errors = svc.logs.filter((line) => line.includes('"event":"queue_error"'));
    console.log(`queue_error lines during an 8 s outage: ${errors.length}`);
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors.length).toBeLessThanOrEqual(10);
  }, 30_000);
});
