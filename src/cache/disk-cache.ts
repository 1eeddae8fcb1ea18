/**
 * A small JSON cache on disk for what remote services answered (travel tables, geocoded addresses):
 * `<XDG_CACHE_HOME or ~/.cache>/routeplan/<namespace>/<sha-256 of the key>.json`. A corrupt or
 * unreadable entry is a miss, and a failed write only loses the caching, never the answer.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The user's cache directory for routeplan (XDG Base Directory specification). */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith('/') ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'routeplan');
}

export class DiskCache<T> {
  private readonly directory: string;

  constructor(namespace: string, root: string = defaultCacheDir()) {
    this.directory = join(root, namespace);
  }

  /** The cache key of a list of parts (a provider, its URL, options, coordinates …). */
  static keyOf(parts: readonly unknown[]): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  }

  async get(key: string): Promise<T | undefined> {
    try {
      return JSON.parse(await readFile(this.pathOf(key), 'utf8')) as T;
    } catch {
      return undefined;
    }
  }

  /** Written to a temporary file and renamed, so a reader never sees half an entry. */
  async set(key: string, value: T): Promise<void> {
    const target = this.pathOf(key);
    const temporary = `${target}.tmp-${randomBytes(6).toString('hex')}`;
    try {
      await mkdir(this.directory, { recursive: true });
      await writeFile(temporary, JSON.stringify(value), { mode: 0o600 });
      await rename(temporary, target);
    } catch {
      await unlink(temporary).catch(() => undefined);
    }
  }

  private pathOf(key: string): string {
    return join(this.directory, `${key}.json`);
  }
}
