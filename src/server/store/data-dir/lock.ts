/**
 * One process owns a data directory (decisions.md, "Running the service on more than one machine"):
 * `routeplan serve` holds `<data dir>/serve.lock`, a small JSON file naming its pid and host, from
 * start to stop, with the process's start time as the kernel counts it (and the boot it counts
 * from): a pid alone would make any process that later gets the same pid look like the owner. A second `serve` on the same directory refuses to start (exit 2) naming the owner;
 * a lock whose process is gone (a kill -9, a power cut) is stale and is taken over with a warning.
 * The file is created exclusively (O_EXCL), so of two processes starting at once exactly one wins;
 * a takeover is itself guarded by an exclusive `serve.lock.takeover`, so two processes finding the
 * same stale lock cannot both take it.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { InputError } from '../../../errors.js';

export const LOCK_FILE = 'serve.lock';
const TAKEOVER_FILE = 'serve.lock.takeover';
/** A takeover guard older than this was left by a process that died taking over: it is ignored. */
const STALE_TAKEOVER_MS = 10_000;
/** The owner of a lock file still empty: created this instant by a process that is writing it. */
const BEING_WRITTEN = 'being written';

interface LockRecord {
  pid: number;
  host: string;
  started_at: string;
  /** The process's start (/proc/<pid>/stat's starttime, clock ticks since boot) and its boot's id; absent off Linux. */
  process_start?: string;
}

/** Data directories this process holds (two services in one process must not share one either). */
const heldHere = new Set<string>();

export interface DataDirLock {
  /** Removes the lock if it is still ours; safe to call more than once, and synchronous (for exit handlers). */
  release(): void;
}

export async function acquireDataDirLock(dataDir: string, log: (event: Record<string, unknown>) => void): Promise<DataDirLock> {
  const directory = resolve(dataDir);
  await mkdir(directory, { recursive: true });
  const path = join(directory, LOCK_FILE);
  if (heldHere.has(directory)) throw inUse(directory, { pid: process.pid, host: hostname(), started_at: '' });
  const start = processStart(process.pid);
  const mine: LockRecord = {
    pid: process.pid,
    host: hostname(),
    started_at: new Date().toISOString(),
    ...(start !== null ? { process_start: start } : {}),
  };
  // Claimed in this process before the file is made, so that a second service here is refused at once.
  heldHere.add(directory);
  try {
    return await acquire(directory, path, mine, log);
  } catch (error) {
    heldHere.delete(directory);
    throw error;
  }
}

async function acquire(
  directory: string,
  path: string,
  mine: LockRecord,
  log: (event: Record<string, unknown>) => void,
): Promise<DataDirLock> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (await createExclusively(path, JSON.stringify(mine))) return held(directory, path, mine);
    const owner = await readLock(path);
    if (owner === 'gone') continue;
    if (owner !== 'unreadable' && isAlive(owner)) throw inUse(directory, owner);
    if (await takeOver(directory, path, owner)) {
      log({
        event: 'warning',
        message: `took over the stale lock of data directory ${directory}`,
        ...(owner === 'unreadable' ? { previous: 'unreadable' } : { previous_pid: owner.pid, previous_host: owner.host }),
      });
    }
  }
  throw new InputError(`cannot lock the data directory ${directory}: another process keeps taking it`, [
    { path: '--data-dir', message: 'the data directory is in use' },
  ]);
}

function held(directory: string, path: string, mine: LockRecord): DataDirLock {
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      heldHere.delete(directory);
      try {
        const current = JSON.parse(readFileSync(path, 'utf8')) as LockRecord;
        if (current.pid === mine.pid && current.started_at === mine.started_at) unlinkSync(path);
      } catch {
        // Gone or unreadable: not ours to remove.
      }
    },
  };
}

/** Removes the stale lock under the takeover guard, after checking it is still the same stale one; true if removed. */
async function takeOver(directory: string, path: string, stale: LockRecord | 'unreadable'): Promise<boolean> {
  const guard = join(directory, TAKEOVER_FILE);
  if (!(await createExclusively(guard, String(process.pid)))) {
    const age = await stat(guard).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (age > STALE_TAKEOVER_MS) await unlink(guard).catch(() => undefined);
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    return false;
  }
  try {
    const now = await readLock(path);
    const same = now === 'unreadable' ? stale === 'unreadable' : now !== 'gone' && stale !== 'unreadable' && sameLock(now, stale);
    if (!same) return false;
    await unlink(path).catch(() => undefined);
    return true;
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

function sameLock(a: LockRecord, b: LockRecord): boolean {
  return a.pid === b.pid && a.host === b.host && a.started_at === b.started_at;
}

async function createExclusively(path: string, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new InputError(
      `cannot lock the data directory: ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      [{ path: '--data-dir', message: 'the data directory cannot be written' }],
      undefined,
      { cause: error },
    );
  }
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

async function readLock(path: string): Promise<LockRecord | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'unreadable';
  }
  try {
    const record = JSON.parse(text) as Partial<LockRecord>;
    if (typeof record.pid === 'number' && Number.isInteger(record.pid) && record.pid > 0) {
      const start = typeof record.process_start === 'string' ? { process_start: record.process_start } : {};
      return { pid: record.pid, host: String(record.host ?? ''), started_at: String(record.started_at ?? ''), ...start };
    }
  } catch {
    // A lock torn by a crash between its creation and its write: nobody can own it.
  }
  // Written in one go right after an exclusive create: a moment's emptiness is a process still writing it.
  if (text === '') return isFresh(path);
  return 'unreadable';
}

async function isFresh(path: string): Promise<'unreadable' | LockRecord> {
  const age = await stat(path).then(
    (info) => Date.now() - info.mtimeMs,
    () => Infinity,
  );
  // Treated as alive while it may still be being written, by a process whose pid is not known yet.
  return age < 2_000 ? { pid: 0, host: hostname(), started_at: BEING_WRITTEN } : 'unreadable';
}

/**
 * Whether the lock's process still runs. A lock with our own pid that this process does not hold
 * (checked before) is stale: a container restarted after a kill often gets the same small pid again.
 * A live pid whose process started at another moment (or in another boot) than the lock says is
 * another process that got the pid since: the lock is stale too.
 */
function isAlive(owner: LockRecord): boolean {
  if (owner.started_at === BEING_WRITTEN) return true;
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.process_start === undefined || owner.host !== hostname()) return true;
  const now = processStart(owner.pid);
  return now === null || now === owner.process_start;
}

/**
 * When the process `pid` started, as `<boot id>:<clock ticks since boot>` (Linux's /proc), or null
 * where that cannot be read (another system). Two processes with one pid never share this.
 */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, starttime field 22.
    const starttime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return starttime && /^\d+$/.test(starttime) ? `${boot}:${starttime}` : null;
  } catch {
    return null;
  }
}

function inUse(directory: string, owner: LockRecord): InputError {
  if (owner.started_at === BEING_WRITTEN) {
    return new InputError(
      `the data directory ${directory} is being taken by another routeplan serve starting now; stop it first, or give this one another --data-dir`,
      [{ path: '--data-dir', message: 'in use by a process starting now' }],
      'data_dir_in_use',
    );
  }
  const since = owner.started_at ? ` since ${owner.started_at}` : '';
  return new InputError(
    `the data directory ${directory} is in use by another routeplan serve (pid ${owner.pid} on ${owner.host}${since}); ` +
      'stop it first, or give this one another --data-dir',
    [{ path: '--data-dir', message: `in use by pid ${owner.pid}` }],
    'data_dir_in_use',
  );
}
