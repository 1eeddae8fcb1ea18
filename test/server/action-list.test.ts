/**
 * GET /v2/schedules?status=&limit=&cursor= (issue 28, "Jobs a team can see"), on both stores (a
 * real PostgreSQL, test/support/postgres.ts): the calling key's actions only, newest first, each
 * with its status, times and, when failed, its error; paged by an opaque cursor that stays right
 * while new actions arrive; a bad query is 400 naming the parameter.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, cannedPlan, ScriptedRunner, servicesStoppedAfterEach, smallOneOff, type TestService } from './harness.js';
import { freshDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres.js';
import { actionListAnswerSchema } from '../../src/server/action-list.js';

const start = servicesStoppedAfterEach();

/** The order the list promises: newest first, ids descending within one instant. */
function newestFirst(records: { actionUuid: string; created_at: string }[]): string[] {
  return [...records]
    .sort((a, b) => (a.created_at === b.created_at ? b.actionUuid.localeCompare(a.actionUuid) : b.created_at.localeCompare(a.created_at)))
    .map((record) => record.actionUuid);
}

async function listed(svc: TestService, query = '', key = 'key-alpha'): Promise<any> {
  const reply = await api(svc.url, 'GET', `/v2/schedules${query}`, { key });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  // The answer is what its schema (the OpenAPI document's source) says.
  expect(actionListAnswerSchema.strict().safeParse(reply.body).success).toBe(true);
  return reply.body;
}

async function submit(svc: TestService, key = 'key-alpha'): Promise<string> {
  const reply = await api(svc.url, 'POST', '/schedules', { key, body: smallOneOff() });
  expect(reply.status).toBe(202);
  return reply.body.actionUuid as string;
}

async function recordsOf(svc: TestService, ids: string[]): Promise<any[]> {
  return Promise.all(ids.map(async (id) => (await api(svc.url, 'GET', `/v2/schedules/${id}`)).body));
}

function listTests(storeOptions: () => { database?: string }): void {
  it("lists the key's own actions newest first, with status, times and a failed one's error; ?status= filters", async () => {
    const runner = new ScriptedRunner();
    const svc = await start({ ...storeOptions(), runner, concurrency: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await submit(svc));
    const other = await submit(svc, 'key-beta');
    await runner.waitForStarts(1);
    runner.finishNext({ ok: true, plan: cannedPlan('first') });
    await runner.waitForStarts(2);
    expect((await api(svc.url, 'POST', `/v2/schedules/${ids[1]}/cancel`)).status).toBe(200);
    const records = await recordsOf(svc, ids);
    const all = await listed(svc);
    expect(all.actions.map((action: any) => action.actionUuid)).toEqual(newestFirst(records));
    expect(all.next_cursor).toBeNull();
    const byId = new Map(all.actions.map((action: any) => [action.actionUuid, action]));
    expect(byId.get(ids[0])).toEqual({
      actionUuid: ids[0],
      actionName: 'schedule',
      status: 'finished',
      created_at: records[0].created_at,
      updated_at: records[0].updated_at,
      started_at: records[0].started_at,
      finished_at: records[0].finished_at,
    });
    expect(byId.get(ids[1])).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    expect(byId.has(other)).toBe(false);
    expect((await listed(svc, '?status=failed')).actions.map((action: any) => action.actionUuid)).toEqual([ids[1]]);
    expect((await listed(svc, '?status=finished')).actions.map((action: any) => action.actionUuid)).toEqual([ids[0]]);
    const pending = (await listed(svc, '?status=pending')).actions;
    expect(pending.map((action: any) => action.actionUuid)).toEqual(newestFirst(records.slice(2)));
    expect(pending.every((action: any) => action.error === undefined)).toBe(true);
    expect((await listed(svc, '', 'key-beta')).actions.map((action: any) => action.actionUuid)).toEqual([other]);
  });

  it('pages through every action once by the cursor, newer actions arriving meanwhile changing no later page', async () => {
    const svc = await start({
      ...storeOptions(),
      queueSize: 50,
      queuePerKey: 50,
      runner: new ScriptedRunner({ ok: true, plan: cannedPlan('quick') }),
    });
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) ids.push(await submit(svc));
    const expected = newestFirst(await recordsOf(svc, ids));
    const first = await listed(svc, '?limit=3');
    expect(first.actions.map((action: any) => action.actionUuid)).toEqual(expected.slice(0, 3));
    expect(first.next_cursor).toEqual(expect.any(String));
    await submit(svc);
    const second = await listed(svc, `?limit=3&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(second.actions.map((action: any) => action.actionUuid)).toEqual(expected.slice(3, 6));
    const third = await listed(svc, `?cursor=${encodeURIComponent(second.next_cursor)}&limit=3`);
    expect(third.actions.map((action: any) => action.actionUuid)).toEqual(expected.slice(6));
    expect(third.next_cursor).toBeNull();
    expect((await listed(svc)).actions).toHaveLength(8);
    // Another key's cursor is only a position: it shows nothing of the key that made it.
    expect((await listed(svc, `?cursor=${encodeURIComponent(first.next_cursor)}`, 'key-beta')).actions).toEqual([]);
  });

  it('refuses a bad query with 400 invalid_query naming the parameter', async () => {
    const svc = await start(storeOptions());
    const refusals: [string, string][] = [
      ['?status=cancelled', 'status'],
      ['?status=failed&status=pending', 'status'],
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?limit=ten', 'limit'],
      ['?limit=2.5', 'limit'],
      ['?cursor=not-a-cursor', 'cursor'],
      [`?cursor=${Buffer.from('{"c":"yesterday","i":"x"}').toString('base64url')}`, 'cursor'],
      ['?state=failed', 'state'],
    ];
    for (const [query, path] of refusals) {
      const reply = await api(svc.url, 'GET', `/v2/schedules${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.body.error.code).toBe('invalid_query');
      expect(reply.body.error.details.map((detail: any) => detail.path)).toEqual([path]);
    }
    expect((await api(svc.url, 'GET', '/v2/schedules?limit=200')).status).toBe(200);
    expect((await api(svc.url, 'GET', '/v2/schedules', { key: null })).status).toBe(401);
    expect((await api(svc.url, 'POST', '/v2/schedules', { body: {} })).status).toBe(405);
  });
}

describe('GET /v2/schedules on the data directory', () => {
  listTests(() => ({}));
});

describe.skipIf(postgresUnavailable())('GET /v2/schedules on PostgreSQL', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    await db.drop();
  });
  listTests(() => ({ database: db.url }));
});
