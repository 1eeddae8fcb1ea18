/** PostgreSQL's Stores (ports.ts) for `serve --database`: loaded only then (store/open.ts), with pg and pg-boss. */
import { RoutingError } from '../../../errors.js';
import type { ServeOptions } from '../../serve-options.js';
import { defaultPerKey, type Stores } from '../ports.js';
import { PgActionStore } from './action-store.js';
import { Database, withoutPassword } from './database.js';
import { PgProjectStore } from './project-store.js';
import { PgBlobStore } from './blob-store.js';
import { PgOutboxStore } from './outbox-store.js';
import { PgWebhookStore } from './webhook-store.js';
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
    const queue = await PgSolveQueue.open(url, db, actions, {
      concurrency: options.concurrency,
      capacity: options.queueSize,
      perKey: options.queuePerKey ?? defaultPerKey(options.queueSize),
      timeLimitMs: options.timeLimitMs,
      log,
    });
    const base = { kind: 'postgres' as const, actions, projects: new PgProjectStore(db), sessions: new PgSessionStore(db), queue };
    return {
      ...base,
      records: new PgRecordStore(db),
      outbox: new PgOutboxStore(db),
      webhooks: new PgWebhookStore(db),
      blobs: new PgBlobStore(db),
      // The jobs are in the database and outlive any process; what start() finds are the actions whose job was never queued.
      start: async () => ({ actions: 0, requeued: await queue.startOrphanChecks() }),
      health: () => db.health(),
      close: () => db.close(),
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
