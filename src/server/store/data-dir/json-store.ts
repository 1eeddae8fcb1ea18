/**
 * Durable JSON records under the data directory: `actions/<uuid>.json`, `projects/<id>.json`,
 * `sessions/<sha-256 of the token>.json`, `dispatches/<project id>.json` (with `dispatch-plans/<project id>.json`, the frozen plan), `outbox/<message id>.json`,
 * `webhooks/<delivery id>.json` (a webhook event on its way to one URL),
 * `health/probe.json`, written to learn whether a full disk has room again, and `crashes/<id>.json`,
 * the actions that were running when the process died of an error.
 * Each write goes to a temporary file, is fsynced, renamed over the record and the directory is
 * fsynced, so a crash leaves either the old or the new record, never a torn one.
 */
import { writeFileSync } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { KeyedTurns } from '../../turns.js';
import { StoreUnavailableError } from '../errors.js';
import type { Collection, LoadedRecords, RecordStore, StoreHealth } from '../ports.js';

const COLLECTIONS: readonly Collection[] = [
  'actions',
  'projects',
  'sessions',
  'dispatches',
  'dispatch-plans',
  'outbox',
  'webhooks',
  'health',
  'crashes',
];

const RECORD_FILE = /^([A-Za-z0-9-]+)\.json$/;

export class JsonStore implements RecordStore {
  /** Writes to one record are chained so that a later state never loses to an earlier one. */
  private readonly writes = new KeyedTurns();
  /** Read-modify-writes of one record, one at a time: this process is the only one on the data directory. */
  private readonly changes = new KeyedTurns();
  /** Why the last write failed; null once a write has succeeded again. */
  private failure: string | null = null;

  constructor(readonly dataDir: string) {}

  /**
   * Whether records can be written now. After a failed write a small probe write is tried, so
   * the store reads healthy again as soon as the disk has room, not only at the next record.
   */
  async health(): Promise<StoreHealth> {
    if (this.failure !== null) {
      await this.writeAtomically('health', 'probe', { at: new Date().toISOString() }).catch(() => undefined);
    }
    return this.failure === null ? { writable: true } : { writable: false, reason: this.failure };
  }

  async init(): Promise<void> {
    for (const collection of COLLECTIONS) {
      await mkdir(join(this.dataDir, collection), { recursive: true });
      await this.removeStaleTemporaries(collection);
    }
  }

  write(collection: Collection, id: string, record: unknown): Promise<void> {
    assertSafeId(id);
    return this.writes.run(`${collection}/${id}`, () => this.writeAtomically(collection, id, record));
  }

  exclusively<T>(collection: Collection, id: string, work: () => Promise<T>): Promise<T> {
    return this.changes.run(`${collection}/${id}`, work);
  }

