/**
 * Proof files in the data directory, `proofs/<id>` (the BlobStore of ports.ts), written as the JSON
 * records are: to a temporary file, fsynced, renamed over the file, so a crash never leaves half a photo.
 */
import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { StoreUnavailableError } from '../errors.js';
import type { BlobStore } from '../ports.js';

const BLOB_ID = /^[a-f0-9]{16,64}$/;

export class FileBlobStore implements BlobStore {
  private readonly directory: string;

  constructor(dataDir: string) {
    this.directory = join(dataDir, 'proofs');
  }

  async init(): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    for (const file of await readdir(this.directory)) {
      if (file.includes('.tmp-')) await unlink(join(this.directory, file)).catch(() => undefined);
    }
  }

  async put(id: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(id);
    const temporary = `${target}.tmp-${randomBytes(6).toString('hex')}`;
    try {
      const handle = await open(temporary, 'w', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, target);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw unavailable(this.directory, error);
    }
  }

  async get(id: string): Promise<Uint8Array | null> {
    try {
      return new Uint8Array(await readFile(this.pathOf(id)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(id: string): Promise<void> {
    await unlink(this.pathOf(id)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw unavailable(this.directory, error);
    });
  }

  private pathOf(id: string): string {
    if (!BLOB_ID.test(id)) throw new Error(`unsafe file id: ${JSON.stringify(id)}`);
    return join(this.directory, id);
  }
}

function unavailable(directory: string, error: unknown): StoreUnavailableError {
  const code = (error as NodeJS.ErrnoException).code;
  return new StoreUnavailableError(`${directory}: ${code ?? (error as Error).message}`, { cause: error });
}
