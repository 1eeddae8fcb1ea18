/**
 * Retention (issue 11; pg-boss and graphile-worker archive and delete old jobs): ended actions,
 * with their requests, plans and idempotency keys, are deleted `--retention` days after they
 * ended, by a sweep at start and a periodic one; pending actions never are.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { api, cannedPlan, smallOneOff, type TestService, servicesStoppedAfterEach } from './harness.js';

const DAY_MS = 86_400_000;
const service = servicesStoppedAfterEach();

async function schedule(svc: TestService, idempotencyKey?: string): Promise<string> {
  const response = await fetch(`${svc.url}/schedules`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer key-alpha',
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: JSON.stringify(smallOneOff()),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { actionUuid: string }).actionUuid;
}

const statusOf = async (svc: TestService, id: string): Promise<number> => (await api(svc.url, 'GET', `/v2/schedules/${id}`)).status;
const fileOf = (svc: TestService, id: string): string => join(svc.dataDir, 'actions', `${id}.json`);

describe('retention', () => {
  it('the sweep at start deletes actions that ended more than --retention days ago (clock moved on by `now`), with their plans and keys', async () => {
    const svc = await service();
    const old = await schedule(svc, 'kept-key');
    await svc.runner.waitForStarts(1);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('old') });
    await expect.poll(async () => (await api(svc.url, 'GET', `/v2/schedules/${old}`)).body.status).toBe('finished');
    await svc.running.close();

    // 29 days on, it is kept; 31 days on, it is gone.
    const later = await service({ dataDir: svc.dataDir, now: () => new Date(Date.now() + 29 * DAY_MS) });
    expect(await statusOf(later, old)).toBe(200);
    await later.running.close();
    const muchLater = await service({ dataDir: svc.dataDir, now: () => new Date(Date.now() + 31 * DAY_MS) });
    expect(await statusOf(muchLater, old)).toBe(404);
    expect(existsSync(fileOf(muchLater, old))).toBe(false);
    expect(muchLater.logs.some((line) => line.includes('"event":"retention_sweep"') && line.includes('"deleted":1'))).toBe(true);
    // Its idempotency key went with it: the same key now creates a new action.
    expect(await schedule(muchLater, 'kept-key')).not.toBe(old);
  });

  it('pending actions, running or waiting, are never swept however old; ended ones are, by the periodic sweep', async () => {
    // A retention of two seconds, as fractional days.
    const svc = await service({ concurrency: 1, retentionMs: 2_000 });
    const ended = await schedule(svc);
    await svc.runner.waitForStarts(1);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('ended') });
    const running = await schedule(svc);
    await svc.runner.waitForStarts(2);
    const waiting = await schedule(svc);

    await expect.poll(() => statusOf(svc, ended), { timeout: 8_000, interval: 250 }).toBe(404);
    expect(existsSync(fileOf(svc, ended))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await statusOf(svc, running)).toBe(200);
    expect(await statusOf(svc, waiting)).toBe(200);
    expect((await api(svc.url, 'GET', `/v2/schedules/${waiting}`)).body.status).toBe('pending');
  });

  it('an action is kept for the retention counted from when it ended, not from when it was created', async () => {
    const svc = await service({ retentionMs: 3_000 });
    const id = await schedule(svc);
    await svc.runner.waitForStarts(1);
    await new Promise((resolve) => setTimeout(resolve, 3_500)); // older than the retention, but still running
    svc.runner.finishNext({ ok: true, plan: cannedPlan('late') });
    await expect.poll(async () => (await api(svc.url, 'GET', `/v2/schedules/${id}`)).body.status).toBe('finished');
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await statusOf(svc, id)).toBe(200);
    await expect.poll(() => statusOf(svc, id), { timeout: 8_000, interval: 250 }).toBe(404);
  });
});
