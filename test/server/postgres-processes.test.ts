/**
 * Several `routeplan serve` processes on one PostgreSQL behave as one service (decisions.md,
 * "Running the service on more than one machine"): the built binary, two processes, a real server
 * (test/support/postgres.ts). Nothing accepted is lost, nothing is solved twice, any process answers
 * for any action, and a worker killed mid-solve has its action finished by the other.
 */
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';
import { generateOneOff } from '../support/generate.js';
import { databasePerTest, postgresUnavailable, withClient } from '../support/postgres.js';
import { api } from './harness.js';
import { builtServersOnDatabase, runCli, type BuiltServer } from './built.js';

const KEY = 'scale-key-one';
const ENV = { ROUTEPLAN_SERVER_KEYS: `${KEY},scale-key-two` };

describe.skipIf(postgresUnavailable())('serve processes on one PostgreSQL (built binary)', () => {
  const db = databasePerTest();
  const serveOnDb = builtServersOnDatabase(db, ENV, 'scale');
  const serve = (name: string, args: string[]): Promise<BuiltServer> => serveOnDb(name, ['--role', 'all', ...args]);

  it('300 submissions spread over two processes all finish, each solved exactly once, every action readable from both', async () => {
    const args = ['--time-limit', '0.05', '--concurrency', '2', '--queue-size', '400', '--queue-per-key', '400'];
    const both = [await serve('one', args), await serve('two', args)];
    const documents = Array.from({ length: 300 }, (_, i) => generateOneOff(1000 + i, { stops: 8 }));
    const ids = await submitAll(both, documents);
    expect(new Set(ids).size).toBe(300);

    await waitUntil(async () => (await pendingCount(db().url)) === 0, 240_000);
    for (const [i, id] of ids.entries()) {
      const [fromOne, fromTwo] = await Promise.all(both.map((server) => api(server.url, 'GET', `/v2/schedules/${id}`, { key: KEY })));
      expect(fromOne!.body.status, JSON.stringify(fromOne!.body.error)).toBe('finished');
      expect(fromTwo!.body).toEqual(fromOne!.body);
      expectValidPlan(documents[i], fromOne!.body.solution as Plan);
    }
    const starts = eventsByAction(both, 'solve_started');
    const ends = eventsByAction(both, 'solve_ended');
    expect([...ends.keys()].sort()).toEqual([...ids].sort());
    expect([...ends.values()].every((count) => count === 1)).toBe(true);
    expect([...starts.values()].every((count) => count === 1)).toBe(true);
    const solvedBy = both.map((server) => countEvents(server, 'solve_ended'));
    expect(solvedBy.every((count) => count > 0)).toBe(true);
    console.log(`300 submissions, 150 to each process: all finished; solved ${solvedBy.join(' + ')}, each exactly once`);
  }, 300_000);

  it('kill -9 of the worker solving an action: the other process takes it over and finishes it', async () => {
    const args = ['--time-limit', '6', '--concurrency', '1'];
    const both = [await serve('one', args), await serve('two', args)];
    const document = generateOneOff(21, { stops: 150 });
    const accepted = await api(both[0]!.url, 'POST', '/schedules', { key: KEY, body: document });
    expect(accepted.status).toBe(202);
    const id = accepted.body.actionUuid as string;
    await waitUntil(async () => both.some((server) => server.stderr().includes('"event":"solve_started"')), 30_000);
    const victim = both.find((server) => server.stderr().includes('"event":"solve_started"'))!;
    const survivor = both.find((server) => server !== victim)!;
    await victim.kill9();
    const killedAt = Date.now();

    // The survivor answers for the action meanwhile, and takes new work.
    expect((await api(survivor.url, 'GET', `/v2/schedules/${id}`, { key: KEY })).body.status).toBe('pending');
    await waitUntil(async () => survivor.stderr().includes('"event":"solve_started"'), 60_000);
    const takeoverSeconds = (Date.now() - killedAt) / 1000;
    await waitUntil(async () => (await api(survivor.url, 'GET', `/v2/schedules/${id}`, { key: KEY })).body.status !== 'pending', 60_000);
    const action = (await api(survivor.url, 'GET', `/v2/schedules/${id}`, { key: KEY })).body;
    expect(action.status, JSON.stringify(action.error)).toBe('finished');
    expectValidPlan(document, action.solution as Plan);
    expect(takeoverSeconds).toBeLessThan(60);
    expect(countEvents(survivor, 'solve_ended')).toBe(1);
    expect((await storedAction(db().url, id)).attempts).toBe(2);
    console.log(`kill -9 of the solving process: the other started the action ${takeoverSeconds.toFixed(1)} s later and finished it`);
  }, 180_000);

  it('SIGTERM of the worker solving an action: it exits 0 and its action goes back to the queue at once, for the other to finish', async () => {
    const args = ['--time-limit', '20', '--concurrency', '1', '--shutdown-timeout', '0'];
    const both = [await serve('one', args), await serve('two', args)];
    const document = generateOneOff(22, { stops: 150 });
    const accepted = await api(both[0]!.url, 'POST', '/schedules', { key: KEY, body: document });
    const id = accepted.body.actionUuid as string;
    await waitUntil(async () => both.some((server) => server.stderr().includes('"event":"solve_started"')), 30_000);
    const stopping = both.find((server) => server.stderr().includes('"event":"solve_started"'))!;
    const other = both.find((server) => server !== stopping)!;
    const stoppedAt = Date.now();
    expect(await stopping.stop()).toBe(0);
    expect(stopping.stderr()).toMatch(/"event":"solve_interrupted"/);
    await waitUntil(async () => other.stderr().includes('"event":"solve_started"'), 30_000);
    const restartSeconds = (Date.now() - stoppedAt) / 1000;
    // Well before the 10 s a dead worker's claim takes to lapse.
    expect(restartSeconds).toBeLessThan(8);
    await waitUntil(async () => (await api(other.url, 'GET', `/v2/schedules/${id}`, { key: KEY })).body.status !== 'pending', 60_000);
    expect((await api(other.url, 'GET', `/v2/schedules/${id}`, { key: KEY })).body.status).toBe('finished');
    console.log(`SIGTERM of the solving process: the other started the action ${restartSeconds.toFixed(1)} s later and finished it`);
  }, 120_000);

  it('an unreachable database: serve exits 3 and says so, without the password', async () => {
    const result = await runCli(['serve', '--port', '0', '--database', 'postgres://routeplan:secret-pw@127.0.0.1:1/routeplan'], ENV);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/cannot use the database postgres:\/\/routeplan:\*\*\*@127\.0\.0\.1:1\/routeplan/);
    expect(result.stderr).not.toContain('secret-pw');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

/** Submits every document, `both` in turn, thirty at a time; answers the action ids in order. */
async function submitAll(both: BuiltServer[], documents: unknown[]): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < documents.length; start += 30) {
    const batch = documents.slice(start, start + 30);
    const replies = await Promise.all(
      batch.map((body, i) => api(both[(start + i) % both.length]!.url, 'POST', '/schedules', { key: KEY, body })),
    );
    for (const reply of replies) {
      expect(reply.status, JSON.stringify(reply.body)).toBe(202);
      ids.push(reply.body.actionUuid as string);
    }
  }
  return ids;
}

function expectValidPlan(document: unknown, plan: Plan): void {
  const { problem } = loadProblemDocument(document, { expect: 'oneoff' });
  expect(checkPlan(problem, plan)).toEqual([]);
  expect(plan.summary.served + plan.summary.unserved).toBe(problem.stops.length);
}

function logEvents(server: BuiltServer, event: string): { action_id: string }[] {
  return server
    .stderr()
    .split('\n')
    .filter((line) => line.includes(`"event":"${event}"`))
    .map((line) => JSON.parse(line) as { action_id: string });
}

function countEvents(server: BuiltServer, event: string): number {
  return logEvents(server, event).length;
}

function eventsByAction(servers: BuiltServer[], event: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const server of servers)
    for (const { action_id } of logEvents(server, event)) counts.set(action_id, (counts.get(action_id) ?? 0) + 1);
  return counts;
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

async function pendingCount(url: string): Promise<number> {
  const [row] = await query<{ count: string }>(url, "SELECT count(*) FROM routeplan_actions WHERE status = 'pending'");
  return Number(row!.count);
}

async function storedAction(url: string, id: string): Promise<{ attempts: number }> {
  const [row] = await query<{ stored: { attempts: number } }>(url, 'SELECT stored FROM routeplan_actions WHERE action_uuid = $1', [id]);
  return row!.stored;
}
