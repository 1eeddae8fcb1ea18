/**
 * Durable JSON records under the data directory: `actions/<uuid>.json`, `projects/<id>.json`,
 * `sessions/<sha-256 of the token>.json`, `dispatches/<project id>.json` (with `dispatch-plans/<project id>.json`, the frozen plan), `outbox/<message id>.json`.
 * Each write goes to a temporary file, is fsynced, renamed over the record and the directory is
 * fsynced, so a crash leaves either the old or the new record, never a torn one.
 */
import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

const COLLECTIONS = ['actions', 'projects', 'sessions', 'dispatches', 'dispatch-plans', 'outbox'] as const;
export type Collection = (typeof COLLECTIONS)[number];

const RECORD_FILE = /^([A-Za-z0-9-]+)\.json$/;

export interface LoadedRecords<T> {
  records: T[];
  /** Files that could not be read or parsed (left in place for a human to inspect). */
  unreadable: { file: string; reason: string }[];
}

export class JsonStore {
  /** Writes to one record are chained so that a later state never loses to an earlier one. */
  private readonly pendingWrites = new Map<string, Promise<void>>();

  constructor(readonly dataDir: string) {}

  async init(): Promise<void> {
    for (const collection of COLLECTIONS) {
      await mkdir(join(this.dataDir, collection), { recursive: true });
      await this.removeStaleTemporaries(collection);
    }
  }

  write(collection: Collection, id: string, record: unknown): Promise<void> {
    assertSafeId(id);
    return this.inTurn(`${collection}/${id}`, () => this.writeAtomically(collection, id, record));
  }

  async read<T>(collection: Collection, id: string): Promise<T | null> {
    assertSafeId(id);
    try {
      return JSON.parse(await readFile(this.pathOf(collection, id), 'utf8')) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
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

  /** Deletes a record (after any write to it still under way); a record already gone is fine. */
  remove(collection: Collection, id: string): Promise<void> {
    assertSafeId(id);
    return this.inTurn(`${collection}/${id}`, () =>
      unlink(this.pathOf(collection, id)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      }),
    );
  }

  /** Resolves once every write started so far has reached the disk. */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.pendingWrites.values()]);
  }

  /** Runs `change` after every change to the same record started before it. */
  private inTurn(key: string, change: () => Promise<void>): Promise<void> {
    const previous = this.pendingWrites.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(change);
    this.pendingWrites.set(key, next);
    void next
      .finally(() => {
        if (this.pendingWrites.get(key) === next) this.pendingWrites.delete(key);
      })
      .catch(() => undefined);
    return next;
  }

  private pathOf(collection: Collection, id: string): string {
    return join(this.dataDir, collection, `${id}.json`);
  }

  private async writeAtomically(collection: Collection, id: string, record: unknown): Promise<void> {
    const target = this.pathOf(collection, id);
    const temporary = `${target}.tmp-${randomBytes(6).toString('hex')}`;
    const text = JSON.stringify(record);
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
