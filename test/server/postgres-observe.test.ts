/**
 * Metrics and log ids with several processes on one real PostgreSQL (issue 28, "Metrics and logs"):
 * every process serves its own counters at /metrics, a worker too, while the queue's figures come
 * from the shared database; a worker's lines for a solve carry the action id and the id of the
 * request another process accepted it with; a database that refuses connections is counted as
 * store errors and leaves the queue's figures unknown (NaN), not zero.
 */
import { describe, expect, it } from 'vitest';
import { databasePerTest, postgresUnavailable, withClient } from '../support/postgres.js';
import { api, cannedPlan, ScriptedRunner, smallOneOff, servicesStoppedAfterEach, type TestService } from './harness.js';
import { parseExposition, valueOf, type Sample } from '../support/prometheus.js';

async function scrape(svc: TestService): Promise<Sample[]> {
  const response = await fetch(`${svc.url}/metrics`);
  expect(response.status).toBe(200);
  return parseExposition(await response.text());
}

describe.skipIf(postgresUnavailable())('/metrics and log ids on PostgreSQL', () => {
  const db = databasePerTest();
  const service = servicesStoppedAfterEach(() => ({ database: db().url, queueSize: 50, queuePerKey: 50 }));

  async function submit(svc: TestService, requestId: string): Promise<string> {
    const response = await fetch(`${svc.url}/schedules`, {
      method: 'POST',
      headers: { authorization: 'Bearer key-alpha', 'content-type': 'application/json', 'x-request-id': requestId },
      body: JSON.stringify(smallOneOff()),
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as any).actionUuid as string;
  }

  it('each process its own counters, a worker too; the queue from the shared database in every one', async () => {
    const front = await service({ role: 'api' });
    const runner = new ScriptedRunner();
    const worker = await service({ role: 'worker', runner, concurrency: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push(await submit(front, `accept-${i}`));
    await runner.waitForStarts(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    for (const svc of [front, worker]) {
      const samples = await scrape(svc);
      expect(valueOf(samples, 'routeplan_queue_waiting')).toBe(2);
      expect(valueOf(samples, 'routeplan_queue_running')).toBe(1);
      expect(valueOf(samples, 'routeplan_queue_oldest_waiting_seconds')).toBeGreaterThanOrEqual(1);
    }
    runner.finishNext({ ok: true, plan: cannedPlan('one') });
    await runner.waitForStarts(2);
    runner.finishNext({ ok: false, error: { code: 'no_solution', message: 'nothing fits', details: [] } });
    await expect
      .poll(async () => valueOf(await scrape(worker), 'routeplan_solves_total', { outcome: 'failed' }), { timeout: 10_000 })
      .toBe(1);
    const workerSamples = await scrape(worker);
    const frontSamples = await scrape(front);
    expect(valueOf(workerSamples, 'routeplan_solves_total', { outcome: 'finished' })).toBe(1);
    expect(valueOf(frontSamples, 'routeplan_solves_total', { outcome: 'finished' })).toBeUndefined();
    expect(valueOf(frontSamples, 'routeplan_http_requests_total', { route: '/schedules', status: '202' })).toBe(3);
    expect(valueOf(workerSamples, 'routeplan_http_requests_total', { route: '/schedules', status: '202' })).toBeUndefined();
    // The third has started on the worker (its start written before it runs): nothing waits, one runs.
    await runner.waitForStarts(3);
    const queue = await scrape(front);
    expect([valueOf(queue, 'routeplan_queue_waiting'), valueOf(queue, 'routeplan_queue_running')]).toEqual([0, 1]);
    expect(valueOf(queue, 'routeplan_queue_oldest_waiting_seconds')).toBe(0);
    // Cancelled through the api process, its solve stopped on the worker: the worker counts it.
    expect((await api(front.url, 'POST', `/v2/schedules/${ids[2]}/cancel`)).status).toBe(200);
    const cancelled = async (): Promise<number | undefined> =>
      valueOf(await scrape(worker), 'routeplan_solves_total', { outcome: 'cancelled' });
    await expect.poll(cancelled, { timeout: 10_000 }).toBe(1);
  });

  it("a worker's lines of a solve carry the action id and the id of the request another process accepted it with", async () => {
    const front = await service({ role: 'api' });
    const worker = await service({ role: 'worker', runner: new ScriptedRunner({ ok: true, plan: cannedPlan('w') }) });
    const id = await submit(front, 'accepted-by-front');
    await expect.poll(() => worker.logs.some((line) => line.includes('"event":"solve_ended"')), { timeout: 15_000 }).toBe(true);
    const runLines = worker.logs.map((line) => JSON.parse(line)).filter((line) => line.action_id === id);
    expect(runLines.map((line) => line.event)).toEqual(['solve_started', 'solve_ended']);
    expect(runLines.every((line) => line.request_id === 'accepted-by-front')).toBe(true);
    const accepted = front.logs.map((line) => JSON.parse(line)).find((line) => line.request_id === 'accepted-by-front');
    expect(accepted).toMatchObject({ method: 'POST', path: '/schedules', status: 202, action_id: id });
  });

  it('a database that refuses connections: the queue figures NaN, the failed reads counted as store errors', async () => {
    const front = await service({ role: 'api' });
    expect(valueOf(await scrape(front), 'routeplan_queue_waiting')).toBe(0);
    const name = new URL(db().url).pathname.slice(1);
    const admin = new URL(db().url);
    admin.pathname = '/postgres';
    const allow = (allowed: boolean): Promise<unknown> =>
      withClient(admin.toString(), async (client) => {
        await client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS ${allowed}`);
        if (!allowed) await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      });
    await allow(false);
    try {
      expect((await api(front.url, 'POST', '/schedules', { body: smallOneOff() })).status).toBe(503);
      const samples = await scrape(front);
      expect(valueOf(samples, 'routeplan_queue_waiting')).toBeNaN();
      expect(valueOf(samples, 'routeplan_queue_oldest_waiting_seconds')).toBeNaN();
      expect(valueOf(samples, 'routeplan_store_errors_total', { operation: 'queue.stats' })).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'routeplan_store_errors_total', { operation: 'queue.admit' })).toBe(1);
    } finally {
      await allow(true);
    }
    await expect.poll(async () => valueOf(await scrape(front), 'routeplan_queue_waiting'), { timeout: 15_000 }).toBe(0);
  });
});
