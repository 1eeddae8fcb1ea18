/**
 * A real, empty PostgreSQL database per test, on the one server that postgres-global-setup.ts
 * starts for the run:
 *
 *   describe.skipIf(postgresUnavailable())('the store', () => {
 *     let db: TestDatabase;
 *     beforeEach(async () => { db = await freshDatabase(); });
 *     afterEach(() => db.drop());
 *   });
 *
 * The rule: without a server the tests skip on a developer's machine, but under CI they fail with
 * the reason, so CI is never the machine that silently skips them.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, inject } from 'vitest';

export interface TestDatabase {
  /** Connection URL of the new database (as the admin user). */
  url: string;
  /** Disconnects everyone still connected to it and drops it. */
  drop(): Promise<void>;
}

/** Why there is no server (null when there is one); throws that reason instead when CI is set. */
export function postgresUnavailable(): string | null {
  return skipOrFail(serverUnavailable(), process.env);
}

/** The rule on its own, so it can be tested without a server going missing. */
export function skipOrFail(reason: string | null, env: NodeJS.ProcessEnv): string | null {
  if (reason != null && isCi(env)) throw new Error(`PostgreSQL tests cannot skip under CI: ${reason}`);
  return reason;
}

/** A new, uniquely named, empty database; throws the reason when there is no server. */
export async function freshDatabase(): Promise<TestDatabase> {
  const adminUrl = requireAdminUrl();
  // Unique across workers and runs sharing the server; lower case so it needs no quoting rules.
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  return { url: databaseUrl(adminUrl, name), drop: () => dropDatabase(adminUrl, name) };
}

/**
 * A fresh database for each test of the describe block that calls this, dropped after the test;
 * the returned function gives the current test's. Hooks registered after this one (services on
 * the database) run their afterEach first, so the database is dropped last.
 */
export function databasePerTest(): () => TestDatabase {
  let db: TestDatabase | null = null;
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    await db?.drop();
    db = null;
  });
  return () => {
    if (db === null) throw new Error('databasePerTest(): no test is running');
    return db;
  };
}

function serverUnavailable(): string | null {
  // Missing when the file runs without the globalSetup (another config): that is a reason too.
  const provided = inject('postgres');
  if (provided == null) return 'the postgres globalSetup did not run (see vitest.config.ts)';
  return provided.unavailable;
}

function requireAdminUrl(): string {
  const reason = serverUnavailable();
  const adminUrl = inject('postgres')?.adminUrl;
  if (reason != null || adminUrl == null) throw new Error(`no PostgreSQL server for tests: ${reason}`);
  return adminUrl;
}

/** CI=false or CI=0 (as some tools set locally) is not CI; any other value is. */
function isCi(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value != null && value !== '' && value !== 'false' && value !== '0';
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    // A pool the test forgot to end would otherwise make DROP DATABASE fail.
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    // Terminated backends exit asynchronously; FORCE waits them out instead of failing on them.
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/** Runs `work` on a connection of its own to `url`, closed after. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
