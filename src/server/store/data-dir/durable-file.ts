/**
 * The data directory's one way to write a file: to a temporary file beside it, fsynced, then renamed
 * over the target (or hard-linked, for an exclusive create) and the directory fsynced, so a crash
 * leaves either the old file or the new one, never a torn one.
 */
import { link, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { StoreUnavailableError } from '../errors.js';

/** The marker in a temporary file's name, which start-up sweeps away after a crash. */
export const TEMPORARY_MARK = '.tmp-';

/** Replaces `target` with `data`, durably. */
export async function replaceFileDurably(target: string, data: string | Uint8Array): Promise<void> {
  const temporary = temporaryNameFor(target);
  try {
    await writeSynced(temporary, data, 'w');
    await rename(temporary, target);
  } catch (error) {
    // A full disk or an unwritable directory must not leave half-written temporaries behind.
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(target));
}

/** Writes `target` only when no file of that name exists: false, nothing written, then. */
export async function createFileDurably(target: string, data: string | Uint8Array): Promise<boolean> {
  const temporary = temporaryNameFor(target);
  try {
    await writeSynced(temporary, data, 'wx');
    // link, unlike rename, fails when the name is taken: that is the exclusive create.
    await link(temporary, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  await syncDirectory(dirname(target));
  return true;
}

/** Makes a rename or unlink itself durable; some platforms cannot open a directory, which is fine to skip. */
export async function syncDirectory(directory: string): Promise<void> {
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

/** A failed read or write of the data directory, as the service answers it (503). */
export function storeUnavailable(directory: string, error: unknown): StoreUnavailableError {
  const code = (error as NodeJS.ErrnoException).code;
  return new StoreUnavailableError(`${directory}: ${code ?? (error as Error).message}`, { cause: error });
}

function temporaryNameFor(target: string): string {
  return `${target}${TEMPORARY_MARK}${randomBytes(6).toString('hex')}`;
}

async function writeSynced(path: string, data: string | Uint8Array, flags: 'w' | 'wx'): Promise<void> {
  const handle = await open(path, flags, 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
