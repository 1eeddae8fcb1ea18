/**
 * The data directory's Stores (ports.ts), which one process owns (decisions.md, "Running the
 * service on more than one machine"): a second one refuses to start before touching anything.
 */
import { InputError } from '../../../errors.js';
import type { ServeOptions } from '../../serve-options.js';
import { defaultPerKey, type Stores, type StoreStart } from '../ports.js';
import { DataDirActionStore } from './action-store.js';
import { FileBlobStore } from './blob-store.js';
import { JobQueue } from './job-queue.js';
import { JsonStore } from './json-store.js';
import { acquireDataDirLock, type DataDirLock } from './lock.js';
import { DataDirProjectStore } from './project-store.js';
import { DataDirSessionStore } from './session-store.js';
import { DataDirOutboxStore } from './outbox-store.js';
import { DataDirWebhookStore } from './webhook-store.js';
import { LocalSolveQueue } from './solve-queue.js';

type Log = (event: Record<string, unknown>) => void;

export async function dataDirStores(options: ServeOptions, log: Log): Promise<Stores> {
  if ((options.role ?? 'all') !== 'all') {
    throw new InputError(`--role ${options.role} needs --database: with a data directory, its one process answers and solves`, [
      { path: '--role', message: 'api and worker need a shared PostgreSQL database (--database or ROUTEPLAN_DATABASE_URL)' },
    ]);
  }
  const lock = await acquireDataDirLock(options.dataDir, log);
  try {
    const json = new JsonStore(options.dataDir);
    await json.init();
    const blobs = new FileBlobStore(options.dataDir);
    await blobs.init();
    return { ...storesIn(json, lock, options, log), blobs };
  } catch (error) {
    lock.release();
    throw error;
  }
}

function storesIn(json: JsonStore, lock: DataDirLock, options: ServeOptions, log: Log): Omit<Stores, 'blobs'> {
  const actions = new DataDirActionStore(json, log);
  const projects = new DataDirProjectStore(json, log);
  const sessions = new DataDirSessionStore(json, log);
  const perKey = options.queuePerKey ?? defaultPerKey(options.queueSize);
  const queue = new LocalSolveQueue(new JobQueue(options.concurrency, options.queueSize, options.timeLimitMs, perKey), actions);
  // Synchronously as the process exits: when it dies of an error, the solves then running are
  // noted (counted against their actions at the next start), and the lock is let go in any case.
  const atExit = (): void => void [actions.noteCrash(queue.runningAtExit()), lock.release()];
  process.on('exit', atExit);
  const start = async (): Promise<StoreStart> => {
    await projects.recover();
    await sessions.recover();
    const recovered = await actions.recover();
    queue.resumeAtWork(recovered.resumed);
    return { actions: recovered.total, requeued: recovered.resumed.length };
  };
  const close = async (): Promise<void> => {
    try {
      await json.flush();
    } finally {
      lock.release();
      process.off('exit', atExit);
    }
  };
  return {
    kind: 'data_dir',
    actions,
    projects,
    sessions,
    records: json,
    outbox: new DataDirOutboxStore(json),
    webhooks: new DataDirWebhookStore(json),
    queue,
    start,
    health: () => json.health(),
    close,
  };
}
