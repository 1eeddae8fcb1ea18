/**
 * Issue 10, the service on a full disk or an unwritable data directory: nothing accepted stalls.
 * The failure is real (the collection's directory is replaced by a file, so every write fails with
 * ENOTDIR), not simulated. And a crash of the service is counted against an action only when the
 * process died of an error while it ran, never for a kill.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { api, cannedPlan, removeDir, smallOneOff, startTestService, type TestService } from '../server/harness.js';

const KEY = 'key-alpha';
const services: TestService[] = [];
afterEach(async () => {
  for (const svc of services.splice(0)) {
    await svc.stop();
    await removeDir(svc.dataDir);
  }
});

async function service(options: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const svc = await startTestService(options);
  services.push(svc);
  return svc;
}

/** Makes every write to `collection` fail for real; returns the function that gives the directory back. */
async function breakCollection(dataDir: string, collection: string): Promise<() => Promise<void>> {
  const directory = join(dataDir, collection);
  await rename(directory, `${directory}.away`);
  await writeFile(directory, 'not a directory');
  return async () => {
    await rm(directory);
    await rename(`${directory}.away`, directory);
  };
}

async function temporaries(dataDir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dataDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    for (const file of await readdir(join(dataDir, entry.name))) if (file.includes('.tmp-')) found.push(join(entry.name, file));
  }
  return found;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('an unwritable data directory (a full disk)', () => {
  it('POST answers 503 storage_unavailable with Retry-After, leaves no temporary file, and /healthz reports the store unhealthy until it can write again', async () => {
    const svc = await service();
    const restore = await breakCollection(svc.dataDir, 'actions');
    await breakCollection(svc.dataDir, 'health');
    const refused = await api(svc.url, 'POST', '/schedules', { key: KEY, body: smallOneOff() });
    expect([refused.status, refused.body.error.code, refused.headers.get('retry-after')]).toEqual([503, 'storage_unavailable', '30']);
    expect(await temporaries(svc.dataDir)).toEqual([]);
    const sick = await api(svc.url, 'GET', '/healthz');
    expect([sick.status, sick.body.status, sick.body.store.writable]).toEqual([503, 'unhealthy', false]);
    expect(sick.body.store.reason).toMatch(/ENOTDIR/);

    await restore();
    await rm(join(svc.dataDir, 'health'));
    await mkdir(join(svc.dataDir, 'health'));
    const well = await api(svc.url, 'GET', '/healthz');
    expect([well.status, well.body.status]).toEqual([200, 'ok']);
    expect((await api(svc.url, 'POST', '/schedules', { key: KEY, body: smallOneOff() })).status).toBe(202);
  });

  it('a project cannot be created either: 503, never a 500', async () => {
    const svc = await service();
    await breakCollection(svc.dataDir, 'projects');
    const refused = await api(svc.url, 'POST', '/v1.0/project', {
      key: KEY,
      body: { name: 'P', date: '2024-05-14', drivers: [], stops: [] },
    });
    expect([refused.status, refused.body.error.code]).toEqual([503, 'storage_unavailable']);
  });

  it('an action that ends while the disk is full stays running, with its progress, until its ending is saved; then it is finished with that plan', async () => {
    const svc = await service();
    const ack = await api(svc.url, 'POST', '/schedules', { key: KEY, body: smallOneOff() });
    const poll = async () => (await api(svc.url, 'GET', `/v2/schedules/${ack.body.actionUuid}`, { key: KEY })).body;
    await svc.runner.waitForStarts(1);
    svc.runner.reportProgress({ elapsedMs: 10, iterations: 7, served: 1, unserved: 0, routesUsed: 1, cost: 42 });
    const restore = await breakCollection(svc.dataDir, 'actions');
    svc.runner.finishNext({ ok: true, plan: cannedPlan('saved later') });
    await eventually(async () => svc.logs.some((line) => line.includes('"event":"ending_not_saved"')));
    const waiting = await poll();
    expect([waiting.status, waiting.progress?.iterations, waiting.solution]).toEqual(['pending', 7, undefined]);

    await restore();
    await eventually(async () => (await poll()).status === 'finished');
    const file = join(svc.dataDir, 'actions', `${ack.body.actionUuid}.json`);
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect([saved.record.status, saved.record.solution.unserved[0].stop]).toEqual(['finished', 'saved later']);
    expect((await poll()).finished_at).toBe(saved.record.finished_at);
    expect(await temporaries(svc.dataDir)).toEqual([]);
    expect(svc.logs.filter((line) => line.includes('"event":"ending_saved"'))).toHaveLength(1);
  });

  it('a cancel while a finished solve waits for the disk answers 503 and changes nothing; the solve’s ending is saved once the disk has room', async () => {
    const svc = await service();
    const ack = await api(svc.url, 'POST', '/schedules', { key: KEY, body: smallOneOff() });
    await svc.runner.waitForStarts(1);
    const restore = await breakCollection(svc.dataDir, 'actions');
    svc.runner.finishNext({ ok: true, plan: cannedPlan('first') });
    await eventually(async () => svc.logs.some((line) => line.includes('"event":"ending_not_saved"')));
    const cancel = await api(svc.url, 'POST', `/v2/schedules/${ack.body.actionUuid}/cancel`, { key: KEY });
    expect([cancel.status, cancel.body.error?.code]).toEqual([503, 'storage_unavailable']);
    await restore();
    await eventually(
      async () => (await api(svc.url, 'GET', `/v2/schedules/${ack.body.actionUuid}`, { key: KEY })).body.status === 'finished',
    );
  });

  it('a shutdown while an ending waits for the disk: no poll saw it, so the next start runs the action again', async () => {
    const svc = await service();
    const ack = await api(svc.url, 'POST', '/schedules', { key: KEY, body: smallOneOff() });
    await svc.runner.waitForStarts(1);
    const restore = await breakCollection(svc.dataDir, 'actions');
    svc.runner.finishNext({ ok: true, plan: cannedPlan('never seen') });
    await eventually(async () => svc.logs.some((line) => line.includes('"event":"ending_not_saved"')));
    expect((await api(svc.url, 'GET', `/v2/schedules/${ack.body.actionUuid}`, { key: KEY })).body.status).toBe('pending');
    await svc.stop();
    await restore();

    const next = await service({ dataDir: svc.dataDir });
    await next.runner.waitForStarts(1);
    next.runner.finishNext({ ok: true, plan: cannedPlan('the first seen') });
    await eventually(
      async () => (await api(next.url, 'GET', `/v2/schedules/${ack.body.actionUuid}`, { key: KEY })).body.status === 'finished',
    );
    const polled = await api(next.url, 'GET', `/v2/schedules/${ack.body.actionUuid}`, { key: KEY });
    expect(polled.body.solution.unserved[0].stop).toBe('the first seen');
  });

  it('the next action runs once the first one’s ending is saved: nothing stalls after the disk has room', async () => {
    const svc = await service();
    const first = await api(svc.url, 'POST', '/schedules', { key: KEY, body: smallOneOff() });
    const second = await api(svc.url, 'POST', '/schedules', { key: KEY, body: smallOneOff() });
    await svc.runner.waitForStarts(1);
    const restore = await breakCollection(svc.dataDir, 'actions');
    svc.runner.finishNext({ ok: true, plan: cannedPlan('first') });
    await eventually(async () => svc.logs.some((line) => line.includes('"event":"ending_not_saved"')));
    await restore();
    await svc.runner.waitForStarts(2);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('second') });
    for (const ack of [first, second]) {
      await eventually(
        async () => (await api(svc.url, 'GET', `/v2/schedules/${ack.body.actionUuid}`, { key: KEY })).body.status === 'finished',
      );
    }
  });
});

