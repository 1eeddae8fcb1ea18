/**
 * The photos and signatures of reports waiting for the network, kept in IndexedDB (a photo is far
 * too big for localStorage, which holds the rest of the queue, driver-queue.ts), under the key the
 * queued report names. Where IndexedDB is unusable (a private window), they wait in memory instead.
 */
export interface ProofBlobs {
  photo?: Blob;
  signature?: Blob;
}

const DATABASE = 'routeplan-driver';
const FILES = 'proof-files';

const inMemory = new Map<string, ProofBlobs>();

function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(FILES);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB cannot be opened'));
  });
}

async function run<T>(mode: IDBTransactionMode, work: (files: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const database = await openDatabase();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = work(database.transaction(FILES, mode).objectStore(FILES));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
    });
  } finally {
    database.close();
  }
}

export async function putProofBlobs(key: string, blobs: ProofBlobs): Promise<void> {
  try {
    await run('readwrite', (files) => files.put(blobs, key));
  } catch {
    inMemory.set(key, blobs);
  }
}

/** The files kept under `key`, or null when there are none (any more). */
export async function getProofBlobs(key: string): Promise<ProofBlobs | null> {
  const held = inMemory.get(key);
  if (held) return held;
  try {
    return ((await run('readonly', (files) => files.get(key))) as ProofBlobs | undefined) ?? null;
  } catch {
    return null;
  }
}

export async function deleteProofBlobs(key: string): Promise<void> {
  inMemory.delete(key);
  await run('readwrite', (files) => files.delete(key)).catch(() => undefined);
}
