/** PostgreSQL's stores and queue for `serve --database` (stores.ts has the interface and the data directory's). */
import { RoutingError } from '../../../errors.js';
import type { ServeOptions } from '../../serve-options.js';
import { defaultPerKey } from '../data-dir/job-queue.js';
import type { Stores } from '../data-dir/stores.js';
import { PgActionStore } from './action-store.js';
import { Database, withoutPassword } from './database.js';
import { PgProjectStore } from './project-store.js';
import { PgRecordStore } from './record-store.js';
import { PgSessionStore } from './session-store.js';
import { PgSolveQueue } from './solve-queue.js';

type Log = (event: Record<string, unknown>) => void;

/** PostgreSQL, shared by any number of processes: the schema is migrated, pg-boss started. */
export async function databaseStores(url: string, options: ServeOptions, log: Log): Promise<Stores> {
  const db = await Database.open(url, log).catch((error: unknown) => {
    throw unusable(url, error);
  });
  try {
    const actions = new PgActionStore(db);
    const queue = await PgSolveQueue.open(url, actions, {
      concurrency: options.concurrency,
      capacity: options.queueSize,
      perKey: options.queuePerKey ?? defaultPerKey(options.queueSize),
      timeLimitSeconds: options.timeLimitMs / 1000,
      log,
    });
    const base = { kind: 'postgres' as const, actions, projects: new PgProjectStore(db), sessions: new PgSessionStore(db), queue };
    return {
      ...base,
      records: new PgRecordStore(db),
      recover: () => Promise.resolve(),
      health: () => db.health(),
      close: () => db.close(),
      releaseNow: () => undefined,
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw unusable(url, error);
  }
}

/** Exit 3 (decisions.md, "Command-line conventions"), naming the database without its password. */
function unusable(url: string, error: unknown): RoutingError {
  const reason = (error as Error).message;
  return new RoutingError(
    `cannot use the database ${withoutPassword(url)}: ${reason}`,
    'database_unavailable',
    [{ path: '--database', message: reason }],
    {
      cause: error,
    },
  );
}