describe('deleting on an unwritable data directory', () => {
  it('DELETE answers 503 storage_unavailable with Retry-After and keeps the action; once the disk is back it deletes (204)', async () => {
    const svc = await service();
    const id = (await api(svc.url, 'POST', '/schedules', { key: KEY, body: smallOneOff() })).body.actionUuid as string;
    await svc.runner.waitForStarts(1);
    svc.runner.finishNext({ ok: true, plan: cannedPlan('kept') });
    await eventually(async () => (await api(svc.url, 'GET', `/v2/schedules/${id}`, { key: KEY })).body.status === 'finished');
    const restore = await breakCollection(svc.dataDir, 'actions');
    const refused = await api(svc.url, 'DELETE', `/v2/schedules/${id}`, { key: KEY });
    expect([refused.status, refused.body.error.code, refused.headers.get('retry-after')]).toEqual([503, 'storage_unavailable', '30']);
    await restore();
    expect((await api(svc.url, 'GET', `/v2/schedules/${id}`, { key: KEY })).body.status).toBe('finished');
    expect((await api(svc.url, 'DELETE', `/v2/schedules/${id}`, { key: KEY })).status).toBe(204);
    expect((await api(svc.url, 'GET', `/v2/schedules/${id}`, { key: KEY })).status).toBe(404);
  });
});

describe('crashes counted against an action', () => {
  it('the service dying of an error while an action runs notes it; three such deaths fail it with too_many_attempts', async () => {
    const svc = await service();
    const ack = await api(svc.url, 'POST', '/schedules', { key: KEY, body: smallOneOff() });
    await svc.runner.waitForStarts(1);
    // What Node runs as the process exits after an uncaught error: the service's exit hook.
    const exitHook = process.listeners('exit').at(-1) as (code: number) => void;
    exitHook(1);
    const notes = await readdir(join(svc.dataDir, 'crashes'));
    expect(notes).toHaveLength(1);
    const note = JSON.parse(await readFile(join(svc.dataDir, 'crashes', notes[0]!), 'utf8'));
    expect(note.running).toEqual([ack.body.actionUuid]);

    // Two more such deaths, as the notes they leave (the process cannot die three times in a test).
    for (let i = 0; i < 2; i++) {
      await writeFile(join(svc.dataDir, 'crashes', `${randomUUID()}.json`), JSON.stringify({ running: [ack.body.actionUuid] }));
    }
    const dataDir = svc.dataDir;
    services.splice(services.indexOf(svc), 1);
    await svc.stop();
    const again = await service({ dataDir });
    const failed = await api(again.url, 'GET', `/v2/schedules/${ack.body.actionUuid}`, { key: KEY });
    expect([failed.body.status, failed.body.error.code]).toEqual(['failed', 'too_many_attempts']);
    expect(failed.body.error.message).toMatch(/crashed 3 times/);
    expect(await readdir(join(dataDir, 'crashes'))).toEqual([]);
  });

  it('a clean shutdown during a solve is no crash: nothing is noted and the action runs again', async () => {
    const svc = await service();
    await api(svc.url, 'POST', '/schedules', { key: KEY, body: smallOneOff() });
    await svc.runner.waitForStarts(1);
    const exitHook = process.listeners('exit').at(-1) as (code: number) => void;
    await svc.stop();
    exitHook(0);
    expect(await readdir(join(svc.dataDir, 'crashes'))).toEqual([]);
  });
});
