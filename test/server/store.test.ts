import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonStore } from '../../src/server/store/data-dir/json-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'routeplan-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// What every store does with records (write, read back, unknown ids) is in store-contract.test.ts; here, the files.
describe('durable JSON store', () => {
  it('atomic writes leave no temporary file and the last of several writes wins', async () => {
    const store = new JsonStore(dir);
    await store.init();
    await Promise.all([1, 2, 3, 4, 5].map((n) => store.write('actions', 'a1', { n })));
    expect(await store.read('actions', 'a1')).toEqual({ n: 5 });
    expect(await readdir(join(dir, 'actions'))).toEqual(['a1.json']);
  });

  it('on start, stale temporaries of an interrupted write are removed and the record is intact', async () => {
    const store = new JsonStore(dir);
    await store.init();
    await store.write('projects', 'p1', { name: 'kept' });
    await writeFile(join(dir, 'projects', 'p1.json.tmp-deadbeef'), '{"name": "tor');
    await new JsonStore(dir).init();
    expect(await readdir(join(dir, 'projects'))).toEqual(['p1.json']);
    expect(await store.read('projects', 'p1')).toEqual({ name: 'kept' });
  });

  it('readAll returns every record and reports unreadable files instead of failing', async () => {
    const store = new JsonStore(dir);
    await store.init();
    await store.write('actions', 'a1', { id: 1 });
    await store.write('actions', 'a2', { id: 2 });
    await writeFile(join(dir, 'actions', 'a3.json'), 'not json');
    const loaded = await store.readAll<{ id: number }>('actions');
    expect(loaded.records.map((record) => record.id)).toEqual([1, 2]);
    expect(loaded.unreadable).toHaveLength(1);
    expect(loaded.unreadable[0]!.file).toContain('a3.json');
  });

  it('refuses ids that could escape the data directory', async () => {
    const store = new JsonStore(dir);
    await store.init();
    expect(() => store.write('actions', '../evil', {})).toThrow(/unsafe record id/);
  });
});
