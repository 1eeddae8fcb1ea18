/**
 * Progress and cancel with the real worker-thread runner (the built worker, dist/) on a small
 * generated project, a few seconds of solving each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { WorkerSolveRunner } from '../../src/server/services/solve-runner.js';
import { checkPlan } from '../support/checker.js';
import { generateProject } from '../support/generate.js';
import { assertBuilt } from './built.js';
import { answerRecorder, api, makeDataDir, removeDir } from './harness.js';

const TIME_LIMIT_MS = 3000;
const STOPS = 60;
const document = generateProject(8, { stops: STOPS, drivers: 5 });

let dataDir: string;
let runner: WorkerSolveRunner;
let server: RunningServer;
let projectId: string;

beforeAll(async () => {
  assertBuilt();
  dataDir = await makeDataDir();
  runner = new WorkerSolveRunner(1);
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    keys: ['key-alpha'],
    concurrency: 1,
    queueSize: 10,
    timeLimitMs: TIME_LIMIT_MS,
    seed: 0,
    bodyLimitBytes: 10 * 1024 * 1024,
    shutdownTimeoutMs: 100,
    dataDir,
    runner,
    logLine: () => undefined,
    // Real plans of the worker threads, held to the OpenAPI document like every harness service's answers.
    httpTap: answerRecorder.tap,
  });
  const created = await api(server.url, 'POST', '/v1.0/project', { body: document });
  expect(created.status).toBe(201);
  projectId = created.body.id as string;
});
afterAll(async () => {
  await server?.close();
  await removeDir(dataDir);
});

const action = async (id: string): Promise<any> => (await api(server.url, 'GET', `/v2/schedules/${id}`)).body;

async function optimize(): Promise<string> {
  const reply = await api(server.url, 'POST', `/v1.0/project/${projectId}/optimize`);
  expect(reply.status).toBe(202);
  return reply.body.actionUuid as string;
}

/** Polls until `done` holds (bounded), answering the last value read. */
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function expectValidPlan(plan: Plan): void {
  const { problem } = loadProblemDocument(document, { expect: 'project' });
  expect(checkPlan(problem, plan)).toEqual([]);
  expect(plan.summary.served + plan.summary.unserved).toBe(STOPS);
}

describe('actions on worker threads', () => {
  it('progress appears while running (the best plan so far, renewed), and is gone once the plan is there', async () => {
    const id = await optimize();
    const first = await until(
      () => action(id),
      (body) => body.progress !== undefined || body.status !== 'pending',
    );
    expect(first.status).toBe('pending');
    expect(Object.keys(first.progress).sort()).toEqual(['cost', 'elapsed_ms', 'iterations', 'routes_used', 'served', 'unserved']);
    expect(first.progress.served + first.progress.unserved).toBe(STOPS);
    expect(first.progress.routes_used).toBeGreaterThan(0);
    expect(first.progress.cost).toBeGreaterThan(0);
    expect(Number.isInteger(first.progress.elapsed_ms)).toBe(true);
    const later = await until(
      () => action(id),
      (body) => body.status !== 'pending' || body.progress.iterations > first.progress.iterations,
    );
    if (later.status === 'pending') expect(later.progress.elapsed_ms).toBeGreaterThan(first.progress.elapsed_ms);

    const ended = await until(
      () => action(id),
      (body) => body.status !== 'pending',
    );
    expect(ended.status).toBe('finished');
    expect(ended).not.toHaveProperty('progress');
    expectValidPlan(ended.solution);
  });

  it('cancel running: the worker thread is terminated, the action failed/cancelled; a new action then runs fine', async () => {
    const id = await optimize();
    await until(
      () => action(id),
      (body) => body.progress !== undefined,
    );
    expect(runner.threads).toBe(1);
    const reply = await api(server.url, 'POST', `/v2/schedules/${id}/cancel`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    // The thread's exit, reported by Node once it has really stopped, well before the time limit.
    await until(
      () => runner.threads,
      (threads) => threads === 0,
      TIME_LIMIT_MS,
    );
    const cancelled = await action(id);
    expect(cancelled).toMatchObject({ status: 'failed', error: { code: 'cancelled', message: 'the optimization was cancelled' } });
    expect(cancelled).not.toHaveProperty('solution');
    expect(Date.parse(cancelled.finished_at) - Date.parse(cancelled.started_at)).toBeLessThan(TIME_LIMIT_MS);

    const next = await optimize();
    const ended = await until(
      () => action(next),
      (body) => body.status !== 'pending',
    );
    expect(ended.status).toBe('finished');
    expectValidPlan(ended.solution);
    expect((await action(id)).status).toBe('failed');
    const project = (await api(server.url, 'GET', `/v1.0/project/${projectId}`)).body;
    expect(project.optimizations.slice(0, 2).map((entry: { status: string }) => entry.status)).toEqual(['finished', 'failed']);
  });
});
