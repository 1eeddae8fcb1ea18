/**
 * One process owns a data directory (decisions.md, "Running the service on more than one machine"):
 * with real `routeplan serve` processes, a second one on the same directory refuses to start, and
 * the lock of a process killed with -9 is taken over with a warning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, smallOneOff, startTestService } from './harness.js';
import { assertBuilt, runCli, startBuiltServer, type BuiltServer } from './built.js';

const ENV = { ROUTEPLAN_SERVER_KEYS: 'key-alpha' };
let work: string;
const servers: BuiltServer[] = [];

beforeAll(async () => {
  assertBuilt();
  work = await mkdtemp(join(tmpdir(), 'routeplan-lock-'));
});
afterAll(async () => {
  for (const server of servers) await server.kill9();
  await rm(work, { recursive: true, force: true });
});

async function serve(dataDir: string): Promise<BuiltServer> {
  const server = await startBuiltServer(['--data-dir', dataDir, '--time-limit', '0.3'], ENV);
  servers.push(server);
  return server;
}

describe('the data-directory lock', () => {
  it('a second serve on the same data directory refuses to start (exit 2), naming the directory and the owning pid; the first keeps serving', async () => {
    const dataDir = join(work, 'shared');
    const first = await serve(dataDir);
    const lock = JSON.parse(await readFile(join(dataDir, 'serve.lock'), 'utf8'));
    expect(lock.pid).toBe(first.child.pid);

    const second = await runCli(['serve', '--port', '0', '--data-dir', dataDir], ENV, 20_000);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(dataDir);
    expect(second.stderr).toContain(`pid ${first.child.pid}`);
    expect(second.stderr).toContain('in use');
    expect(second.stderr).not.toMatch(/\n\s+at /); // no stack trace

    const accepted = await api(first.url, 'POST', '/schedules', { body: smallOneOff(), key: 'key-alpha' });
    expect(accepted.status).toBe(202);
    expect(JSON.parse(await readFile(join(dataDir, 'serve.lock'), 'utf8')).pid).toBe(first.child.pid);
  });

  it('a clean stop (SIGTERM) removes the lock, and the next serve starts without a warning', async () => {
    const dataDir = join(work, 'clean');
    const first = await serve(dataDir);
    expect(await first.stop()).toBe(0);
    expect(existsSync(join(dataDir, 'serve.lock'))).toBe(false);
    const next = await serve(dataDir);
    expect(next.stderr()).not.toContain('stale lock');
  });

  it('a stale lock (its process killed with -9) is taken over with a warning, and the accepted action is still there', async () => {
    const dataDir = join(work, 'stale');
    const first = await serve(dataDir);
    const accepted = await api(first.url, 'POST', '/schedules', { body: smallOneOff(), key: 'key-alpha' });
    expect(accepted.status).toBe(202);
    await first.kill9();
    expect(existsSync(join(dataDir, 'serve.lock'))).toBe(true);

    const second = await serve(dataDir);
    expect(second.stderr()).toContain('took over the stale lock of data directory');
    expect(second.stderr()).toContain(`"previous_pid":${first.child.pid}`);
    expect(JSON.parse(await readFile(join(dataDir, 'serve.lock'), 'utf8')).pid).toBe(second.child.pid);
    const action = await api(second.url, 'GET', `/v2/schedules/${accepted.body.actionUuid}`, { key: 'key-alpha' });
    expect(action.status).toBe(200);
  });

  it('two serve processes started at the same moment on one new directory: exactly one runs, the other exits 2', async () => {
    const dataDir = join(work, 'race');
    const outcomes = await Promise.allSettled([serve(dataDir), serve(dataDir)]);
    const running = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(running).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(String(refused[0]!.reason)).toContain('exited with 2');
    expect(String(refused[0]!.reason)).toContain('in use');
  });

  it('two services in one process cannot share a data directory either; once the first closes, it can', async () => {
    const first = await startTestService();
    const refused = await startTestService({ dataDir: first.dataDir }).catch((error: unknown) => error);
    expect((refused as Error).message).toContain(`pid ${process.pid}`);
    await first.stop();
    const again = await startTestService({ dataDir: first.dataDir });
    await again.stop();
    await rm(first.dataDir, { recursive: true, force: true });
  });
});
