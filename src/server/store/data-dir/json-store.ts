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
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { KeyedTurns } from '../../turns.js';
import { createFileDurably, replaceFileDurably, storeUnavailable, syncDirectory, TEMPORARY_MARK } from './durable-file.js';
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
    return this.writes.run(`${collection}/${id}`, () =>
      this.noteFailure(collection, createFileDurably(this.pathOf(collection, id), JSON.stringify(record))),
    );
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
      throw storeUnavailable(join(this.dataDir, collection), error);
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
          throw storeUnavailable(join(this.dataDir, collection), error);
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

  private writeAtomically(collection: Collection, id: string, record: unknown): Promise<void> {
    return this.noteFailure(collection, replaceFileDurably(this.pathOf(collection, id), JSON.stringify(record)));
  }

  /** Remembers whether the last write reached the disk, for health(); a failure is a StoreUnavailableError (503). */
  private async noteFailure<T>(collection: Collection, writing: Promise<T>): Promise<T> {
    try {
      const result = await writing;
      this.failure = null;
      return result;
    } catch (error) {
      const unavailable = storeUnavailable(join(this.dataDir, collection), error);
      this.failure = unavailable.message;
      throw unavailable;
    }
  }

  private async removeStaleTemporaries(collection: Collection): Promise<void> {
    const directory = join(this.dataDir, collection);
    for (const file of await readdir(directory)) {
      if (file.includes(`.json${TEMPORARY_MARK}`)) await unlink(join(directory, file)).catch(() => undefined);
    }
  }
}

function assertSafeId(id: string): void {
  if (!/^[A-Za-z0-9-]+$/.test(id)) throw new Error(`unsafe record id: ${JSON.stringify(id)}`);
}
