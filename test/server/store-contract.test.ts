/**
 * What any store must do (src/server/store/ports.ts): one definition, run against the data
 * directory and against a real PostgreSQL (test/support/postgres.ts). A new store passes this
 * file; a new rule for the stores is written here, once, for both. What only one store has (the
 * data directory's atomic files and lock, PostgreSQL's processes sharing one database) is tested
 * in store.test.ts, data-dir-lock.test.ts and postgres-store.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServeOptions } from '../../src/server/serve-options.js';
import { IdempotencyKeyTakenError } from '../../src/server/store/errors.js';
import { openStores } from '../../src/server/store/open.js';
import type { Ending, StoredAction, StoredDelivery, StoredMessage, StoredProject, Stores } from '../../src/server/store/ports.js';
import { freshDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres.js';
import { cannedPlan, removeDir } from './harness.js';

interface StoreUnderTest {
  /** Opens the store (again, after close: what it keeps must still be there) and starts it. */
  open(): Promise<Stores>;
  /** Closes what open() opened and removes the store's data. */
  dispose(): Promise<void>;
}

function options(overrides: Partial<ServeOptions>): ServeOptions {
  const base = { port: 0, host: '127.0.0.1', keys: [], concurrency: 1, queueSize: 10, timeLimitMs: 1_000, seed: 1 };
  return { ...base, dataDir: '', bodyLimitBytes: 1_000_000, shutdownTimeoutMs: 1_000, ...overrides };
}

/** Opens stores of one kind, and closes every one opened before the next open and at the end. */
function storeOf(optionsOf: () => ServeOptions, drop: () => Promise<void>): StoreUnderTest {
  let current: Stores | null = null;
  const closeCurrent = async (): Promise<void> => {
    await current?.queue.stop(0);
    await current?.close();
    current = null;
  };
  return {
    open: async () => {
      await closeCurrent();
      current = await openStores(optionsOf(), () => undefined);
      await current.start();
      return current;
    },
    dispose: async () => {
      await closeCurrent();
      await drop();
    },
  };
}

function dataDirectory(): StoreUnderTest {
  let dir = '';
  const store = storeOf(
    () => options({ dataDir: dir }),
    () => removeDir(dir),
  );
  return {
    open: async () => {
      dir ||= await mkdtemp(join(tmpdir(), 'routeplan-contract-'));
      return store.open();
    },
    dispose: () => store.dispose(),
  };
}

function postgres(): StoreUnderTest {
  let db: TestDatabase | null = null;
  const store = storeOf(
    () => options({ dataDir: '', database: db!.url }),
    async () => db?.drop(),
  );
  return {
    open: async () => {
      db ??= await freshDatabase();
      return store.open();
    },
    dispose: () => store.dispose(),
  };
}

