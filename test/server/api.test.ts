/**
 * The service's HTTP contract (decisions.md, "The service"), in-process with a scripted runner so
 * that orderings are decided by the test. The real solver is exercised in e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer } from '../../src/server/index.js';
import { InputError } from '../../src/errors.js';
import { ScriptedRunner, api, cannedPlan, makeDataDir, removeDir, smallOneOff, smallProject, servicesStoppedAfterEach } from './harness.js';

const service = servicesStoppedAfterEach();

function expectErrorShape(body: any, code?: string): void {
  expect(body).toHaveProperty('error');
  expect(typeof body.error.code).toBe('string');
  expect(typeof body.error.message).toBe('string');
  expect(Array.isArray(body.error.details)).toBe(true);
  if (code) expect(body.error.code).toBe(code);
}

describe('POST /schedules (one-off)', () => {
  it('accepts a valid one-off with 202 {actionUuid, actionName: "schedule", status: "pending"}', async () => {
    const svc = await service();
    const reply = await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
    expect(reply.status).toBe(202);
    expect(reply.body).toEqual({ actionUuid: expect.stringMatching(/^[0-9a-f-]{36}$/), actionName: 'schedule', status: 'pending' });
    expect(reply.headers.get('location')).toBe(`/v2/schedules/${reply.body.actionUuid}`);
  });

  it('pending → finished: the action carries `solution`, /solution answers the plan alone (409 before)', async () => {
    const svc = await service();
    const { body: ack } = await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
    await svc.runner.waitForStarts(1);
    const pending = await api(svc.url, 'GET', `/v2/schedules/${ack.actionUuid}`);
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ actionUuid: ack.actionUuid, actionName: 'schedule', status: 'pending' });
    const early = await api(svc.url, 'GET', `/v2/schedules/${ack.actionUuid}/solution`);
    expect(early.status).toBe(409);
    expectErrorShape(early.body, 'not_ready');

    svc.runner.finishNext({ ok: true, plan: cannedPlan('done') });
    await svc.running.close();
    const restarted = await service({ dataDir: svc.dataDir });
    const finished = await api(restarted.url, 'GET', `/v2/schedules/${ack.actionUuid}`);
    expect(finished.body.status).toBe('finished');
    expect(finished.body.solution).toEqual(cannedPlan('done'));
    const solution = await api(restarted.url, 'GET', `/v2/schedules/${ack.actionUuid}/solution`);
    expect(solution.status).toBe(200);
    expect(solution.body).toEqual(cannedPlan('done'));
  });

  it('a failed run makes the action `failed` with an `error`; /solution is 409', async () => {
    const runner = new ScriptedRunner({ ok: false, error: { code: 'routing_failed', message: 'no matrix', details: [] } });
    const svc = await service({ runner });
    const { body: ack } = await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
    await runner.waitForStarts(1);
    await svc.running.close();
    const again = await service({ dataDir: svc.dataDir, runner: new ScriptedRunner() });
    const action = await api(again.url, 'GET', `/v2/schedules/${ack.actionUuid}`);
    expect(action.body.status).toBe('failed');
    expect(action.body.error).toEqual({ code: 'routing_failed', message: 'no matrix', details: [] });
    expect((await api(again.url, 'GET', `/v2/schedules/${ack.actionUuid}/solution`)).status).toBe(409);
  });

  it('the worker solves exactly the accepted document, as a one-off', async () => {
    const svc = await service();
    const document = smallOneOff();
    await api(svc.url, 'POST', '/schedules', { body: document });
    await svc.runner.waitForStarts(1);
    expect(svc.runner.started[0]).toMatchObject({ kind: 'oneoff', document, timeLimitMs: 500, seed: 0 });
  });

  const rejections: [string, Record<string, unknown>, string][] = [
    ['a `date` field', smallOneOff({ date: '2026-11-23' }), 'date'],
    ['plain `routes`', { routes: [], ordersData: [] }, 'routes'],
    ['plain `orders`', { routesData: [], orders: [] }, 'orders'],
    ['plain and *Data forms mixed', { ...smallOneOff(), routes: [], orders: [] }, 'routes'],
    ['`workspaceUuid`', smallOneOff({ workspaceUuid: '0f8fad5b-d9cb-469f-a165-70867728950e' }), 'workspaceUuid'],
  ];
  for (const [what, body, path] of rejections) {
    it(`one-off rejection: ${what} → 400 naming ${path}, nothing stored`, async () => {
      const svc = await service();
      const reply = await api(svc.url, 'POST', '/schedules', { body });
      expect(reply.status).toBe(400);
      expectErrorShape(reply.body);
      expect(reply.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
      expect(await readdir(join(svc.dataDir, 'actions'))).toEqual([]);
    });
  }

  it('one-off limits: more than 500 routes or 5,000 orders → 400', async () => {
    const svc = await service({ bodyLimitBytes: 10 * 1024 * 1024 });
    const base = smallOneOff();
    const route = (base.routesData as unknown[])[0];
    const order = (base.ordersData as unknown[])[0];
    const tooManyRoutes = await api(svc.url, 'POST', '/schedules', {
      body: { ...base, routesData: Array.from({ length: 501 }, () => route) },
    });
    expect(tooManyRoutes.status).toBe(400);
    expect(JSON.stringify(tooManyRoutes.body.error)).toMatch(/500/);
    const tooManyOrders = await api(svc.url, 'POST', '/schedules', {
      body: { ...base, ordersData: Array.from({ length: 5001 }, () => order) },
    });
    expect(tooManyOrders.status).toBe(400);
    expect(JSON.stringify(tooManyOrders.body.error)).toMatch(/5,?000/);
  });

  it('a project body sent to /schedules is rejected (the endpoint takes one-off problems only)', async () => {
    const svc = await service();
    const reply = await api(svc.url, 'POST', '/schedules', { body: smallProject() });
    expect(reply.status).toBe(400);
    expectErrorShape(reply.body);
  });
});

describe('authentication', () => {
  it('missing key → 401 with WWW-Authenticate; wrong key → 401', async () => {
    const svc = await service();
    const missing = await api(svc.url, 'POST', '/schedules', { key: null, body: smallOneOff() });
    expect(missing.status).toBe(401);
    expectErrorShape(missing.body, 'unauthorized');
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = await api(svc.url, 'GET', '/v1.0/projects', { key: 'key-gamma' });
    expect(wrong.status).toBe(401);
  });

  it('the scheme word is accepted in any letter case (bearer, BEARER)', async () => {
    const svc = await service();
    expect((await api(svc.url, 'POST', '/schedules', { scheme: 'bearer', body: smallOneOff() })).status).toBe(202);
    expect((await api(svc.url, 'GET', '/v1.0/projects', { scheme: 'BEARER' })).status).toBe(200);
  });

  it("another key's action or project is 404, exactly like an unknown one", async () => {
    const svc = await service();
    const { body: ack } = await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
    const { body: project } = await api(svc.url, 'POST', '/v1.0/project', { body: smallProject() });
    for (const path of [`/v2/schedules/${ack.actionUuid}`, `/v2/schedules/${ack.actionUuid}/solution`, `/v1.0/project/${project.id}`]) {
      const other = await api(svc.url, 'GET', path, { key: 'key-beta' });
      expect(other.status).toBe(404);
      expectErrorShape(other.body, 'not_found');
    }
    expect((await api(svc.url, 'POST', `/v1.0/project/${project.id}/optimize`, { key: 'key-beta' })).status).toBe(404);
    expect((await api(svc.url, 'GET', '/v1.0/projects', { key: 'key-beta' })).body.projects).toEqual([]);
    expect((await api(svc.url, 'GET', `/v2/schedules/${ack.actionUuid}`)).status).toBe(200);
  });

  it('no key configured: refuses to start on a non-loopback host', async () => {
    const dataDir = await makeDataDir();
    try {
      await expect(
        startServer({
          port: 0,
          host: '0.0.0.0',
          dataDir,
          keys: [],
          concurrency: 1,
          queueSize: 1,
          timeLimitMs: 100,
          seed: 0,
          bodyLimitBytes: 1000,
          shutdownTimeoutMs: 100,
          runner: new ScriptedRunner(),
          logLine: () => undefined,
        }),
      ).rejects.toBeInstanceOf(InputError);
    } finally {
      await removeDir(dataDir);
    }
  });

  it('no key configured on loopback: open access, with a warning in the log', async () => {
    const svc = await service({ keys: [] });
    expect((await api(svc.url, 'POST', '/schedules', { key: null, body: smallOneOff() })).status).toBe(202);
    expect(svc.logs.some((line) => line.includes('open access'))).toBe(true);
  });

  it('keys never appear in the request log or in stored records', async () => {
    const svc = await service();
    await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
    await api(svc.url, 'POST', '/v1.0/project', { body: smallProject() });
    await api(svc.url, 'GET', '/v1.0/projects', { key: 'key-wrong-secret' });
    await svc.runner.waitForStarts(1);
    const stored = [
      ...(await readdir(join(svc.dataDir, 'actions'))).map((file) => join(svc.dataDir, 'actions', file)),
      ...(await readdir(join(svc.dataDir, 'projects'))).map((file) => join(svc.dataDir, 'projects', file)),
    ];
    const texts = [svc.logs.join('\n'), ...(await Promise.all(stored.map((file) => readFile(file, 'utf8'))))];
    for (const text of texts) {
      expect(text).not.toContain('key-alpha');
      expect(text).not.toContain('key-wrong-secret');
    }
  });
});

describe('HTTP errors never crash the service', () => {
  it('body over the limit → 413', async () => {
    const svc = await service({ bodyLimitBytes: 2048 });
    const reply = await api(svc.url, 'POST', '/schedules', { body: smallOneOff({ padding: 'x'.repeat(4096) }) });
    expect(reply.status).toBe(413);
    expectErrorShape(reply.body, 'payload_too_large');
    expect((await api(svc.url, 'GET', '/v1.0/projects')).status).toBe(200);
  });

  it('wrong content type → 415; malformed or empty JSON → 400', async () => {
    const svc = await service();
    const text = await api(svc.url, 'POST', '/schedules', { rawBody: JSON.stringify(smallOneOff()), contentType: 'text/plain' });
    expect(text.status).toBe(415);
    expectErrorShape(text.body, 'unsupported_media_type');
    const broken = await api(svc.url, 'POST', '/schedules', { rawBody: '{"routesData": [' });
    expect(broken.status).toBe(400);
    expectErrorShape(broken.body, 'malformed_json');
    const empty = await api(svc.url, 'POST', '/v1.0/project', { rawBody: '' });
    expect(empty.status).toBe(400);
    const notObject = await api(svc.url, 'POST', '/schedules', { rawBody: '[1, 2]' });
    expect(notObject.status).toBe(400);
    expectErrorShape(notObject.body);
  });

  it('unknown route → 404; wrong method → 405 with Allow', async () => {
    const svc = await service();
    const unknown = await api(svc.url, 'GET', '/v3/whatever');
    expect(unknown.status).toBe(404);
    expectErrorShape(unknown.body, 'not_found');
    const wrong = await api(svc.url, 'DELETE', '/schedules');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expectErrorShape(wrong.body, 'method_not_allowed');
    const put = await api(svc.url, 'PUT', '/v2/schedules/abc');
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, DELETE');
    expect((await api(svc.url, 'GET', '/v2/schedules/no-such-action')).status).toBe(404);
  });

  it('queue full → 429 with Retry-After, and the rejected request stores nothing', async () => {
    // One key may have the whole queue here (its share is the queue), so the queue itself fills.
    const svc = await service({ concurrency: 1, queueSize: 2, queuePerKey: 2 });
    const accepted = [];
    for (let i = 0; i < 3; i += 1) accepted.push(await api(svc.url, 'POST', '/schedules', { body: smallOneOff() }));
    expect(accepted.map((reply) => reply.status)).toEqual([202, 202, 202]);
    const refused = await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
    expect(refused.status).toBe(429);
    expectErrorShape(refused.body, 'queue_full');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await readdir(join(svc.dataDir, 'actions'))).toHaveLength(3);
    await svc.runner.waitForStarts(1);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('first') });
    await svc.runner.waitForStarts(2);
    expect((await api(svc.url, 'POST', '/schedules', { body: smallOneOff() })).status).toBe(202);
  });

  it('request log: one JSON line per request with method, path, status, duration_ms and the action id', async () => {
    const svc = await service();
    const { body: ack } = await api(svc.url, 'POST', '/schedules?x=1', { body: smallOneOff() });
    await api(svc.url, 'GET', '/nowhere');
    const lines = svc.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => 'method' in entry);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ method: 'POST', path: '/schedules', status: 202, action_id: ack.actionUuid });
    expect(typeof lines[0]!.duration_ms).toBe('number');
    expect(lines[1]).toMatchObject({ method: 'GET', path: '/nowhere', status: 404 });
  });
});

describe('projects (surface A)', () => {
  it('POST /v1.0/project → 201 with id, name, date, drivers and stops with ids, page url, created_at; nothing optimized', async () => {
    const svc = await service();
    const reply = await api(svc.url, 'POST', '/v1.0/project', { body: smallProject() });
    expect(reply.status).toBe(201);
    const record = reply.body;
    expect(record).toMatchObject({ name: 'Morning rounds', date: '2026-11-23' });
    expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(record.url).toBe(`${svc.url}/projects/${record.id}`);
    expect(typeof record.created_at).toBe('string');
    expect(record.drivers.map((driver: { name: string }) => driver.name)).toEqual(['Ana']);
    expect(record.stops.map((stop: { name: string }) => stop.name)).toEqual(['Bakery', 'Cafe']);
    const ids = [...record.drivers, ...record.stops].map((item: { id: string }) => item.id);
    expect(new Set(ids).size).toBe(3);
    expect(svc.runner.started).toHaveLength(0);
    expect((await api(svc.url, 'GET', `/v1.0/project/${record.id}`)).body).toEqual(record);
  });

  it('name and date are required: both missing → 400 naming both', async () => {
    const svc = await service();
    const { name: _name, date: _date, ...rest } = smallProject();
    const reply = await api(svc.url, 'POST', '/v1.0/project', { body: rest });
    expect(reply.status).toBe(400);
    const paths = reply.body.error.details.map((detail: { path: string }) => detail.path);
    expect(paths).toContain('name');
    expect(paths).toContain('date');
  });

  it('invalid drivers or stops are rejected with the path of the field', async () => {
    const svc = await service();
    const body = smallProject();
    (body.stops as Record<string, unknown>[])[1]!.priority = 'urgent';
    const reply = await api(svc.url, 'POST', '/v1.0/project', { body });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details.map((detail: { path: string }) => detail.path)).toContain('stops[1].priority');
  });

  it("GET /v1.0/projects lists the key's projects only, newest first", async () => {
    const svc = await service();
    const first = (await api(svc.url, 'POST', '/v1.0/project', { body: smallProject({ name: 'one' }) })).body;
    const second = (await api(svc.url, 'POST', '/v1.0/project', { body: smallProject({ name: 'two' }) })).body;
    await api(svc.url, 'POST', '/v1.0/project', { key: 'key-beta', body: smallProject({ name: 'theirs' }) });
    const list = (await api(svc.url, 'GET', '/v1.0/projects')).body.projects;
    expect(list.map((project: { id: string }) => project.id).sort()).toEqual([first.id, second.id].sort());
    expect(list[0]).toMatchObject({ drivers: 1, stops: 2 });
  });

  it('internal optimize route: 202 action `optimize` that solves the stored project', async () => {
    const svc = await service();
    const project = (await api(svc.url, 'POST', '/v1.0/project', { body: smallProject() })).body;
    const reply = await api(svc.url, 'POST', `/v1.0/project/${project.id}/optimize`);
    expect(reply.status).toBe(202);
    expect(reply.body).toMatchObject({ actionName: 'optimize', status: 'pending', project_id: project.id });
    await svc.runner.waitForStarts(1);
    expect(svc.runner.started[0]).toMatchObject({ kind: 'project', document: smallProject() });
    const action = await api(svc.url, 'GET', `/v2/schedules/${reply.body.actionUuid}`);
    expect(action.body).toMatchObject({ actionName: 'optimize', project_id: project.id });
  });
});

describe('durability', () => {
  it('every accepted action survives a restart and pending ones run to the end', async () => {
    const first = await service({ concurrency: 1, queueSize: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await api(first.url, 'POST', '/schedules', { body: smallOneOff() })).body.actionUuid);
    await first.runner.waitForStarts(1);
    first.runner.finishNext({ ok: true, plan: cannedPlan('before restart') });
    await first.runner.waitForStarts(2);
    // Shut down while the second runs: the bounded wait ends, it is interrupted and stays pending.
    await first.running.close();

    const secondRunner = new ScriptedRunner({ ok: true, plan: cannedPlan('after restart') });
    const second = await service({ dataDir: first.dataDir, runner: secondRunner });
    await secondRunner.waitForStarts(3);
    await second.running.close();
    expect(secondRunner.started).toHaveLength(3);
    const third = await service({ dataDir: first.dataDir, runner: new ScriptedRunner() });
    const statuses = [];
    for (const id of ids) statuses.push((await api(third.url, 'GET', `/v2/schedules/${id}`)).body);
    expect(statuses.map((action) => action.status)).toEqual(['finished', 'finished', 'finished', 'finished']);
    expect(statuses[0].solution).toEqual(cannedPlan('before restart'));
    expect(statuses[3].solution).toEqual(cannedPlan('after restart'));
    expect(third.runner.started).toHaveLength(0);
  });

  it('projects survive a restart', async () => {
    const first = await service();
    const project = (await api(first.url, 'POST', '/v1.0/project', { body: smallProject() })).body;
    await first.running.close();
    const second = await service({ dataDir: first.dataDir });
    expect((await api(second.url, 'GET', `/v1.0/project/${project.id}`)).body).toEqual(project);
    expect((await api(second.url, 'GET', '/v1.0/projects')).body.projects).toHaveLength(1);
  });

  it('shutdown waits for a running solve (bounded) and keeps its result; a second close() is harmless', async () => {
    const svc = await service({ shutdownTimeoutMs: 60_000 });
    await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
    await svc.runner.waitForStarts(1);
    const closing = svc.running.close();
    svc.runner.finishNext({ ok: true, plan: cannedPlan('finished during shutdown') });
    await closing;
    await svc.running.close();
    const again = await service({ dataDir: svc.dataDir });
    const list = await readdir(join(svc.dataDir, 'actions'));
    const action = await api(again.url, 'GET', `/v2/schedules/${list[0]!.replace('.json', '')}`);
    expect(action.body.status).toBe('finished');
  });
});
