/**
 * DELETE /v2/schedules/{actionUuid} (issue 11; Google's long-running operations: get, cancel,
 * delete): a pending action is cancelled first, then the action, its request and its plan go.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { api, cannedPlan, smallOneOff, smallProject, type TestService, servicesStoppedAfterEach } from './harness.js';

const service = servicesStoppedAfterEach();

async function schedule(svc: TestService, key = 'key-alpha'): Promise<string> {
  const reply = await api(svc.url, 'POST', '/schedules', { body: smallOneOff(), key });
  expect(reply.status).toBe(202);
  return reply.body.actionUuid as string;
}

const fileOf = (svc: TestService, id: string): string => join(svc.dataDir, 'actions', `${id}.json`);
const remove = (svc: TestService, id: string, key = 'key-alpha') => api(svc.url, 'DELETE', `/v2/schedules/${id}`, { key });

describe('DELETE /v2/schedules/{actionUuid}', () => {
  it('delete finished: 204 with no body; the record and its plan are gone (GET, /solution and a second DELETE are 404), after a restart too', async () => {
    const svc = await service();
    const id = await schedule(svc);
    await svc.runner.waitForStarts(1);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('done') });
    await expect.poll(async () => (await api(svc.url, 'GET', `/v2/schedules/${id}`)).body.status).toBe('finished');

    const deleted = await remove(svc, id);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    expect(existsSync(fileOf(svc, id))).toBe(false);
    expect((await api(svc.url, 'GET', `/v2/schedules/${id}`)).status).toBe(404);
    expect((await api(svc.url, 'GET', `/v2/schedules/${id}/solution`)).status).toBe(404);
    const again = await remove(svc, id);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');

    await svc.running.close();
    const restarted = await service({ dataDir: svc.dataDir });
    expect((await api(restarted.url, 'GET', `/v2/schedules/${id}`)).status).toBe(404);
  });

  it('delete queued: the waiting action never runs and its place in the queue is freed', async () => {
    const svc = await service({ concurrency: 1, queueSize: 1 });
    const running = await schedule(svc);
    await svc.runner.waitForStarts(1);
    const waiting = await schedule(svc);
    expect((await api(svc.url, 'POST', '/schedules', { body: smallOneOff() })).status).toBe(429);

    expect((await remove(svc, waiting)).status).toBe(204);
    expect(existsSync(fileOf(svc, waiting))).toBe(false);
    const next = await schedule(svc);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('first') });
    await svc.runner.waitForStarts(2);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('next') });
    await expect.poll(async () => (await api(svc.url, 'GET', `/v2/schedules/${next}`)).body.status).toBe('finished');
    expect(svc.runner.started).toHaveLength(2);
    expect((await api(svc.url, 'GET', `/v2/schedules/${running}`)).body.status).toBe('finished');
  });

  it('delete running: its solve is stopped as a cancel stops it, the record is gone, and a new action runs fine', async () => {
    const svc = await service();
    const id = await schedule(svc);
    await svc.runner.waitForStarts(1);
    expect((await remove(svc, id)).status).toBe(204);
    expect(svc.runner.aborted).toHaveLength(1);
    expect(existsSync(fileOf(svc, id))).toBe(false);
    expect((await api(svc.url, 'GET', `/v2/schedules/${id}`)).status).toBe(404);

    const next = await schedule(svc);
    await svc.runner.waitForStarts(2);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('next') });
    await expect.poll(async () => (await api(svc.url, 'GET', `/v2/schedules/${next}`)).body.status).toBe('finished');
    expect(existsSync(fileOf(svc, id))).toBe(false);
  });

  it('delete other key → 404 not_found in the error shape (as an unknown id), and the action is untouched', async () => {
    const svc = await service();
    const id = await schedule(svc);
    await svc.runner.waitForStarts(1);
    const stranger = await remove(svc, id, 'key-beta');
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ error: { code: 'not_found', message: `no action ${id}`, details: [] } });
    const unknown = await remove(svc, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect(svc.runner.aborted).toHaveLength(0);
    expect(existsSync(fileOf(svc, id))).toBe(true);
    expect((await api(svc.url, 'GET', `/v2/schedules/${id}`)).body.status).toBe('pending');
  });

  it('a deleted optimization leaves its project’s optimizations and latest_optimization', async () => {
    const svc = await service();
    const project = (await api(svc.url, 'POST', '/v1.0/project', { body: smallProject() })).body;
    const optimized = await api(svc.url, 'POST', `/v1.0/project/${project.id}/optimize`);
    await svc.runner.waitForStarts(1);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('done') });
    expect((await remove(svc, optimized.body.actionUuid)).status).toBe(204);
    expect((await api(svc.url, 'GET', `/v1.0/project/${project.id}`)).body.optimizations).toEqual([]);
    expect((await api(svc.url, 'GET', '/v1.0/projects')).body.projects[0].latest_optimization).toBeNull();
  });

  it('DELETE is listed in Allow for the action path', async () => {
    const svc = await service();
    const id = await schedule(svc);
    const wrong = await api(svc.url, 'PUT', `/v2/schedules/${id}`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, DELETE');
  });
});
