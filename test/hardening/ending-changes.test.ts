/**
 * Issue 27, item 3: "an ending that could not be written within ~30 s is never written (data
 * directory), and the answer changes". With the disk full for more than 30 s while an action
 * ended, polls said `finished` with plan A, the record was never saved once space came back, and
 * after a restart the action was `pending`, then `finished` with another plan B.
 *
 * The failures are real: the data directory is on a tmpfs of its own, filled to the last byte
 * (ENOSPC), and on PostgreSQL the database itself refuses the ending's write with SQLSTATE 53100
 * (disk_full) from a trigger. An action's outcome, once any poll has seen it, never changes: no poll
 * sees an ending the store does not hold, and the ending is retried until it is written.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';
import { generateOneOff } from '../support/generate.js';
import { freshDatabase, postgresUnavailable, withClient, type TestDatabase } from '../support/postgres.js';
import { api, cannedPlan, smallOneOff, startTestService, type TestService } from '../server/harness.js';
import { assertBuilt, startBuiltServer, type BuiltServer } from '../server/built.js';

const KEY = 'ending-key';
/** Longer than the ~30 s after which the data directory used to give up writing an ending. */
const FULL_FOR_MS = 35_000;

describe.skipIf(tmpfsUnavailable())(
  'an ending that could not be written within 30 s was never written, and the answer changed (data directory, a real full tmpfs)',
  () => {
    let mountPoint: string;
    const servers: BuiltServer[] = [];

    beforeEach(async () => {
      assertBuilt();
      mountPoint = await mkdtemp(join(tmpdir(), 'routeplan-full-disk-'));
      mount(mountPoint, '16m');
    });
    afterEach(async () => {
      for (const server of servers.splice(0)) await server.kill9();
      spawnSync('umount', [mountPoint]);
      await rmdir(mountPoint);
    });

    async function serve(dataDir: string): Promise<BuiltServer> {
      const args = ['--data-dir', dataDir, '--time-limit', '5', '--concurrency', '1'];
      const server = await startBuiltServer(args, { ROUTEPLAN_SERVER_KEYS: KEY });
      servers.push(server);
      return server;
    }

    it('no poll says finished while the disk is full (35 s); the ending is saved once there is room, and a restart shows the same outcome without solving again', async () => {
      const dataDir = join(mountPoint, 'data');
      const document = generateOneOff(27, { stops: 200 });
      const first = await serve(dataDir);
      const accepted = await api(first.url, 'POST', '/schedules', { key: KEY, body: document });
      expect(accepted.status).toBe(202);
      const id = accepted.body.actionUuid as string;
      const poll = async (server: BuiltServer) => (await api(server.url, 'GET', `/v2/schedules/${id}`, { key: KEY })).body;
      await waitUntil(async () => first.stderr().includes('"event":"solve_started"'), 15_000);

      const filler = join(mountPoint, 'filler');
      await fillUp(filler);
      // The solve ends within its 5 s time limit, well inside the 35 s the disk stays full.
      const fullSince = Date.now();
      const seen = new Set<string>();
      let sawProgress = false;
      while (Date.now() - fullSince < FULL_FOR_MS) {
        const body = await poll(first);
        seen.add(body.status as string);
        sawProgress ||= body.progress !== undefined;
        await sleep(250);
      }
      expect([...seen]).toEqual(['pending']);
      expect(sawProgress).toBe(true);
      expect(JSON.parse(await readFile(join(dataDir, 'actions', `${id}.json`), 'utf8')).record.status).toBe('pending');
      // Logged when the disk began refusing, not once per retry.
      expect(events(first, 'ending_not_saved')).toHaveLength(1);

      await rm(filler);
      await waitUntil(async () => (await poll(first)).status === 'finished', 15_000);
      const shown = await poll(first);
      expectValidPlan(document, shown.solution as Plan);
      const onDisk = JSON.parse(await readFile(join(dataDir, 'actions', `${id}.json`), 'utf8'));
      expect(onDisk.record).toEqual(shown);
      expect(events(first, 'ending_saved')).toHaveLength(1);

      expect(await first.stop()).toBe(0);
      const second = await serve(dataDir);
      expect(await poll(second)).toEqual(shown);
      await sleep(1_000);
      expect(events(second, 'solve_started')).toHaveLength(0);
    }, 120_000);
  },
);

