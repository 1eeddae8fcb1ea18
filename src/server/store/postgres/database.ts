/**
 * The PostgreSQL connection of `serve --database` (decisions.md, "Running the service on more than
 * one machine"): a pool, the schema migrated on start, and every failure to reach the server turned
 * into StoreUnavailableError, so that callers answer 503 with Retry-After as for a full disk.
 */
import pg from 'pg';
import { StoreUnavailableError } from '../errors.js';
import type { StoreHealth } from '../ports.js';
import { MIGRATIONS, type Migration } from './migrations.js';

/** SQLSTATE of a unique key violation: the callers that expect one look for it. */
export const UNIQUE_VIOLATION = '23505';

/** An arbitrary but fixed advisory lock key: one process at a time migrates. */
const MIGRATION_LOCK = 7_355_608_011;
/** The advisory lock space of withLock's names (its second key is the name's hash). */
const NAMED_LOCKS = 73_556;

/** Runs statements: the pool (each its own transaction), or one transaction's connection. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

export class Database implements Queryable {
  private failure: string | null = null;

  private constructor(
    private readonly pool: pg.Pool,
    /**
     * The connections that hold withLock's locks, apart from `pool`: the work done under a lock
     * uses `pool`, and could not get a connection if the lock holders had taken them all.
     */
    private readonly lockPool: pg.Pool,
    /** The URL without its password, for messages. */
    readonly safeUrl: string,
  ) {}

  /** Connects, applies the migrations not yet applied, and answers the database. */
  static async open(url: string, log: (event: Record<string, unknown>) => void): Promise<Database> {
    const safeUrl = withoutPassword(url);
    const database = new Database(newPool(url, log), newPool(url, log), safeUrl);
    try {
      const applied = await database.migrate();
      log({ event: 'database_ready', url: safeUrl, migrations_applied: applied });
      return database;
    } catch (error) {
      await database.close().catch(() => undefined);
      throw error;
    }
  }

  /** Runs one statement; a server that cannot be reached or written is a StoreUnavailableError. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    try {
      const result = await this.pool.query<R>(text, values);
      this.failure = null;
      return result;
    } catch (error) {
      throw isServerUnavailable(error) ? this.unavailable(error) : error;
    }
  }

  private unavailable(error: unknown): StoreUnavailableError {
    this.failure = `${this.safeUrl}: ${(error as Error).message}`;
    return new StoreUnavailableError(this.failure, { cause: error });
  }

  /**
   * Runs `work` in one transaction on one connection: committed when it resolves, rolled back when
   * it throws (its error rethrown). A server that cannot be reached is a StoreUnavailableError.
   */
  async transaction<T>(work: (tx: Queryable) => Promise<T>, pool = this.pool): Promise<T> {
    const client = await pool.connect().catch((error: unknown) => {
      throw this.unavailable(error);
    });
    const loss = watchLoss(client);
    const tx: Queryable = {
      query: <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
        client.query<R>(text, values).catch((error: unknown) => {
          throw isServerUnavailable(error) ? this.unavailable(error) : error;
        }),
    };
    // A connection whose rollback failed may still hold the transaction and its locks: it is closed, not reused.
    let broken: Error | undefined;
    try {
      await tx.query('BEGIN');
      const result = await work(tx);
      await tx.query('COMMIT');
      this.failure = null;
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((failure: unknown) => void (broken = failure as Error));
      throw error;
    } finally {
      loss.stop();
      client.release(broken ?? loss.lost());
    }
  }

  /**
   * Runs `work` holding the lock `name`, which every process of this database shares: a transaction
   * on a connection of its own holds it, and lets it go when `work` settles.
   */
  withLock<T>(name: string, work: () => Promise<T>): Promise<T> {
    return this.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [NAMED_LOCKS, name]);
      return work();
    }, this.lockPool);
  }

  async health(): Promise<StoreHealth> {
    try {
      await this.query('SELECT 1');
      return { kind: 'postgres', writable: true };
    } catch (error) {
      return { kind: 'postgres', writable: false, reason: this.failure ?? (error as Error).message };
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.lockPool.end()]);
  }

  /** Applies, in one transaction under an advisory lock, the migrations this database lacks; answers how many. */
  private async migrate(): Promise<number> {
    const client = await this.pool.connect().catch((error: unknown) => {
      throw new StoreUnavailableError(`${this.safeUrl}: ${(error as Error).message}`, { cause: error });
    });
    const loss = watchLoss(client);
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(
        'CREATE TABLE IF NOT EXISTS routeplan_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const { rows } = await client.query<{ version: number }>('SELECT version FROM routeplan_migrations');
      const pending = pendingMigrations(new Set(rows.map((row) => row.version)));
      for (const migration of pending) {
        await client.query(migration.sql);
        await client.query('INSERT INTO routeplan_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      }
      await client.query('COMMIT');
      return pending.length;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      loss.stop();
      client.release(loss.lost());
    }
  }
}

/**
 * Keeps the error of a checked-out connection that loses its server. The pool listens only to its
 * idle connections: without a listener of its own such an error was thrown at the process (CI: a
 * terminated backend while a lock's transaction waited for its work). The query under way fails
 * too, and the caller reports that; the connection is then closed, not reused.
 */
function watchLoss(client: pg.PoolClient): { lost(): Error | undefined; stop(): void } {
  let lost: Error | undefined;
  const keep = (error: Error): void => void (lost = error);
  client.on('error', keep);
  return { lost: () => lost, stop: () => void client.off('error', keep) };
}

function newPool(url: string, log: (event: Record<string, unknown>) => void): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  // An idle client losing its server must not take the process down; the next query reports it.
  pool.on('error', (error) => log({ event: 'database_error', reason: error.message }));
  return pool;
}

function pendingMigrations(applied: Set<number>): Migration[] {
  const newest = Math.max(0, ...applied);
  const known = Math.max(...MIGRATIONS.map((migration) => migration.version));
  if (newest > known) {
    throw new Error(`the database's schema is version ${newest}, newer than this routeplan knows (${known}): upgrade routeplan`);
  }
  return MIGRATIONS.filter((migration) => !applied.has(migration.version));
}

/**
 * The 503 kind, not a bug: no connection (a socket error, class 08), credentials or the database
 * refused (28, 3D), a database not accepting connections or a lock not available (55), a server
 * out of resources (53), shutting down or crashed (57, 58), read-only (25006).
 */
function isServerUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return true;
  return /^(08|28|3D|53|55|57|58)/.test(code) || code === '25006' || code.startsWith('E');
}

export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the database URL';
  }
}
