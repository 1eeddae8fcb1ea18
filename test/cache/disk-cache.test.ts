/** The disk cache of remote answers: XDG location, round trip, and misses for what cannot be read. */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskCache, defaultCacheDir } from '../../src/cache/disk-cache.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('DiskCache', () => {
  it('lives in $XDG_CACHE_HOME/routeplan, or ~/.cache/routeplan when unset or relative', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/var/cache/me' })).toBe('/var/cache/me/routeplan');
    expect(defaultCacheDir({ XDG_CACHE_HOME: 'relative' })).toMatch(/\/\.cache\/routeplan$/);
  });

  it('keeps an answer under the hash of its key, and a corrupt entry is a miss', async () => {
    const root = await mkdtemp(join(tmpdir(), 'routeplan-cache-'));
    dirs.push(root);
    const cache = new DiskCache<{ value: number }>('travel', root);
    const key = DiskCache.keyOf(['osrm', 'http://x', [1, 2]]);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(DiskCache.keyOf(['osrm', 'http://x', [1, 2]])).toBe(key);
    expect(DiskCache.keyOf(['osrm', 'http://y', [1, 2]])).not.toBe(key);
    expect(await cache.get(key)).toBeUndefined();
    await cache.set(key, { value: 7 });
    expect(await cache.get(key)).toEqual({ value: 7 });
    expect(await readdir(join(root, 'travel'))).toEqual([`${key}.json`]);
    await writeFile(join(root, 'travel', `${key}.json`), '{"val');
    expect(await cache.get(key)).toBeUndefined();
  });

  it('loses only the caching when the directory cannot be written', async () => {
    const root = await mkdtemp(join(tmpdir(), 'routeplan-cache-'));
    dirs.push(root);
    await writeFile(join(root, 'a-file'), '');
    const cache = new DiskCache<number>('travel', join(root, 'a-file'));
    await expect(cache.set('k', 1)).resolves.toBeUndefined();
    expect(await cache.get('k')).toBeUndefined();
  });
});