describe.skipIf(postgresUnavailable())(
  'an ending the database refuses is retried, and no poll reports it before the database holds it (PostgreSQL)',
  () => {
    let db: TestDatabase;
    let svc: TestService | undefined;

    beforeEach(async () => {
      db = await freshDatabase();
    });
    afterEach(async () => {
      await svc?.stop();
      svc = undefined;
      await db.drop();
    });

    it('while the ending’s write fails (SQLSTATE 53100) polls say pending; once it succeeds, finished with that plan, solved once', async () => {
      svc = await startTestService({ database: db.url });
      const service = svc;
      const accepted = await api(service.url, 'POST', '/schedules', { key: 'key-alpha', body: smallOneOff() });
      const id = accepted.body.actionUuid as string;
      const poll = async () => (await api(service.url, 'GET', `/v2/schedules/${id}`, { key: 'key-alpha' })).body;
      await service.runner.waitForStarts(1);
      await refuseEndings(db.url, true);
      service.runner.finishNext({ ok: true, plan: cannedPlan('the one plan') });
      for (let i = 0; i < 12; i += 1) {
        expect((await poll()).status).toBe('pending');
        expect(await statusInDatabase(db.url, id)).toBe('pending');
        await sleep(250);
      }

      await refuseEndings(db.url, false);
      await waitUntil(async () => (await poll()).status === 'finished', 15_000);
      const shown = await poll();
      expect(shown.solution.unserved[0].stop).toBe('the one plan');
      expect(await statusInDatabase(db.url, id)).toBe('finished');
      expect(service.runner.started).toHaveLength(1);
      expect(service.logs.filter((line) => line.includes('"event":"ending_saved"'))).toHaveLength(1);
      expect(service.logs.filter((line) => line.includes('"event":"ending_not_saved"'))).toHaveLength(1);
    }, 60_000);
  },
);

/** A trigger that makes PostgreSQL refuse every ending of an action, as a full disk would (53100 disk_full). */
async function refuseEndings(url: string, refuse: boolean): Promise<void> {
  await withClient(url, async (client) => {
    if (!refuse) {
      await client.query('DROP TRIGGER refuse_endings ON routeplan_actions');
      return;
    }
    await client.query(`CREATE OR REPLACE FUNCTION refuse_endings() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status <> 'pending' THEN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100'; END IF;
        RETURN NEW;
      END $$`);
    await client.query('CREATE TRIGGER refuse_endings BEFORE UPDATE ON routeplan_actions FOR EACH ROW EXECUTE FUNCTION refuse_endings()');
  });
}

async function statusInDatabase(url: string, id: string): Promise<string> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ status: string }>('SELECT status FROM routeplan_actions WHERE action_uuid = $1', [id]);
    return rows[0]!.status;
  });
}

/** Why a tmpfs cannot be mounted here (not root, or no permission); null when it can. */
function tmpfsUnavailable(): string | null {
  const probe = mkdtempSync(join(tmpdir(), 'routeplan-mount-probe-'));
  try {
    mount(probe, '1m');
    spawnSync('umount', [probe]);
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    rmdirSync(probe);
  }
}

function mount(at: string, size: string): void {
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', at], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cannot mount a tmpfs: ${result.stderr || result.error?.message}`);
}

/** Writes until the file system has no byte left (ENOSPC). */
async function fillUp(file: string): Promise<void> {
  try {
    await writeFile(file, Buffer.alloc(64 * 1024 * 1024));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    return;
  }
  throw new Error('the file system did not fill up');
}

function expectValidPlan(document: unknown, plan: Plan): void {
  const { problem } = loadProblemDocument(document, { expect: 'oneoff' });
  expect(checkPlan(problem, plan)).toEqual([]);
  expect(plan.summary.served + plan.summary.unserved).toBe(problem.stops.length);
}

function events(server: BuiltServer, event: string): string[] {
  return server
    .stderr()
    .split('\n')
    .filter((line) => line.includes(`"event":"${event}"`));
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not so after ${timeoutMs} ms`);
    await sleep(100);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
