/**
 * Per-key fairness in the solve queue (issue 11): keys are served round-robin, and one key may not
 * hold more than its share of the waiting places (`--queue-per-key`); /healthz shows the counts.
 */
import { describe, expect, it } from 'vitest';
import { api, cannedPlan, smallOneOff, type TestService, servicesStoppedAfterEach } from './harness.js';

const service = servicesStoppedAfterEach();

const submit = (svc: TestService, key: string) => api(svc.url, 'POST', '/schedules', { body: smallOneOff(), key });
const startedIds = (svc: TestService): string[] =>
  svc.logs
    .map((line) => JSON.parse(line) as { event?: string; action_id?: string })
    .filter((entry) => entry.event === 'solve_started')
    .map((entry) => entry.action_id!);

describe('per-key fairness', () => {
  it('key A floods, key B’s action starts before A’s backlog is done (right after A’s running one)', async () => {
    const svc = await service({ concurrency: 1, queueSize: 20, queuePerKey: 20 });
    const flood: string[] = [];
    for (let i = 0; i < 6; i += 1) flood.push((await submit(svc, 'key-alpha')).body.actionUuid);
    await svc.runner.waitForStarts(1);
    const single = (await submit(svc, 'key-beta')).body.actionUuid as string;
    svc.runner.finishNext({ ok: true, plan: cannedPlan('A1') });
    await svc.runner.waitForStarts(2);
    expect(startedIds(svc)).toEqual([flood[0], single]);
    for (let i = 2; i <= 7; i += 1) {
      svc.runner.finishNext({ ok: true, plan: cannedPlan(`next ${i}`) });
      if (i < 7) await svc.runner.waitForStarts(i + 1);
    }
    expect(startedIds(svc)).toEqual([flood[0], single, ...flood.slice(1)]);
  });

  it('past its quota key A gets 429 key_quota_exceeded with Retry-After, while key B still gets 202', async () => {
    const svc = await service({ concurrency: 1, queueSize: 10, queuePerKey: 3 });
    // One runs and three wait: A's whole share.
    for (let i = 0; i < 4; i += 1) expect((await submit(svc, 'key-alpha')).status).toBe(202);
    await svc.runner.waitForStarts(1);
    const refused = await submit(svc, 'key-alpha');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('key_quota_exceeded');
    expect(refused.body.error.message).toContain('3 solves waiting');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await submit(svc, 'key-beta')).status).toBe(202);
    expect((await submit(svc, 'key-beta')).status).toBe(202);

    // Once one of A's starts, A has a place again.
    svc.runner.finishNext({ ok: true, plan: cannedPlan('A1') });
    await svc.runner.waitForStarts(2);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('B1') });
    await svc.runner.waitForStarts(3);
    expect((await submit(svc, 'key-alpha')).status).toBe(202);
  });

  it('the default quota is half the queue: one key alone is refused at half, with the whole queue still open to others', async () => {
    const svc = await service({ concurrency: 1, queueSize: 4 });
    for (let i = 0; i < 3; i += 1) expect((await submit(svc, 'key-alpha')).status).toBe(202);
    await svc.runner.waitForStarts(1);
    expect((await submit(svc, 'key-alpha')).body.error.code).toBe('key_quota_exceeded');
    expect((await submit(svc, 'key-beta')).status).toBe(202);
    expect((await submit(svc, 'key-beta')).status).toBe(202);
    // Now the queue itself is full, for everyone.
    expect((await submit(svc, 'key-beta')).body.error.code).toBe('queue_full');
  });

  it('/healthz reports the store and the queue: running, waiting, and waiting per key (by owner id, never the key)', async () => {
    const svc = await service({ concurrency: 1, queueSize: 10, queuePerKey: 4 });
    for (let i = 0; i < 3; i += 1) await submit(svc, 'key-alpha');
    await submit(svc, 'key-beta');
    await svc.runner.waitForStarts(1);
    const health = await api(svc.url, 'GET', '/healthz', { key: null });
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    expect(health.body.store).toEqual({ kind: 'data_dir', writable: true });
    expect(health.body.queue).toMatchObject({ running: 1, waiting: 3, concurrency: 1, capacity: 10, per_key: 4 });
    expect(Object.values(health.body.queue.waiting_by_key).sort()).toEqual([1, 2]);
    expect(JSON.stringify(health.body)).not.toContain('key-alpha');
  });
});
