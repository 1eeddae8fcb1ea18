/**
 * Proof files in the data directory, `proofs/<id>` (the BlobStore of ports.ts), written as the JSON
 * records are: to a temporary file, fsynced, renamed over the file, so a crash never leaves half a photo.
 */
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { replaceFileDurably, storeUnavailable, TEMPORARY_MARK } from './durable-file.js';
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
      if (file.includes(TEMPORARY_MARK)) await unlink(join(this.directory, file)).catch(() => undefined);
    }
  }

  async put(id: string, bytes: Uint8Array): Promise<void> {
    await replaceFileDurably(this.pathOf(id), bytes).catch((error: unknown) => {
      throw storeUnavailable(this.directory, error);
    });
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
      if (error.code !== 'ENOENT') throw storeUnavailable(this.directory, error);
    });
  }

  private pathOf(id: string): string {
    if (!BLOB_ID.test(id)) throw new Error(`unsafe file id: ${JSON.stringify(id)}`);
    return join(this.directory, id);
  }
}