let sequence = 0;
function newAction(owner = 'key-alpha', extra: Partial<StoredAction['record']> = {}, key?: string): StoredAction {
  sequence += 1;
  const created = new Date(Date.UTC(2030, 0, 1, 0, 0, sequence)).toISOString();
  const actionUuid = `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
  return {
    owner,
    kind: 'project',
    document: { name: `request ${sequence}` },
    attempts: 0,
    ...(key !== undefined ? { idempotency: { key, fingerprint: `fingerprint of ${key}` } } : {}),
    record: { actionUuid, actionName: 'optimize', status: 'pending', created_at: created, updated_at: created, ...extra },
  };
}

function newProject(id: string, owner: string, extra: Partial<StoredProject> = {}): StoredProject {
  const record = { id, name: `project ${id}`, date: '2030-01-01', drivers: [{ id: 'd1' }], stops: [], settings: {} };
  return { owner, document: { name: id }, record: { ...record, url: `/projects/${id}`, created_at: '2030-01-01T00:00:00.000Z' }, ...extra };
}

const FINISHED: Ending = { status: 'finished', solution: cannedPlan('contract') };
const CANCELLED: Ending = { status: 'failed', error: { code: 'cancelled', message: 'cancelled', details: [] } };

const KINDS: { name: string; make: () => StoreUnderTest; skip: string | null }[] = [
  { name: 'data directory', make: dataDirectory, skip: null },
  { name: 'PostgreSQL', make: postgres, skip: postgresUnavailable() },
];

describe.each(KINDS)('the store contract: $name', ({ make, skip }) => {
  let store: StoreUnderTest;
  let stores: Stores;

  beforeEach(async (context) => {
    if (skip !== null) context.skip();
    store = make();
    stores = await store.open();
  });
  afterEach(async () => {
    if (skip === null) await store.dispose();
  });

  describe('actions', () => {
    it('a created action reads back as stored, also by its Idempotency-Key for its owner only; an unknown one is null', async () => {
      const stored = newAction('key-alpha', {}, 'k1');
      await stores.actions.create(stored);
      expect(await stores.actions.load(stored.record.actionUuid)).toEqual(stored);
      expect(await stores.actions.findByIdempotencyKey('key-alpha', 'k1')).toEqual(stored);
      expect(await stores.actions.findByIdempotencyKey('key-beta', 'k1')).toBeNull();
      expect(await stores.actions.load('00000000-0000-4000-8000-999999999999')).toBeNull();
    });

    it('a second action with an owner’s Idempotency-Key is refused (IdempotencyKeyTakenError); another owner may use the key', async () => {
      await stores.actions.create(newAction('key-alpha', {}, 'k-taken'));
      await expect(stores.actions.create(newAction('key-alpha', {}, 'k-taken'))).rejects.toBeInstanceOf(IdempotencyKeyTakenError);
      await stores.actions.create(newAction('key-beta', {}, 'k-taken'));
    });

    it('update writes a pending action’s change; once it has ended, nothing more is written and the answer is false', async () => {
      const stored = newAction();
      await stores.actions.create(stored);
      const copy = (await stores.actions.load(stored.record.actionUuid))!;
      copy.attempts = 1;
      copy.record = { ...copy.record, started_at: '2030-01-01T01:00:00.000Z' };
      expect(await stores.actions.update(copy)).toBe(true);
      expect((await stores.actions.load(stored.record.actionUuid))!.record.started_at).toBe('2030-01-01T01:00:00.000Z');
      expect(await stores.actions.end(copy, CANCELLED)).toBe('written');
      copy.attempts = 7;
      expect(await stores.actions.update(copy)).toBe(false);
      expect((await stores.actions.load(stored.record.actionUuid))!.record.status).toBe('failed');
    });

    it('end: the first ending is written and read by all; a second one loses the race and the first stands', async () => {
      const stored = newAction();
      await stores.actions.create(stored);
      const [byCancel, byRun] = [await stores.actions.load(stored.record.actionUuid), await stores.actions.load(stored.record.actionUuid)];
      expect(await stores.actions.end(byCancel!, CANCELLED)).toBe('written');
      expect(byCancel!.record).toMatchObject(CANCELLED);
      expect(byCancel!.record.finished_at).toBeDefined();
      expect(await stores.actions.end(byRun!, FINISHED)).toBe('lost-race');
      const read = (await stores.actions.load(stored.record.actionUuid))!;
      expect(read.record.status).toBe('failed');
      expect(read.record.solution).toBeUndefined();
    });

    it('an ending survives a restart, and so does a pending action', async () => {
      const [ended, pending] = [newAction(), newAction()];
      await stores.actions.create(ended);
      await stores.actions.create(pending);
      expect(await stores.actions.end(ended, FINISHED)).toBe('written');
      stores = await store.open();
      expect((await stores.actions.load(ended.record.actionUuid))!.record).toMatchObject({
        status: 'finished',
        solution: FINISHED.solution,
      });
      expect((await stores.actions.load(pending.record.actionUuid))!.record.status).toBe('pending');
    });

    it('remove deletes the action and its Idempotency-Key; removing it again is fine', async () => {
      const stored = newAction('key-alpha', {}, 'k2');
      await stores.actions.create(stored);
      await stores.actions.remove(stored.record.actionUuid);
      expect(await stores.actions.load(stored.record.actionUuid)).toBeNull();
      expect(await stores.actions.findByIdempotencyKey('key-alpha', 'k2')).toBeNull();
      await stores.actions.remove(stored.record.actionUuid);
    });

    it('endedBefore lists the actions that ended before the time, never pending ones', async () => {
      const [ended, pending] = [newAction('key-beta'), newAction('key-beta')];
      await stores.actions.create(ended);
      await stores.actions.create(pending);
      await stores.actions.end(ended, FINISHED);
      const later = new Date(Date.now() + 60_000);
      expect(await stores.actions.endedBefore(later)).toEqual([{ actionUuid: ended.record.actionUuid, owner: 'key-beta' }]);
      expect(await stores.actions.endedBefore(new Date(Date.now() - 60_000))).toEqual([]);
    });

    it('an ending written ending_untold is listed by endingsUntold, also after a restart, until endingTold; a removed one is not', async () => {
      const [untold, plain, removed] = [newAction(), newAction(), newAction()];
      for (const stored of [untold, plain, removed]) await stores.actions.create(stored);
      expect(await stores.actions.end({ ...removed, ending_untold: true }, FINISHED)).toBe('written');
      untold.ending_untold = true;
      expect(await stores.actions.end(untold, CANCELLED)).toBe('written');
      expect(await stores.actions.end(plain, FINISHED)).toBe('written');
      const listed = async (): Promise<string[]> => (await stores.actions.endingsUntold()).map((stored) => stored.record.actionUuid);
      expect((await listed()).sort()).toEqual([removed.record.actionUuid, untold.record.actionUuid].sort());
      await stores.actions.remove(removed.record.actionUuid);
      stores = await store.open();
      expect(await listed()).toEqual([untold.record.actionUuid]);
      expect((await stores.actions.endingsUntold())[0]).toMatchObject({ ending_untold: true, record: { status: 'failed' } });
      await stores.actions.endingTold(untold.record.actionUuid);
      await stores.actions.endingTold(untold.record.actionUuid);
      await stores.actions.endingTold(removed.record.actionUuid);
      expect(await listed()).toEqual([]);
      stores = await store.open();
      expect(await listed()).toEqual([]);
      const read = (await stores.actions.load(untold.record.actionUuid))!;
      expect(read.ending_untold).toBeUndefined();
      expect(read.record.status).toBe('failed');
    });

    it('listOf: the owner’s actions newest first (ids descending within an instant), by status, from a position on, also after a restart', async () => {
      const [a, b, c] = [newAction('key-list'), newAction('key-list'), newAction('key-list')];
      // Created in one instant with b: the id orders them.
      const twin = newAction('key-list', { created_at: b.record.created_at, updated_at: b.record.created_at });
      const foreign = newAction('key-other');
      for (const stored of [a, b, c, twin, foreign]) await stores.actions.create(stored);
      const started = { ...b, record: { ...b.record, started_at: '2030-01-02T00:00:00.000Z' } };
      await stores.actions.update(started);
      await stores.actions.end(started, CANCELLED);
      await stores.actions.end(c, FINISHED);
      const ids = (items: { actionUuid: string }[]): string[] => items.map((item) => item.actionUuid);
      const order = [c, twin, b, a].map((stored) => stored.record.actionUuid);
      for (const reopened of [false, true]) {
        if (reopened) stores = await store.open();
        expect(ids(await stores.actions.listOf('key-list', { limit: 10 })), `reopened: ${reopened}`).toEqual(order);
        expect(ids(await stores.actions.listOf('key-list', { limit: 2 }))).toEqual(order.slice(0, 2));
        const after = { created_at: twin.record.created_at, actionUuid: twin.record.actionUuid };
        expect(ids(await stores.actions.listOf('key-list', { limit: 10, after }))).toEqual(order.slice(2));
        expect(ids(await stores.actions.listOf('key-list', { limit: 10, status: 'pending' }))).toEqual(
          [twin, a].map((x) => x.record.actionUuid),
        );
        const [failed] = await stores.actions.listOf('key-list', { limit: 10, status: 'failed' });
        expect(failed).toEqual({
          actionUuid: b.record.actionUuid,
          actionName: 'optimize',
          status: 'failed',
          created_at: b.record.created_at,
          updated_at: started.record.updated_at,
          started_at: '2030-01-02T00:00:00.000Z',
          finished_at: started.record.finished_at,
          error: CANCELLED.error,
        });
        expect(await stores.actions.listOf('key-nobody', { limit: 10 })).toEqual([]);
      }
    });

    it('a project’s optimizations: newest first with their current status; the latest of each project in one look-up', async () => {
      const [older, newer, other] = [newAction(), newAction(), newAction()];
      for (const [stored, project] of [
        [older, 'p1'],
        [newer, 'p1'],
        [other, 'p2'],
      ] as const) {
        stored.record.project_id = project;
        await stores.actions.create(stored);
      }
      await stores.actions.end(older, FINISHED);
      const summaries = await stores.actions.of('p1');
      expect(summaries.map((summary) => [summary.actionUuid, summary.status])).toEqual([
        [newer.record.actionUuid, 'pending'],
        [older.record.actionUuid, 'finished'],
      ]);
      const latest = await stores.actions.latestOfEach(['p1', 'p2', 'p3']);
      expect([...latest.keys()].sort()).toEqual(['p1', 'p2']);
      expect(latest.get('p1')!.actionUuid).toBe(newer.record.actionUuid);
      expect(await stores.actions.of('p3')).toEqual([]);
    });

    it('a plan is listed with the kind its action was made with (reoptimized, edited), one stored before kinds as optimized', async () => {
      const [plain, edited, reoptimized] = [
        newAction(),
        newAction('key-alpha', { kind: 'edited' }),
        newAction('key-alpha', { actionName: 'reoptimize', kind: 'reoptimized' }),
      ];
      for (const stored of [plain, edited, reoptimized]) {
        stored.record.project_id = 'p9';
        await stores.actions.create(stored);
      }
      await stores.actions.end(reoptimized, FINISHED);
      const summaries = await stores.actions.of('p9');
      expect(summaries.map((summary) => summary.kind)).toEqual(['reoptimized', 'edited', 'optimized']);
      expect((await stores.actions.latestOfEach(['p9'])).get('p9')).toMatchObject({
        actionUuid: reoptimized.record.actionUuid,
        kind: 'reoptimized',
      });
    });

    it('progress of a running solve is readable while it is pending, and gone once it has ended', async () => {
      const stored = newAction();
      await stores.actions.create(stored);
      const progress = { elapsed_ms: 10, iterations: 3, served: 2, unserved: 0, routes_used: 1, cost: 42 };
      stores.actions.setProgress(stored.record.actionUuid, progress);
      await expect.poll(() => stores.actions.progressOf(stored.record.actionUuid)).toEqual(progress);
      await stores.actions.end(stored, FINISHED);
      expect(await stores.actions.progressOf(stored.record.actionUuid)).toBeUndefined();
    });
  });

  describe('projects', () => {
    it('a saved project reads back, by its Idempotency-Key too, and is in its owner’s list only', async () => {
      const project = newProject('p-one', 'key-alpha', { idempotency: { key: 'pk', fingerprint: 'f' } });
      await stores.projects.save(project);
      expect(await stores.projects.load('p-one')).toEqual(project);
      expect(await stores.projects.findByIdempotencyKey('key-alpha', 'pk')).toEqual(project);
      expect(await stores.projects.findByIdempotencyKey('key-beta', 'pk')).toBeNull();
      expect(await stores.projects.load('p-none')).toBeNull();
      expect((await stores.projects.summariesOf('key-alpha')).map((summary) => [summary.id, summary.drivers, summary.stops])).toEqual([
        ['p-one', 1, 0],
      ]);
      expect(await stores.projects.summariesOf('key-beta')).toEqual([]);
    });

    it('another project with an owner’s Idempotency-Key is refused (IdempotencyKeyTakenError); another owner may use the key', async () => {
      const claim = { idempotency: { key: 'pk-taken', fingerprint: 'f' } };
      await stores.projects.save(newProject('p-first', 'key-alpha', claim));
      await expect(stores.projects.save(newProject('p-second', 'key-alpha', claim))).rejects.toBeInstanceOf(IdempotencyKeyTakenError);
      await stores.projects.save(newProject('p-third', 'key-beta', claim));
    });

    it('a saved project replaces the one before; pendingGeocoding lists those whose geocoding is pending', async () => {
      const project = newProject('p-geo', 'key-alpha');
      project.record.geocoding_status = 'pending';
      await stores.projects.save(project);
      await stores.projects.save(newProject('p-plain', 'key-alpha'));
      expect((await stores.projects.pendingGeocoding()).map((stored) => stored.record.id)).toEqual(['p-geo']);
      project.record.geocoding_status = 'done';
      await stores.projects.save(project);
      expect(await stores.projects.pendingGeocoding()).toEqual([]);
      stores = await store.open();
      expect((await stores.projects.load('p-geo'))!.record.geocoding_status).toBe('done');
    });

    it('update: written while the stored version is the one expected (none stored reads as 1); stale or missing otherwise, nothing written', async () => {
      const project = newProject('p-cas', 'key-alpha');
      await stores.projects.save(project);
      const renamed = { ...project, record: { ...project.record, name: 'renamed', version: 2 } };
      expect(await stores.projects.update(renamed, 2)).toBe('stale');
      expect(await stores.projects.load('p-cas')).toEqual(project);
      expect(await stores.projects.update(renamed, 1)).toBe('updated');
      expect(await stores.projects.update({ ...renamed, record: { ...renamed.record, name: 'late', version: 2 } }, 1)).toBe('stale');
      expect(await stores.projects.update({ ...renamed, record: { ...renamed.record, id: 'p-none' } }, 1)).toBe('missing');
      expect(await stores.projects.load('p-none')).toBeNull();
      stores = await store.open();
      expect((await stores.projects.load('p-cas'))!.record).toMatchObject({ name: 'renamed', version: 2 });
      expect((await stores.projects.summariesOf('key-alpha')).map((summary) => summary.name)).toEqual(['renamed']);
    });

    it('update: of several changes expecting one version at once, exactly one is written, and it is the one stored', async () => {
      const project = newProject('p-race', 'key-alpha');
      project.record.geocoding_status = 'pending';
      await stores.projects.save(project);
      const changes = ['a', 'b', 'c', 'd'].map((name) => ({
        ...project,
        record: { ...project.record, name, version: 2, geocoding_status: 'done' as const },
      }));
      const outcomes = await Promise.all(changes.map((change) => stores.projects.update(change, 1)));
      expect(outcomes.filter((outcome) => outcome === 'updated')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'stale')).toHaveLength(3);
      const winner = changes[outcomes.indexOf('updated')]!;
      expect(await stores.projects.load('p-race')).toEqual(winner);
      expect(await stores.projects.pendingGeocoding()).toEqual([]);
    });

    it('remove deletes the project and frees its Idempotency-Key, for good; removing it again is fine', async () => {
      await stores.projects.save(newProject('p-gone', 'key-alpha', { idempotency: { key: 'pk-gone', fingerprint: 'f' } }));
      await stores.projects.save(newProject('p-stays', 'key-alpha'));
      await stores.projects.remove('p-gone');
      await stores.projects.remove('p-gone');
      expect(await stores.projects.load('p-gone')).toBeNull();
      expect(await stores.projects.findByIdempotencyKey('key-alpha', 'pk-gone')).toBeNull();
      expect((await stores.projects.summariesOf('key-alpha')).map((summary) => summary.id)).toEqual(['p-stays']);
      await stores.projects.save(newProject('p-new', 'key-alpha', { idempotency: { key: 'pk-gone', fingerprint: 'f' } }));
      stores = await store.open();
      expect(await stores.projects.load('p-gone')).toBeNull();
    });

    it('datedBefore lists the projects dated before a day, with their owners, none of that day or later', async () => {
      for (const [id, owner, date] of [
        ['p-old', 'key-alpha', '2030-01-01'],
        ['p-older', 'key-beta', '2029-12-31'],
        ['p-day', 'key-alpha', '2030-01-02'],
        ['p-later', 'key-beta', '2030-02-01'],
      ] as const) {
        const project = newProject(id, owner);
        await stores.projects.save({ ...project, record: { ...project.record, date } });
      }
      const listed = await stores.projects.datedBefore('2030-01-02');
      expect(listed.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
        { id: 'p-old', owner: 'key-alpha' },
        { id: 'p-older', owner: 'key-beta' },
      ]);
    });
  });

  describe('sessions', () => {
    it('a saved session reads back, also after a restart; remove and removeExpired delete sessions', async () => {
      const session = (expires: string): { owner: string; csrf_token: string; created_at: string; expires_at: string } => ({
        owner: 'key-alpha',
        csrf_token: 'csrf',
        created_at: '2030-01-01T00:00:00.000Z',
        expires_at: expires,
      });
      await stores.sessions.save('s-live', session('2030-01-02T00:00:00.000Z'));
      await stores.sessions.save('s-old', session('2030-01-01T01:00:00.000Z'));
      await stores.sessions.save('s-gone', session('2030-01-02T00:00:00.000Z'));
      stores = await store.open();
      expect(await stores.sessions.load('s-live')).toEqual(session('2030-01-02T00:00:00.000Z'));
      await stores.sessions.remove('s-gone');
      await stores.sessions.remove('s-gone');
      expect(await stores.sessions.load('s-gone')).toBeNull();
      expect(await stores.sessions.removeExpired(new Date('2030-01-01T12:00:00.000Z'))).toBe(1);
      expect(await stores.sessions.load('s-old')).toBeNull();
      expect(await stores.sessions.load('s-live')).not.toBeNull();
    });
  });

  describe('records by collection', () => {
    it('writes a record and reads it back; an unknown id reads as null', async () => {
      await stores.records.write('actions', 'a1', { status: 'pending' });
      expect(await stores.records.read('actions', 'a1')).toEqual({ status: 'pending' });
      expect(await stores.records.read('actions', 'nope')).toBeNull();
    });

    it('readAll returns every record of a collection; remove deletes one, and one already gone is fine', async () => {
      await stores.records.write('outbox', 'm1', { id: 1 });
      await stores.records.write('outbox', 'm2', { id: 2 });
      await stores.records.write('dispatches', 'm3', { id: 3 });
      await stores.records.remove('outbox', 'm2');
      await stores.records.remove('outbox', 'm2');
      const loaded = await stores.records.readAll<{ id: number }>('outbox');
      expect(loaded.records.map((record) => record.id)).toEqual([1]);
      expect(loaded.unreadable).toEqual([]);
    });

    it('exclusively: 20 read-modify-writes of one record at once all count; one that fails rejects, and the next still runs', async () => {
      const increment = (): Promise<void> =>
        stores.records.exclusively('dispatches', 'counted', async () => {
          const now = (await stores.records.read<{ count: number }>('dispatches', 'counted'))?.count ?? 0;
          // A pause between the read and the write, where another change would slip in without the lock.
          await new Promise((resolve) => setTimeout(resolve, 5));
          await stores.records.write('dispatches', 'counted', { count: now + 1 });
        });
      await Promise.all(Array.from({ length: 20 }, increment));
      expect(await stores.records.read('dispatches', 'counted')).toEqual({ count: 20 });
      const failing = stores.records.exclusively('dispatches', 'counted', () => Promise.reject(new Error('no')));
      await expect(failing).rejects.toThrow('no');
      expect(await stores.records.exclusively('dispatches', 'counted', () => Promise.resolve('next'))).toBe('next');
    });
  });

  describe('the outbox (customer messages)', () => {
    const message = (id: string, projectId: string, createdAt: string): StoredMessage => ({
      id,
      key: `${projectId}/${id}`,
      project_id: projectId,
      owner: 'key-alpha',
      kind: 'delivered',
      stop_id: 's1',
      to: 'north@example.com',
      subject: 'Delivered',
      text: 'Delivered.',
      created_at: createdAt,
      status: 'queued',
      attempts: 0,
      next_attempt_at: createdAt,
    });

    it('a message is stored once by its id: adding it again answers false and changes nothing; its project lists it, also after a restart', async () => {
      expect(await stores.outbox.add(message('m1', 'p1', '2026-11-23T08:00:00.000Z'))).toBe(true);
      expect(await stores.outbox.add(message('m2', 'p1', '2026-11-23T08:01:00.000Z'))).toBe(true);
      expect(await stores.outbox.add({ ...message('m1', 'p1', '2026-11-23T09:00:00.000Z'), subject: 'Again' })).toBe(false);
      await stores.outbox.add(message('m3', 'p2', '2026-11-23T08:02:00.000Z'));
      stores = await store.open();
      await stores.outbox.recover(() => undefined);
      const listed = await stores.outbox.ofProject('p1');
      expect(listed.map((stored) => [stored.id, stored.subject, stored.created_at])).toEqual([
        ['m1', 'Delivered', '2026-11-23T08:00:00.000Z'],
        ['m2', 'Delivered', '2026-11-23T08:01:00.000Z'],
      ]);
      expect(await stores.outbox.add(message('m1', 'p1', '2026-11-23T10:00:00.000Z'))).toBe(false);
    });

    it('claimDue hands a due message to one attempt at a time and writes what it answers; nextDue is the next queued one', async () => {
      await stores.outbox.add(message('m1', 'p1', '2026-11-23T08:00:00.000Z'));
      await stores.outbox.add(message('m2', 'p1', '2026-11-23T09:00:00.000Z'));
      const now = new Date('2026-11-23T08:30:00.000Z');
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const first = stores.outbox.claimDue(now, async (claimed) => {
        expect(claimed.id).toBe('m1');
        await held;
        return { ...claimed, status: 'sent', attempts: 1, sent_at: now.toISOString() };
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      // m1 is held by the first attempt, m2 is not due yet: none for a second one.
      expect(await stores.outbox.claimDue(now, () => Promise.reject(new Error('nothing is due')))).toBe(false);
      release();
      expect(await first).toBe(true);
      expect(await stores.outbox.nextDue()).toBe('2026-11-23T09:00:00.000Z');
      const listed = await stores.outbox.ofProject('p1');
      expect(listed.map((stored) => [stored.id, stored.status, stored.attempts])).toEqual([
        ['m1', 'sent', 1],
        ['m2', 'queued', 0],
      ]);
    });
  });

  describe('webhook deliveries', () => {
    const at = (seconds: number): Date => new Date(Date.UTC(2030, 0, 1, 0, 0, seconds));
    const delivery = (id: string, dueSecond: number): StoredDelivery => ({
      id,
      event_id: `event-${id}`,
      event_type: 'stop.done',
      url: 'http://127.0.0.1:9/hooks',
      body: `{"id":"event-${id}","type":"stop.done"}`,
      created_at: at(0).toISOString(),
      attempts: 0,
      next_attempt_at: at(dueSecond).toISOString(),
    });

    it('stores each delivery once by its id, and reads it back after a reopen', async () => {
      await stores.webhooks.add([delivery('a1', 0), delivery('b2', 5)]);
      await stores.webhooks.add([{ ...delivery('a1', 0), body: 'another' }]);
      stores = await store.open();
      await stores.webhooks.recover(() => undefined);
      expect(await stores.webhooks.pending()).toEqual([delivery('a1', 0), delivery('b2', 5)]);
      expect(await stores.webhooks.nextDue()).toBe(at(0).toISOString());
    });

    it('leases a due delivery to one holder until its lease ends; then another takes it, and the first cannot write', async () => {
      await stores.webhooks.add([delivery('a1', 0), delivery('b2', 5)]);
      expect(await stores.webhooks.claimDue(at(1), 'one', 10_000)).toEqual(delivery('a1', 0));
      // The other is not due yet, and the first is leased.
      expect(await stores.webhooks.claimDue(at(2), 'two', 10_000)).toBeNull();
      expect((await stores.webhooks.claimDue(at(6), 'two', 10_000))?.id).toBe('b2');
      // At 11 s the first lease has run out: "two" takes it over, and "one" (a process that hung) writes nothing.
      expect((await stores.webhooks.claimDue(at(11), 'two', 10_000))?.id).toBe('a1');
      expect(await stores.webhooks.settle({ ...delivery('a1', 0), attempts: 1 }, 'one', 'done')).toBe(false);
      expect(await stores.webhooks.settle({ ...delivery('a1', 0), attempts: 1 }, 'two', 'done')).toBe(true);
      expect((await stores.webhooks.pending()).map((kept) => kept.id)).toEqual(['b2']);
    });

    it('a retry writes the attempts, the next attempt and the error, and frees the delivery for any holder then', async () => {
      await stores.webhooks.add([delivery('a1', 0)]);
      const claimed = (await stores.webhooks.claimDue(at(1), 'one', 10_000))!;
      const retried = { ...claimed, attempts: 1, next_attempt_at: at(3).toISOString(), last_error: 'HTTP 500' };
      expect(await stores.webhooks.settle(retried, 'one', 'retry')).toBe(true);
      expect(await stores.webhooks.pending()).toEqual([retried]);
      expect(await stores.webhooks.claimDue(at(2), 'two', 10_000)).toBeNull();
      expect(await stores.webhooks.claimDue(at(3), 'two', 10_000)).toEqual(retried);
    });

    it('two holders claiming at once take two different deliveries', async () => {
      await stores.webhooks.add([delivery('a1', 0), delivery('b2', 0), delivery('c3', 0)]);
      const claims = await Promise.all(['one', 'two', 'three', 'four'].map((holder) => stores.webhooks.claimDue(at(1), holder, 10_000)));
      const ids = claims.filter((claim) => claim !== null).map((claim) => claim.id);
      expect(ids.sort()).toEqual(['a1', 'b2', 'c3']);
    });
  });

  describe('files (proof of delivery)', () => {
    it('a file reads back byte for byte, also after a restart; put replaces it; remove deletes it, and again is fine', async () => {
      const photo = new Uint8Array(300_000).map((_, index) => (index * 7919) % 256);
      await stores.blobs.put('0123456789abcdef0123456789abcdef', photo);
      await stores.blobs.put('fedcba9876543210fedcba9876543210', new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
      stores = await store.open();
      expect(await stores.blobs.get('0123456789abcdef0123456789abcdef')).toEqual(photo);
      expect(await stores.blobs.get('00000000000000000000000000000000')).toBeNull();
      await stores.blobs.put('fedcba9876543210fedcba9876543210', new Uint8Array([1, 2, 3]));
      expect(await stores.blobs.get('fedcba9876543210fedcba9876543210')).toEqual(new Uint8Array([1, 2, 3]));
      await stores.blobs.remove('0123456789abcdef0123456789abcdef');
      await stores.blobs.remove('0123456789abcdef0123456789abcdef');
      expect(await stores.blobs.get('0123456789abcdef0123456789abcdef')).toBeNull();
      expect(await stores.blobs.get('fedcba9876543210fedcba9876543210')).toEqual(new Uint8Array([1, 2, 3]));
    });
  });

  describe('the queue and the store together', () => {
    it('an admitted action is stored, handed to the worker once, and the store reads healthy', async () => {
      const stored = newAction();
      const handed: string[] = [];
      await stores.queue.work({
        solve: (actionUuid) => Promise.resolve(void handed.push(actionUuid)),
        gaveUp: () => Promise.resolve(),
      });
      await stores.queue.admit(stored);
      expect((await stores.actions.load(stored.record.actionUuid))?.record.status).toBe('pending');
      await expect.poll(() => handed, { timeout: 10_000 }).toEqual([stored.record.actionUuid]);
      expect((await stores.health()).writable).toBe(true);
    });
  });
});
