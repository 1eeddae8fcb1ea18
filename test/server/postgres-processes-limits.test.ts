/**
 * Issue 27, items 1 and 2, with the built binary: two `routeplan serve` processes on one real
 * PostgreSQL (test/support/postgres.ts). The queue's limits hold however the concurrent admissions
 * are spread over the processes, and a graceful stop (SIGTERM, exit 0) of the process solving an
 * action never counts against it, however often it happens.
 */
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';
import { generateOneOff } from '../support/generate.js';
import { databasePerTest, postgresUnavailable, withClient } from '../support/postgres.js';
import { api } from './harness.js';
import { builtServersOnDatabase, type BuiltServer } from './built.js';

const KEY = 'limits-key-one';
const OTHER_KEY = 'limits-key-two';
const ENV = { ROUTEPLAN_SERVER_KEYS: `${KEY},${OTHER_KEY}` };

describe.skipIf(postgresUnavailable())('queue limits and graceful stops across processes on one PostgreSQL (built binary)', () => {
  const db = databasePerTest();
  const serve = builtServersOnDatabase(db, ENV, 'limits');

  // Role api: nothing is solved, so every accepted action stays waiting and the count is exact.
  const API_ONLY = ['--role', 'api', '--time-limit', '5'];

  it('queue limits overshoot on PostgreSQL: 60 concurrent POSTs over two processes with --queue-size 10 leave exactly 10 waiting', async () => {
    const args = [...API_ONLY, '--queue-size', '10', '--queue-per-key', '10'];
    const both = [await serve('one', args), await serve('two', args)];
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        api(both[i % 2]!.url, 'POST', '/schedules', { key: i % 3 === 0 ? OTHER_KEY : KEY, body: generateOneOff(300 + i, { stops: 5 }) }),
      ),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.every((status) => status === 202 || status === 429)).toBe(true);
    expect(statuses.filter((status) => status === 202)).toHaveLength(10);
    expect(replies.filter((reply) => reply.status === 429).every((reply) => reply.body.error.code === 'queue_full')).toBe(true);
    expect(await waitingCount(db().url)).toBe(10);
    expect(await jobCount(db().url)).toBe(10);
  }, 60_000);

  it('queue limits overshoot on PostgreSQL: a key with --queue-per-key 4 gets 4 waiting of 40 concurrent POSTs over two processes', async () => {
    const args = [...API_ONLY, '--queue-size', '40', '--queue-per-key', '4'];
    const both = [await serve('one', args), await serve('two', args)];
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api(both[i % 2]!.url, 'POST', '/schedules', { key: KEY, body: generateOneOff(400 + i, { stops: 5 }) }),
      ),
    );
    expect(replies.filter((reply) => reply.status === 202)).toHaveLength(4);
    const refused = replies.filter((reply) => reply.status !== 202);
    expect(refused.every((reply) => reply.status === 429 && reply.body.error.code === 'key_quota_exceeded')).toBe(true);
    expect(await waitingCount(db().url)).toBe(4);
    // The other key still has its own share.
    expect((await api(both[1]!.url, 'POST', '/schedules', { key: OTHER_KEY, body: generateOneOff(499, { stops: 5 }) })).status).toBe(202);
  }, 60_000);

  it('a graceful stop counts as a failure on PostgreSQL: five SIGTERMs in a row of the process solving one action, and it still finishes', async () => {
    const args = ['--role', 'all', '--time-limit', '15', '--concurrency', '1', '--shutdown-timeout', '0'];
    let live = [await serve('first', args), await serve('second', args)];
    const document = generateOneOff(23, { stops: 150 });
    const accepted = await api(live[0]!.url, 'POST', '/schedules', { key: KEY, body: document });
    expect(accepted.status).toBe(202);
    const id = accepted.body.actionUuid as string;

    let stoppedAt = Date.now();
    const takeovers: number[] = [];
    for (let round = 1; round <= 5; round += 1) {
      // Each live process solves the action at most once (it is stopped as soon as it has started it).
      await waitUntil(async () => live.some(isSolving), 30_000);
      takeovers.push((Date.now() - stoppedAt) / 1000);
      const solving = live.find(isSolving)!;
      stoppedAt = Date.now();
      expect(await solving.stop()).toBe(0);
      expect(solving.stderr()).toMatch(/"event":"solve_interrupted"/);
      expect((await api(live.find((server) => server !== solving)!.url, 'GET', `/v2/schedules/${id}`, { key: KEY })).body.status).toBe(
        'pending',
      );
      live = [live.find((server) => server !== solving)!, await serve(`round-${round}`, args)];
    }

    await waitUntil(async () => live.some(isSolving), 30_000);
    takeovers.push((Date.now() - stoppedAt) / 1000);
    // Given back at once, not after the 10 s a dead worker's claim takes to lapse.
    expect(Math.max(...takeovers.slice(1))).toBeLessThan(8);
    await waitUntil(async () => (await api(live[0]!.url, 'GET', `/v2/schedules/${id}`, { key: KEY })).body.status !== 'pending', 90_000);
    const action = (await api(live[1]!.url, 'GET', `/v2/schedules/${id}`, { key: KEY })).body;
    expect(action.status, JSON.stringify(action.error)).toBe('finished');
    const { problem } = loadProblemDocument(document, { expect: 'oneoff' });
    expect(checkPlan(problem, action.solution as Plan)).toEqual([]);
    // Only the run that finished counts: the five interrupted ones gave their attempt back.
    expect((await storedAction(db().url, id)).attempts).toBe(1);
    console.log(
      `five SIGTERMs of the solving process: taken over after ${takeovers
        .slice(1)
        .map((s) => s.toFixed(1))
        .join(', ')} s, then finished`,
    );
  }, 240_000);
});

function isSolving(server: BuiltServer): boolean {
  return server.stderr().includes('"event":"solve_started"');
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not so after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function query<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  return withClient(url, async (client) => (await client.query<R>(text, values)).rows);
}

async function waitingCount(url: string): Promise<number> {
  const [row] = await query<{ count: string }>(
    url,
    "SELECT count(*) FROM routeplan_actions WHERE status = 'pending' AND started_at IS NULL",
  );
  return Number(row!.count);
}

/** The solve jobs pg-boss holds: each admitted action has one, and nothing refused left one. */
async function jobCount(url: string): Promise<number> {
  const [row] = await query<{ count: string }>(url, "SELECT count(*) FROM routeplan_jobs.job WHERE name = 'routeplan-solve'");
  return Number(row!.count);
}

async function storedAction(url: string, id: string): Promise<{ attempts: number }> {
  const [row] = await query<{ stored: { attempts: number } }>(url, 'SELECT stored FROM routeplan_actions WHERE action_uuid = $1', [id]);
  return row!.stored;
}
