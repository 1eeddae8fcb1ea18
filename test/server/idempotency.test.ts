/**
 * `Idempotency-Key` on the POSTs that create an action (issue 11; Stripe's idempotent requests):
 * a repeat gets the first action, a different request with the same key a 409, per API key,
 * for as long as the action exists, across restarts.
 */
import { describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { api, cannedPlan, smallOneOff, smallProject, type ApiReply, type TestService, servicesStoppedAfterEach } from './harness.js';

const service = servicesStoppedAfterEach();

async function post(svc: TestService, path: string, key: string, options: { body?: unknown; apiKey?: string } = {}): Promise<ApiReply> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey ?? 'key-alpha'}`, 'idempotency-key': key };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${svc.url}${path}`, {
    method: 'POST',
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? '' : JSON.parse(text) };
}

const actionFiles = async (svc: TestService): Promise<string[]> =>
  (await readdir(join(svc.dataDir, 'actions'))).filter((file) => file.endsWith('.json'));

describe('Idempotency-Key', () => {
  it('same key + same body → the first action: its 202 answer again, marked Idempotent-Replayed, and one action solved', async () => {
    const svc = await service();
    const first = await post(svc, '/schedules', 'order-42', { body: smallOneOff() });
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    await svc.runner.waitForStarts(1);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('once') });
    await expect.poll(async () => (await api(svc.url, 'GET', `/v2/schedules/${first.body.actionUuid}`)).body.status).toBe('finished');

    // The same document with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(smallOneOff()).reverse());
    const again = await post(svc, '/schedules', 'order-42', { body: reordered });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(`/v2/schedules/${first.body.actionUuid}`);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await actionFiles(svc)).toHaveLength(1);
    expect(svc.runner.started).toHaveLength(1);
  });

  it('same key + different body → 409 idempotency_conflict, and nothing is created', async () => {
    const svc = await service();
    const first = await post(svc, '/schedules', 'order-43', { body: smallOneOff() });
    const other = await post(svc, '/schedules', 'order-43', { body: smallOneOff({ options: { allowVisitLateness: true } }) });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
    expect(other.body.error.details).toEqual([{ path: 'Idempotency-Key', message: `already used for action ${first.body.actionUuid}` }]);
    expect(await actionFiles(svc)).toHaveLength(1);
  });

  it('keys are per API key: the same key sent with another API key creates that key’s own action', async () => {
    const svc = await service();
    const alpha = await post(svc, '/schedules', 'shared-key', { body: smallOneOff() });
    const beta = await post(svc, '/schedules', 'shared-key', {
      body: smallOneOff({ options: { allowVisitLateness: true } }),
      apiKey: 'key-beta',
    });
    expect(beta.status).toBe(202);
    expect(beta.body.actionUuid).not.toBe(alpha.body.actionUuid);
    expect(beta.headers.get('idempotent-replayed')).toBeNull();
  });

  it('the same request sent five times at once creates one action', async () => {
    const svc = await service();
    const replies = await Promise.all(Array.from({ length: 5 }, () => post(svc, '/schedules', 'burst', { body: smallOneOff() })));
    expect(replies.map((reply) => reply.status)).toEqual([202, 202, 202, 202, 202]);
    expect(new Set(replies.map((reply) => reply.body.actionUuid)).size).toBe(1);
    expect(replies.filter((reply) => reply.headers.get('idempotent-replayed') === 'true')).toHaveLength(4);
    expect(await actionFiles(svc)).toHaveLength(1);
  });

  it('durable across restart: the key still finds the first action, and another body still conflicts', async () => {
    const svc = await service();
    const first = await post(svc, '/schedules', 'before-restart', { body: smallOneOff() });
    await svc.running.close();
    const restarted = await service({ dataDir: svc.dataDir });
    const again = await post(restarted, '/schedules', 'before-restart', { body: smallOneOff() });
    expect(again.status).toBe(202);
    expect(again.body.actionUuid).toBe(first.body.actionUuid);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await post(restarted, '/schedules', 'before-restart', { body: smallOneOff({ options: { allowVisitLateness: true } }) });
    expect(other.status).toBe(409);
  });

  it('remembered as long as the action exists: once it is deleted, the key creates a new action', async () => {
    const svc = await service();
    const first = await post(svc, '/schedules', 'reused', { body: smallOneOff() });
    expect((await api(svc.url, 'DELETE', `/v2/schedules/${first.body.actionUuid}`)).status).toBe(204);
    const next = await post(svc, '/schedules', 'reused', { body: smallOneOff({ options: { allowVisitLateness: true } }) });
    expect(next.status).toBe(202);
    expect(next.body.actionUuid).not.toBe(first.body.actionUuid);
    expect(next.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a refused request does not use up its key: an invalid body (400) and then the valid one (202)', async () => {
    const svc = await service();
    const invalid = await post(svc, '/schedules', 'first-try', { body: { routesData: [] } });
    expect(invalid.status).toBe(400);
    const valid = await post(svc, '/schedules', 'first-try', { body: smallOneOff() });
    expect(valid.status).toBe(202);
    expect(valid.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a key that is empty, too long or not visible ASCII → 400 invalid_idempotency_key', async () => {
    const svc = await service();
    for (const key of ['', ' ', 'x'.repeat(256)]) {
      const refused = await post(svc, '/schedules', key, { body: smallOneOff() });
      expect(refused.status, JSON.stringify(key)).toBe(400);
      expect(refused.body.error.code).toBe('invalid_idempotency_key');
    }
    expect(await actionFiles(svc)).toHaveLength(0);
  });

  it('optimize: the same key twice is one optimization; the same key on another project → 409', async () => {
    const svc = await service();
    const one = (await api(svc.url, 'POST', '/v1.0/project', { body: smallProject() })).body;
    const two = (await api(svc.url, 'POST', '/v1.0/project', { body: smallProject({ name: 'Afternoon' }) })).body;
    const first = await post(svc, `/v1.0/project/${one.id}/optimize`, 'optimize-1');
    const again = await post(svc, `/v1.0/project/${one.id}/optimize`, 'optimize-1');
    expect(first.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await api(svc.url, 'GET', `/v1.0/project/${one.id}`)).body.optimizations).toHaveLength(1);
    const elsewhere = await post(svc, `/v1.0/project/${two.id}/optimize`, 'optimize-1');
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.error.code).toBe('idempotency_conflict');
  });

  it('POST /v1.0/project: the same key and body is one project (201 again, Idempotent-Replayed, after a restart too); another body → 409', async () => {
    const svc = await service();
    const first = await post(svc, '/v1.0/project', 'project-1', { body: smallProject() });
    expect(first.status).toBe(201);
    const again = await post(svc, '/v1.0/project', 'project-1', { body: smallProject() });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await api(svc.url, 'GET', '/v1.0/projects')).body.projects).toHaveLength(1);
    const other = await post(svc, '/v1.0/project', 'project-1', { body: smallProject({ name: 'Evening' }) });
    expect(other.status).toBe(409);
    expect(other.body.error.details).toEqual([{ path: 'Idempotency-Key', message: `already used for project ${first.body.id}` }]);

    await svc.running.close();
    const restarted = await service({ dataDir: svc.dataDir });
    const replay = await post(restarted, '/v1.0/project', 'project-1', { body: smallProject() });
    expect([replay.status, replay.body.id, replay.headers.get('idempotent-replayed')]).toEqual([201, first.body.id, 'true']);
    expect((await api(restarted.url, 'GET', '/v1.0/projects')).body.projects).toHaveLength(1);
  });
});
