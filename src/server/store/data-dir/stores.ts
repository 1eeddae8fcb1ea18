/**
 * Where the service keeps everything, and the solve queue that goes with it (decisions.md, "Running
 * the service on more than one machine"): the data directory, which one process owns, here; or
 * PostgreSQL, shared by any number of processes (postgres/stores.ts).
 */
import { InputError } from '../../../errors.js';
import { DataDirActionStore, type ActionStore } from './action-store.js';
import type { Recovery } from '../../services/actions/service.js';
import { acquireDataDirLock } from './lock.js';
import type { ServeOptions } from '../../serve-options.js';
import { DataDirProjectStore, type ProjectStore } from './project-store.js';
import { JobQueue, defaultPerKey } from './job-queue.js';
import { DataDirSessionStore, type SessionStore } from './session-store.js';
import { LocalSolveQueue, type SolveQueue } from './solve-queue.js';
import { JsonStore, type RecordStore, type StoreHealth } from './json-store.js';

type Log = (event: Record<string, unknown>) => void;

/** Where everything is kept, and the solve queue that goes with it. */
export interface Stores {
  kind: 'data_dir' | 'postgres';
  actions: ActionStore;
  projects: ProjectStore;
  sessions: SessionStore;
  records: RecordStore;
  queue: SolveQueue;
  /** The data directory's: actions read at start, crash notes. */
  recovery?: Recovery;
  /** Reads what the stores keep in memory (the data directory). */
  recover(): Promise<void>;
  health(): Promise<StoreHealth>;
  /** Writes what is still under way and lets go (the data directory's lock, the database's connections). */
  close(): Promise<void>;
  /** At process exit, synchronously: the data directory's lock. */
  releaseNow(): void;
}

/** The data directory, which one process owns: a second one refuses to start before touching anything. */
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
    const actions = new DataDirActionStore(json);
    const projects = new DataDirProjectStore(json, log);
    const sessions = new DataDirSessionStore(json, log);
    const perKey = options.queuePerKey ?? defaultPerKey(options.queueSize);
    const queue = new LocalSolveQueue(new JobQueue(options.concurrency, options.queueSize, options.timeLimitMs / 1000, perKey));
    const recover = async (): Promise<void> => void [await projects.recover(), await sessions.recover()];
    const close = async (): Promise<void> => [await json.flush(), lock.release()][0];
    const base = { kind: 'data_dir' as const, actions, projects, sessions, records: json, queue, recovery: actions };
    return { ...base, recover, health: () => json.health(), close, releaseNow: () => lock.release() };
  } catch (error) {
    lock.release();
    throw error;
  }
}
