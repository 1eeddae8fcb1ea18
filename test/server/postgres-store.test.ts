/**
 * The PostgreSQL store (decisions.md, "Running the service on more than one machine"), on a real
 * server (test/support/postgres.ts): two services in this process share one database as two
 * `serve` processes would, each with its own scripted solver.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PgBoss } from 'pg-boss';
import { ORPHAN_AGE_SECONDS } from '../../src/server/store/postgres/solve-queue.js';
import { MIGRATIONS } from '../../src/server/store/postgres/migrations.js';
import { databasePerTest, postgresUnavailable, withClient } from '../support/postgres.js';
import {
  api,
  cannedPlan,
  ScriptedRunner,
  smallOneOff,
  smallProject,
  servicesStoppedAfterEach,
  startTestService,
  type TestService,
} from './harness.js';
import { call, signIn } from './web-harness.js';
import { InProcessRunner, optimizedProject, tokenOf } from './dispatch-harness.js';

const DAY_MS = 86_400_000;

describe.skipIf(postgresUnavailable())('the PostgreSQL store', () => {
  const db = databasePerTest();
  const service = servicesStoppedAfterEach(() => ({ database: db().url }));

  async function submit(svc: TestService, key = 'key-alpha', headers: Record<string, string> = {}, body = smallOneOff()): Promise<any> {
    const response = await fetch(`${svc.url}/schedules`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  const statusIn = async (svc: TestService, id: string, key = 'key-alpha'): Promise<string | number> => {
    const reply = await api(svc.url, 'GET', `/v2/schedules/${id}`, { key });
    return reply.status === 200 ? reply.body.status : reply.status;
  };

  it('two processes on one database: an action accepted by either is solved once, by one of them, and readable from both', async () => {
    const plan = { ok: true as const, plan: cannedPlan('shared') };
    const a = await service({ runner: new ScriptedRunner(plan), queueSize: 50 });
    const b = await service({ runner: new ScriptedRunner(plan), queueSize: 50 });
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const accepted = await submit(i % 2 === 0 ? a : b);
      expect(accepted.status).toBe(202);
      ids.push(accepted.body.actionUuid);
    }
    for (const id of ids) await expect.poll(() => statusIn(a, id), { timeout: 20_000 }).toBe('finished');
    for (const id of ids) {
      const [fromA, fromB] = [await api(a.url, 'GET', `/v2/schedules/${id}`), await api(b.url, 'GET', `/v2/schedules/${id}`)];
      expect(fromB.body).toEqual(fromA.body);
      expect(fromA.body.solution).toEqual(cannedPlan('shared'));
    }
    // Exactly once: 20 solves started in all, each action ended once.
    expect(a.runner.started.length + b.runner.started.length).toBe(20);
    const ended = [...a.logs, ...b.logs].filter((line) => line.includes('"event":"solve_ended"'));
    expect(ended).toHaveLength(20);
    expect(new Set(ended.map((line) => JSON.parse(line).action_id))).toEqual(new Set(ids));
    // Another key sees none of them, from either process.
    expect(await statusIn(b, ids[0]!, 'key-beta')).toBe(404);
  });

  it('a project created on one process is listed, read and optimized from the other', async () => {
    const a = await service({ role: 'api' });
    const b = await service({ runner: new ScriptedRunner({ ok: true, plan: cannedPlan('project') }) });
    const created = await api(a.url, 'POST', '/v1.0/project', { body: smallProject() });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await api(b.url, 'GET', '/v1.0/projects')).body.projects.map((project: any) => project.id)).toEqual([id]);
    const optimize = await api(b.url, 'POST', `/v1.0/project/${id}/optimize`);
    expect(optimize.status).toBe(202);
    await expect.poll(() => statusIn(a, optimize.body.actionUuid), { timeout: 20_000 }).toBe('finished');
    const read = await api(a.url, 'GET', `/v1.0/project/${id}`);
    expect(read.body.optimizations).toEqual([expect.objectContaining({ actionUuid: optimize.body.actionUuid, status: 'finished' })]);
    expect((await api(a.url, 'GET', '/v1.0/projects')).body.projects[0].latest_optimization.status).toBe('finished');
  });

  it('a browser signed in on one process is signed in on the other', async () => {
    const a = await service();
    const b = await service({ role: 'api' });
    const session = await signIn(a.url, 'key-alpha');
    const onB = await call(b.url, 'GET', '/session', { cookie: session.cookie });
    expect(onB.status).toBe(200);
    expect(onB.body.csrfToken).toBe(session.csrf);
  });

  it('dispatch on one process: the driver’s link opens on the other, and a report made there is what the dispatcher sees', async () => {
    const a = await service({ runner: new InProcessRunner() as never });
    const b = await service({ role: 'api' });
    const { id } = await optimizedProject(a);
    const dispatched = await api(a.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: {} });
    expect(dispatched.status).toBe(201);
    const driver = dispatched.body.drivers.find((entry: any) => entry.url !== null);
    const route = await api(b.url, 'GET', `/drivers/${tokenOf(driver.url)}/route`, { key: null });
    expect(route.status).toBe(200);
    const stopId = route.body.stops[0].stop_id;
    const report = await api(b.url, 'POST', `/drivers/${tokenOf(driver.url)}/stops/${stopId}`, { key: null, body: { status: 'done' } });
    expect(report.status).toBe(200);
    const seen = await api(a.url, 'GET', `/v1.0/project/${id}/dispatch`);
    expect(seen.body.stops.find((stop: any) => stop.stop_id === stopId).status).toBe('done');
    expect((await api(b.url, 'GET', `/v1.0/project/${id}`)).body.dispatch.stops.find((stop: any) => stop.stop_id === stopId).status).toBe(
      'done',
    );
  });

  it('proof of delivery in the database: a photo reported on one process is served by the other, and deleted with its report', async () => {
    const a = await service({ runner: new InProcessRunner() as never });
    const b = await service({ role: 'api' });
    const { id } = await optimizedProject(a);
    const driver = (await api(a.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: {} })).body.drivers[0];
    const token = tokenOf(driver.url);
    const stopId = (await api(b.url, 'GET', `/drivers/${token}/route`, { key: null })).body.stops[0].stop_id;
    const photo = readFileSync(join(import.meta.dirname, 'proof-images', 'photo.jpg'));
    const report = await api(b.url, 'POST', `/drivers/${token}/stops/${stopId}`, {
      key: null,
      body: { status: 'done', photo: photo.toString('base64'), recipient: 'Mme Durand' },
    });
    expect([report.status, report.body.proof.recipient]).toEqual([200, 'Mme Durand']);
    const url = (await api(a.url, 'GET', `/v1.0/project/${id}/dispatch`)).body.stops.find((stop: any) => stop.stop_id === stopId).proof
      .photo_url;
    const served = await fetch(`${a.url}${url}`, { headers: { authorization: 'Bearer key-alpha' } });
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect(Buffer.from(await served.arrayBuffer()).equals(photo)).toBe(true);
    await api(a.url, 'POST', `/drivers/${token}/stops/${stopId}`, { key: null, body: { status: 'planned' } });
    expect((await fetch(`${b.url}${url}`, { headers: { authorization: 'Bearer key-alpha' } })).status).toBe(404);
    const rows = await withClient(db().url, (client) => client.query('SELECT count(*)::int AS n FROM routeplan_blobs'));
    expect(rows.rows[0].n).toBe(0);
  });

  it('DELETE from one process stops the solve running on the other, and the action is gone from both', async () => {
    const a = await service({ role: 'api' });
    const b = await service();
    const { actionUuid } = (await submit(a)).body;
    await b.runner.waitForStarts(1);
    expect((await api(a.url, 'DELETE', `/v2/schedules/${actionUuid}`)).status).toBe(204);
    await expect.poll(() => b.runner.aborted.length, { timeout: 15_000 }).toBe(1);
    expect(await statusIn(a, actionUuid)).toBe(404);
    expect(await statusIn(b, actionUuid)).toBe(404);
    // Another key's DELETE is a 404, and leaves the action alone.
    const other = (await submit(a)).body.actionUuid;
    expect((await api(a.url, 'DELETE', `/v2/schedules/${other}`, { key: 'key-beta' })).status).toBe(404);
    expect(await statusIn(b, other)).toBe('pending');
  });

  it('a cancel of a waiting solve: it never runs; of a running one: its worker stops it', async () => {
    const a = await service({ role: 'api' });
    const b = await service({ concurrency: 1 });
    const running = (await submit(a)).body.actionUuid;
    await b.runner.waitForStarts(1);
    const waiting = (await submit(a)).body.actionUuid;
    const cancelled = await api(a.url, 'POST', `/v2/schedules/${waiting}/cancel`);
    expect(cancelled.body).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    expect((await api(a.url, 'POST', `/v2/schedules/${running}/cancel`)).body.status).toBe('failed');
    await expect.poll(() => b.runner.aborted.length, { timeout: 15_000 }).toBe(1);
    // The worker is free, yet the cancelled waiting solve never starts.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(b.runner.started).toHaveLength(1);
    expect(await statusIn(b, waiting)).toBe('failed');
  });

  it('Idempotency-Key: the same request to both processes at once makes one action; another request with the key is a 409', async () => {
    const a = await service({ role: 'api' });
    const b = await service({ role: 'api' });
    const header = { 'idempotency-key': 'order-2026-11-25' };
    const [first, second] = await Promise.all([submit(a, 'key-alpha', header), submit(b, 'key-alpha', header)]);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.body.actionUuid).toBe(first.body.actionUuid);
    const replays = [first, second].filter((reply) => reply.headers.get('idempotent-replayed') === 'true');
    expect(replays).toHaveLength(1);
    const conflict = await submit(b, 'key-alpha', header, smallOneOff({ options: { minimizeVehicles: true } }));
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('idempotency_conflict');
    // Per key: another API key may use the same value for its own action.
    expect((await submit(a, 'key-beta', header)).body.actionUuid).not.toBe(first.body.actionUuid);
  });

  it('retention: the sweep deletes actions that ended more than --retention days ago, never pending ones', async () => {
    const runner = new ScriptedRunner();
    const a = await service({ runner });
    const ended = (await submit(a)).body.actionUuid;
    await runner.waitForStarts(1);
    runner.finishNext({ ok: true, plan: cannedPlan('old') });
    await expect.poll(() => statusIn(a, ended)).toBe('finished');
    const pending = (await submit(a)).body.actionUuid;
    await runner.waitForStarts(2);
    const later = await service({ role: 'api', now: () => new Date(Date.now() + 31 * DAY_MS) });
    expect(await statusIn(later, ended)).toBe(404);
    expect(await statusIn(later, pending)).toBe('pending');
    expect(later.logs.some((line) => line.includes('"event":"retention_sweep"') && line.includes('"deleted":1'))).toBe(true);
  });

  it('fairness: each key’s first waiting solve starts before any key’s second; a key past its quota alone gets 429', async () => {
    const a = await service({ role: 'api', queuePerKey: 2 });
    const runner = new ScriptedRunner();
    const b = await service({ runner, concurrency: 1, queuePerKey: 2 });
    const first = (await submit(a, 'key-alpha')).body.actionUuid;
    await runner.waitForStarts(1);
    const alpha = [(await submit(a, 'key-alpha')).body.actionUuid, (await submit(a, 'key-alpha')).body.actionUuid];
    const refused = await submit(a, 'key-alpha');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('key_quota_exceeded');
    const beta = (await submit(a, 'key-beta')).body.actionUuid;
    for (let started = 1; started <= 3; started += 1) {
      runner.finishNext({ ok: true, plan: cannedPlan(`run ${started}`) });
      await runner.waitForStarts(started + 1);
    }
    runner.finishNext({ ok: true, plan: cannedPlan('last') });
    const order = [first, ...alpha, beta];
    const startedIds = await Promise.all(order.map(async (id) => ({ id, at: await startedAt(db().url, id) })));
    startedIds.sort((x, y) => x.at - y.at);
    expect(startedIds.map((entry) => entry.id)).toEqual([first, alpha[0], beta, alpha[1]]);
    const health = await api(b.url, 'GET', '/healthz');
    expect(health.body.store).toEqual({ kind: 'postgres', writable: true });
  });

  it('an action whose runs were all cut short fails with too_many_attempts, once the queue gives up on it', async () => {
    const a = await service({ role: 'api' });
    const { actionUuid } = (await submit(a)).body;
    // Five runs whose workers died: the test claims the job and fails it, as the heartbeat check would.
    const boss = new PgBoss({ connectionString: db().url, schema: 'routeplan_jobs', supervise: false });
    await boss.start();
    try {
      for (let run = 1; run <= 5; run += 1) {
        const job = await waitForJob(boss);
        expect(job.id).toBe(actionUuid);
        await boss.fail('routeplan-solve', job.id, { message: 'worker died' });
      }
    } finally {
      await boss.stop({ graceful: false });
    }
    expect(await statusIn(a, actionUuid)).toBe('pending');
    await service({ role: 'worker' });
    await expect.poll(() => statusIn(a, actionUuid), { timeout: 20_000 }).toBe('failed');
    const failed = await api(a.url, 'GET', `/v2/schedules/${actionUuid}`);
    expect(failed.body.error.code).toBe('too_many_attempts');
  });

  it('an action stored without its job (its API process died in between) is queued again by the next process to look', async () => {
    const a = await service({ role: 'api' });
    const { actionUuid } = (await submit(a)).body;
    const boss = new PgBoss({ connectionString: db().url, schema: 'routeplan_jobs', supervise: false });
    await boss.start();
    await boss.deleteJob('routeplan-solve', actionUuid);
    await boss.stop({ graceful: false });
    await new Promise((resolve) => setTimeout(resolve, (ORPHAN_AGE_SECONDS + 1) * 1000));
    const worker = await service({ role: 'worker', runner: new ScriptedRunner({ ok: true, plan: cannedPlan('orphan') }) });
    await expect.poll(() => statusIn(a, actionUuid), { timeout: 20_000 }).toBe('finished');
    expect(worker.logs.some((line) => line.includes('"event":"orphans_requeued"') && line.includes('"count":1'))).toBe(true);
  }, 40_000);

  it('a database that refuses connections: 503 storage_unavailable with Retry-After and /healthz 503, then well again', async () => {
    const a = await service({ role: 'api' });
    const name = new URL(db().url).pathname.slice(1);
    const admin = new URL(db().url);
    admin.pathname = '/postgres';
    await withClient(admin.toString(), async (client) => {
      await client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    });
    const refused = await submit(a);
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('storage_unavailable');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const health = await api(a.url, 'GET', '/healthz');
    expect(health.status).toBe(503);
    expect(health.body.store).toMatchObject({ kind: 'postgres', writable: false });
    await withClient(admin.toString(), (client) => client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
    await expect.poll(async () => (await api(a.url, 'GET', '/healthz')).status, { timeout: 15_000 }).toBe(200);
    expect((await submit(a)).status).toBe(202);
  });

  it('migrates the schema once, and refuses a database that a newer routeplan has migrated', async () => {
    const a = await service();
    expect(
      a.logs.some((line) => line.includes('"event":"database_ready"') && line.includes(`"migrations_applied":${MIGRATIONS.length}`)),
    ).toBe(true);
    const b = await service();
    expect(b.logs.some((line) => line.includes('"event":"database_ready"') && line.includes('"migrations_applied":0'))).toBe(true);
    await withClient(db().url, (client) =>
      client.query("INSERT INTO routeplan_migrations (version, name) VALUES (999, 'from the future')"),
    );
    await expect(startTestService({ database: db().url })).rejects.toThrow(/newer than this routeplan knows/);
  });

  it('roles: an api process solves nothing, a worker answers /healthz only; api and worker need a database', async () => {
    const api1 = await service({ role: 'api' });
    const { actionUuid } = (await submit(api1)).body;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(api1.runner.started).toHaveLength(0);
    const worker = await service({ role: 'worker', runner: new ScriptedRunner({ ok: true, plan: cannedPlan('w') }) });
    await expect.poll(() => statusIn(api1, actionUuid), { timeout: 20_000 }).toBe('finished');
    expect((await api(worker.url, 'GET', '/healthz')).status).toBe(200);
    expect((await api(worker.url, 'GET', `/v2/schedules/${actionUuid}`)).status).toBe(404);
    await expect(startTestService({ role: 'worker' })).rejects.toThrow(/--role worker needs --database/);
  });
});

/** The next solve job, claimed as a worker would claim it. */
async function waitForJob(boss: PgBoss): Promise<{ id: string }> {
  for (let tries = 0; tries < 100; tries += 1) {
    const [job] = await boss.fetch<{ actionUuid: string }>('routeplan-solve');
    if (job) return job;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('no job to claim');
}

/** When the action's (last) run started, from the row every process shares. */
async function startedAt(url: string, actionUuid: string): Promise<number> {
  const { rows } = await withClient(url, (client) =>
    client.query<{ started_at: Date }>('SELECT started_at FROM routeplan_actions WHERE action_uuid = $1', [actionUuid]),
  );
  return rows[0]!.started_at.getTime();
}