  /**
   * Writes a new record only when none of this id exists (an exclusive create: the temporary file
   * is hard-linked to the record's name, which fails when the name is taken); false, nothing written, then.
   */
  create(collection: Collection, id: string, record: unknown): Promise<boolean> {
    assertSafeId(id);
    return this.writes.run(`${collection}/${id}`, async () => {
      try {
        const created = await this.linkNew(collection, id, JSON.stringify(record));
        this.failure = null;
        return created;
      } catch (error) {
        this.failure = `${join(this.dataDir, collection)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
        throw new StoreUnavailableError(this.failure, { cause: error });
      }
    });
  }

  /** A record, or null when there is none; a directory that cannot be read is a StoreUnavailableError (503), as a failed write is. */
  async read<T>(collection: Collection, id: string): Promise<T | null> {
    assertSafeId(id);
    let text: string;
    try {
      text = await readFile(this.pathOf(collection, id), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      throw new StoreUnavailableError(`${join(this.dataDir, collection)}: ${code ?? (error as Error).message}`, { cause: error });
    }
    return JSON.parse(text) as T;
  }

  async readAll<T>(collection: Collection): Promise<LoadedRecords<T>> {
    const directory = join(this.dataDir, collection);
    const result: LoadedRecords<T> = { records: [], unreadable: [] };
    for (const file of (await readdir(directory)).sort()) {
      if (!RECORD_FILE.test(file)) continue;
      try {
        result.records.push(JSON.parse(await readFile(join(directory, file), 'utf8')) as T);
      } catch (error) {
        result.unreadable.push({ file: join(directory, file), reason: (error as Error).message });
      }
    }
    return result;
  }

  /**
   * Writes a record at once, synchronously and without the rename: for the moment a process
   * exits, when nothing asynchronous runs any more. Best effort; false when it could not.
   */
  writeNow(collection: Collection, id: string, record: unknown): boolean {
    assertSafeId(id);
    try {
      writeFileSync(this.pathOf(collection, id), JSON.stringify(record), { mode: 0o600 });
      return true;
    } catch {
      return false;
    }
  }

  /** The ids of a collection's records. */
  async ids(collection: Collection): Promise<string[]> {
    const files = await readdir(join(this.dataDir, collection));
    return files.flatMap((file) => RECORD_FILE.exec(file)?.[1] ?? []).sort();
  }

  /**
   * Deletes a record (after any write to it still under way); a record already gone is fine. One
   * that cannot be deleted (an unwritable directory) is a StoreUnavailableError, as a failed write is.
   */
  remove(collection: Collection, id: string): Promise<void> {
    assertSafeId(id);
    return this.writes.run(`${collection}/${id}`, () =>
      unlink(this.pathOf(collection, id)).then(
        () => syncDirectory(join(this.dataDir, collection)),
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return;
          throw new StoreUnavailableError(`${join(this.dataDir, collection)}: ${error.code ?? error.message}`, { cause: error });
        },
      ),
    );
  }

  /** Resolves once every write started so far has reached the disk. */
  flush(): Promise<void> {
    return this.writes.settled();
  }

  private pathOf(collection: Collection, id: string): string {
    return join(this.dataDir, collection, `${id}.json`);
  }

  private async writeAtomically(collection: Collection, id: string, record: unknown): Promise<void> {
    const text = JSON.stringify(record);
    try {
      await this.replaceFile(collection, id, text);
      this.failure = null;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      this.failure = `${join(this.dataDir, collection)}: ${code ?? (error as Error).message}`;
      throw new StoreUnavailableError(this.failure, { cause: error });
    }
  }

  private async replaceFile(collection: Collection, id: string, text: string): Promise<void> {
    const target = this.pathOf(collection, id);
    const temporary = `${target}.tmp-${randomBytes(6).toString('hex')}`;
    try {
      const handle = await open(temporary, 'w', 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, target);
    } catch (error) {
      // A full disk or an unwritable directory must not leave half-written temporaries behind.
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    await syncDirectory(join(this.dataDir, collection));
  }

  private async linkNew(collection: Collection, id: string, text: string): Promise<boolean> {
    const target = this.pathOf(collection, id);
    const temporary = `${target}.tmp-${randomBytes(6).toString('hex')}`;
    try {
      const handle = await open(temporary, 'wx', 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await link(temporary, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
    await syncDirectory(join(this.dataDir, collection));
    return true;
  }

  private async removeStaleTemporaries(collection: Collection): Promise<void> {
    const directory = join(this.dataDir, collection);
    for (const file of await readdir(directory)) {
      if (file.includes('.json.tmp-')) await unlink(join(directory, file)).catch(() => undefined);
    }
  }
}

/** Makes the rename itself durable; some platforms cannot open a directory, which is fine to skip. */
async function syncDirectory(directory: string): Promise<void> {
  let handle;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // Directory fsync is unsupported on some file systems; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}

function assertSafeId(id: string): void {
  if (!/^[A-Za-z0-9-]+$/.test(id)) throw new Error(`unsafe record id: ${JSON.stringify(id)}`);
}
