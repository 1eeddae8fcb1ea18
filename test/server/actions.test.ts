/**
 * The actions of the web application (issue 8): progress while an action runs, cancel, and each
 * project's optimizations, with the scripted runner so that the test decides every ordering.
 * The same with the real worker threads: actions-worker.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SolveProgress } from '../../src/solver/types.js';
import { ScriptedRunner, api, cannedPlan, smallOneOff, smallProject, type TestService, servicesStoppedAfterEach } from './harness.js';

const service = servicesStoppedAfterEach();

const report: SolveProgress = { elapsedMs: 1234.56, iterations: 870, served: 2, unserved: 0, routesUsed: 1, cost: 5400.5 };

async function schedule(svc: TestService): Promise<string> {
  const reply = await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
  expect(reply.status).toBe(202);
  return reply.body.actionUuid as string;
}

async function optimize(svc: TestService, projectId: string): Promise<string> {
  const reply = await api(svc.url, 'POST', `/v1.0/project/${projectId}/optimize`);
  expect(reply.status).toBe(202);
  return reply.body.actionUuid as string;
}

const action = async (svc: TestService, id: string): Promise<any> => (await api(svc.url, 'GET', `/v2/schedules/${id}`)).body;
const cancel = (svc: TestService, id: string, key?: string) => api(svc.url, 'POST', `/v2/schedules/${id}/cancel`, key ? { key } : {});
const startedIds = (svc: TestService): string[] =>
  svc.logs
    .map((line) => JSON.parse(line) as { event?: string; action_id?: string })
    .filter((entry) => entry.event === 'solve_started')
    .map((entry) => entry.action_id!);

const CANCELLED = { code: 'cancelled', message: 'the optimization was cancelled', details: [] };

describe('progress', () => {
  it('appears while the action runs, as the latest report in snake_case; it is dropped once it ends and never stored', async () => {
    const svc = await service();
    const id = await schedule(svc);
    await svc.runner.waitForStarts(1);
    expect(await action(svc, id)).not.toHaveProperty('progress');
    svc.runner.reportProgress({ ...report, iterations: 10 });
    svc.runner.reportProgress(report);
    const running = await action(svc, id);
    expect(running.status).toBe('pending');
    expect(running.progress).toEqual({ elapsed_ms: 1235, iterations: 870, served: 2, unserved: 0, routes_used: 1, cost: 5400.5 });
    const onDisk = JSON.parse(await readFile(join(svc.dataDir, 'actions', `${id}.json`), 'utf8'));
    expect(JSON.stringify(onDisk)).not.toContain('progress');

    svc.runner.finishNext({ ok: true, plan: cannedPlan('done') });
    await svc.running.close();
    const finished = await action(await service({ dataDir: svc.dataDir }), id);
    expect(finished.status).toBe('finished');
    expect(finished).not.toHaveProperty('progress');
  });

  it('is dropped once the action is cancelled', async () => {
    const svc = await service();
    const id = await schedule(svc);
    await svc.runner.waitForStarts(1);
    svc.runner.reportProgress(report);
    expect((await cancel(svc, id)).status).toBe(200);
    expect(await action(svc, id)).not.toHaveProperty('progress');
  });
});

describe('POST /v2/schedules/{actionUuid}/cancel', () => {
  it('cancel queued: the waiting action is failed/cancelled at once and never runs', async () => {
    const svc = await service({ concurrency: 1 });
    const first = await schedule(svc);
    const second = await schedule(svc);
    await svc.runner.waitForStarts(1);
    const reply = await cancel(svc, second);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ actionUuid: second, actionName: 'schedule', status: 'failed', error: CANCELLED });
    expect(typeof reply.body.finished_at).toBe('string');
    expect(await action(svc, second)).toEqual(reply.body);

    svc.runner.finishNext({ ok: true, plan: cannedPlan('first') });
    const third = await schedule(svc);
    await svc.runner.waitForStarts(2);
    expect(startedIds(svc)).toEqual([first, third]);
    expect((await action(svc, first)).status).toBe('finished');
  });

  it('cancel queued gives its place in the queue back at once', async () => {
    const svc = await service({ concurrency: 1, queueSize: 1 });
    await schedule(svc);
    const waiting = await schedule(svc);
    expect((await api(svc.url, 'POST', '/schedules', { body: smallOneOff() })).status).toBe(429);
    expect((await cancel(svc, waiting)).status).toBe(200);
    await schedule(svc);
  });

  it('cancel running: its solve is stopped, the record is failed/cancelled; a new action then runs fine', async () => {
    const svc = await service({ concurrency: 1 });
    const id = await schedule(svc);
    await svc.runner.waitForStarts(1);
    svc.runner.reportProgress(report);
    const reply = await cancel(svc, id);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ actionUuid: id, status: 'failed', error: CANCELLED });
    expect(reply.body).not.toHaveProperty('progress');
    expect(svc.runner.aborted).toHaveLength(1);
    expect(svc.runner.running).toBe(0);

    const next = await schedule(svc);
    await svc.runner.waitForStarts(2);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('next') });
    await svc.running.close();
    const again = await service({ dataDir: svc.dataDir });
    expect(await action(again, next)).toMatchObject({ status: 'finished', solution: cannedPlan('next') });
    expect(await action(again, id)).toMatchObject({ status: 'failed', error: CANCELLED });
  });

  it('cancel ended → 409 not_cancellable, for a finished, a failed and an already cancelled action; nothing changes', async () => {
    const svc = await service({ concurrency: 1 });
    const finished = await schedule(svc);
    await svc.runner.waitForStarts(1);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('kept') });
    const failed = await schedule(svc);
    await svc.runner.waitForStarts(2);
    svc.runner.finishNext({ ok: false, error: { code: 'routing_failed', message: 'no matrix', details: [] } });
    const cancelled = await schedule(svc);
    await svc.runner.waitForStarts(3);
    expect((await cancel(svc, cancelled)).status).toBe(200);
    await svc.running.close();

    const again = await service({ dataDir: svc.dataDir });
    for (const id of [finished, failed, cancelled]) {
      const before = await action(again, id);
      const reply = await cancel(again, id);
      expect(reply.status).toBe(409);
      expect(reply.body.error).toMatchObject({ code: 'not_cancellable', details: [] });
      expect(reply.body.error.message).toContain(before.status);
      expect(await action(again, id)).toEqual(before);
    }
    expect((await action(again, finished)).solution).toEqual(cannedPlan('kept'));
  });

  it('cancel other owner → 404 not_found (as an unknown id), and the action goes on', async () => {
    const svc = await service();
    const id = await schedule(svc);
    await svc.runner.waitForStarts(1);
    const reply = await cancel(svc, id, 'key-beta');
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe('not_found');
    expect((await cancel(svc, 'no-such-action')).status).toBe(404);
    expect((await api(svc.url, 'POST', `/v2/schedules/${id}/cancel`, { key: null })).status).toBe(401);
    expect(svc.runner.aborted).toHaveLength(0);
    expect((await action(svc, id)).status).toBe('pending');
    expect((await api(svc.url, 'GET', `/v2/schedules/${id}/cancel`)).headers.get('allow')).toBe('POST');
  });

  it('cancelled survives restart and is not rerun, while an uncancelled pending action is', async () => {
    const svc = await service({ concurrency: 1 });
    const running = await schedule(svc);
    const waiting = await schedule(svc);
    const kept = await schedule(svc);
    await svc.runner.waitForStarts(1);
    expect((await cancel(svc, waiting)).status).toBe(200);
    expect((await cancel(svc, running)).status).toBe(200);
    await svc.runner.waitForStarts(2);
    await svc.running.close();

    const runner = new ScriptedRunner({ ok: true, plan: cannedPlan('after restart') });
    const again = await service({ dataDir: svc.dataDir, runner });
    await runner.waitForStarts(1);
    await again.running.close();
    expect(startedIds(again)).toEqual([kept]);
    const third = await service({ dataDir: svc.dataDir });
    for (const id of [running, waiting]) expect(await action(third, id)).toMatchObject({ status: 'failed', error: CANCELLED });
    expect((await action(third, kept)).status).toBe('finished');
    expect(third.runner.started).toHaveLength(0);
  });
});

describe('optimizations of a project', () => {
  it('optimizations newest first with current status, on GET /v1.0/project/{id}; [] on the 201 answer', async () => {
    const svc = await service({ concurrency: 1 });
    const created = await api(svc.url, 'POST', '/v1.0/project', { body: smallProject() });
    expect(created.status).toBe(201);
    expect(created.body.optimizations).toEqual([]);
    const project = created.body.id as string;
    const other = (await api(svc.url, 'POST', '/v1.0/project', { body: smallProject({ name: 'other' }) })).body.id as string;

    const first = await optimize(svc, project);
    await svc.runner.waitForStarts(1);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('first') });
    const second = await optimize(svc, project);
    const third = await optimize(svc, project);
    await svc.runner.waitForStarts(2);
    await cancel(svc, third);

    const read = async (base: TestService): Promise<any[]> => (await api(base.url, 'GET', `/v1.0/project/${project}`)).body.optimizations;
    const listed = await read(svc);
    expect(listed.map((entry) => [entry.actionUuid, entry.status])).toEqual([
      [third, 'failed'],
      [second, 'pending'],
      [first, 'finished'],
    ]);
    for (const entry of listed) {
      expect(Object.keys(entry).sort()).toEqual(['actionUuid', 'created_at', 'kind', 'status']);
      expect(entry.kind).toBe('optimized');
      expect(entry.created_at).toBe((await action(svc, entry.actionUuid)).created_at);
    }
    expect((await api(svc.url, 'GET', `/v1.0/project/${other}`)).body.optimizations).toEqual([]);

    svc.runner.finishNext({ ok: true, plan: cannedPlan('second') });
    await svc.running.close();
    const again = await service({ dataDir: svc.dataDir });
    expect((await read(again)).map((entry) => [entry.actionUuid, entry.status])).toEqual([
      [third, 'failed'],
      [second, 'finished'],
      [first, 'finished'],
    ]);
  });

  it('latest_optimization in the list: null without one, else the newest with its current status', async () => {
    const svc = await service({ concurrency: 1 });
    const project = (await api(svc.url, 'POST', '/v1.0/project', { body: smallProject() })).body.id as string;
    const idle = (await api(svc.url, 'POST', '/v1.0/project', { body: smallProject({ name: 'idle' }) })).body.id as string;
    const summaries = async (): Promise<Record<string, any>> => {
      const list = (await api(svc.url, 'GET', '/v1.0/projects')).body.projects as { id: string }[];
      return Object.fromEntries(list.map((summary) => [summary.id, summary]));
    };
    expect((await summaries())[project].latest_optimization).toBeNull();

    await optimize(svc, project);
    await svc.runner.waitForStarts(1);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('older') });
    const latest = await optimize(svc, project);
    await svc.runner.waitForStarts(2);
    const running = await summaries();
    expect(running[project].latest_optimization).toEqual({
      actionUuid: latest,
      status: 'pending',
      created_at: (await action(svc, latest)).created_at,
      kind: 'optimized',
    });
    expect(running[idle].latest_optimization).toBeNull();
    expect(running[project]).toMatchObject({ drivers: 1, stops: 2 });

    svc.runner.finishNext({ ok: false, error: { code: 'routing_failed', message: 'no matrix', details: [] } });
    await svc.running.close();
    const again = await service({ dataDir: svc.dataDir });
    const list = (await api(again.url, 'GET', '/v1.0/projects')).body.projects as any[];
    expect(list.find((summary) => summary.id === project).latest_optimization).toMatchObject({ actionUuid: latest, status: 'failed' });
  });
});
