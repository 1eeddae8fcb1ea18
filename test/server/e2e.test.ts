/**
 * End to end over loopback: the built `routeplan serve` on an ephemeral port, driven by the built
 * CLI (`submit`, `poll`) and by raw fetch. Plans are checked by the independent checker. One suite,
 * two stores: every test runs on the data directory and on PostgreSQL (a real server, see
 * test/support/postgres.ts), where each named service gets its own database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';
import { generateOneOff } from '../support/generate.js';
import { api, smallOneOff, smallProject } from './harness.js';
import { freshDatabase, postgresUnavailable, withClient, type TestDatabase } from '../support/postgres.js';
import { assertBuilt, runCli, startBuiltServer, type BuiltServer } from './built.js';

const KEYS = 'e2e-key-one,e2e-key-two';
const KEY = 'e2e-key-one';
const OTHER_KEY = 'e2e-key-two';

let work: string;
const servers: BuiltServer[] = [];
/** Per service name, its database (the PostgreSQL runs): a restart under the same name finds it again. */
const databases = new Map<string, TestDatabase>();

beforeAll(async () => {
  assertBuilt();
  work = await mkdtemp(join(tmpdir(), 'routeplan-e2e-'));
});
afterAll(async () => {
  for (const server of servers) await server.kill9();
  for (const database of databases.values()) await database.drop();
  await rm(work, { recursive: true, force: true });
});

type StoreKind = 'data directory' | 'PostgreSQL';
const STORES: StoreKind[] = postgresUnavailable() === null ? ['data directory', 'PostgreSQL'] : ['data directory'];
let store: StoreKind = 'data directory';

async function storeArgs(name: string): Promise<string[]> {
  if (store === 'data directory') return ['--data-dir', join(work, name)];
  const key = `${store}/${name}`;
  if (!databases.has(key)) databases.set(key, await freshDatabase());
  return ['--data-dir', join(work, name), '--database', databases.get(key)!.url];
}

async function serve(name: string, args: string[] = [], env: Record<string, string> = { ROUTEPLAN_SERVER_KEYS: KEYS }) {
  const server = await startBuiltServer([...(await storeArgs(name)), '--time-limit', '0.3', ...args], env);
  servers.push(server);
  return server;
}

/** The stored actions of a named service, as the store keeps them. */
async function storedActions(name: string): Promise<any[]> {
  if (store === 'data directory') {
    const directory = join(work, name, 'actions');
    return Promise.all((await readdir(directory)).map(async (file) => JSON.parse(await readFile(join(directory, file), 'utf8'))));
  }
  const url = databases.get(`${store}/${name}`)!.url;
  return withClient(url, async (client) => (await client.query('SELECT stored FROM routeplan_actions')).rows.map((row) => row.stored));
}

async function writeJson(name: string, document: unknown): Promise<string> {
  const path = join(work, name);
  await writeFile(path, JSON.stringify(document));
  return path;
}

function expectValidPlan(document: unknown, plan: Plan): void {
  const { problem } = loadProblemDocument(document, { expect: 'oneoff' });
  expect(checkPlan(problem, plan)).toEqual([]);
  expect(plan.summary.served + plan.summary.unserved).toBe(problem.stops.length);
}

/** Polls with raw fetch until the action ends (bounded). */
async function settle(url: string, actionUuid: string, key = KEY, limitMs = 60_000): Promise<any> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const reply = await api(url, 'GET', `/v2/schedules/${actionUuid}`, { key });
    if (reply.body.status === 'finished' || reply.body.status === 'failed') return reply.body;
    if (Date.now() > deadline) throw new Error(`action ${actionUuid} still ${reply.body.status} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(STORES)('routeplan serve + submit/poll on the %s (built binaries, loopback)', (kind) => {
  beforeAll(() => {
    store = kind;
  });

  it('submit → poll → plan: the CLI submits a one-off, polls it, and the plan passes the checker', async () => {
    const server = await serve('basic');
    const document = generateOneOff(11, { stops: 40 });
    const file = await writeJson('basic.json', document);
    const submitted = await runCli(['submit', file, '--remote', server.url, '--api-key', KEY]);
    expect(submitted.code, submitted.stderr).toBe(0);
    const actionUuid = submitted.stdout.trim();
    expect(actionUuid).toMatch(/^[0-9a-f-]{36}$/);

    const polled = await runCli(['poll', actionUuid, '--json', '--timeout', '60'], {
      ROUTEPLAN_BASE_URL: server.url,
      ROUTEPLAN_API_KEY: KEY,
    });
    expect(polled.code, polled.stderr).toBe(0);
    const plan = JSON.parse(polled.stdout) as Plan;
    expectValidPlan(document, plan);

    const tables = await runCli(['poll', actionUuid, '--remote', server.url, '--api-key', KEY]);
    expect(tables.code).toBe(0);
    expect(tables.stdout).toContain(plan.routes[0]?.vehicle ?? 'unserved');
    for (const output of [submitted, polled, tables]) expect(output.stdout + output.stderr).not.toContain(KEY);
  });

  it('the built service finds the web application built beside it: GET / is the page, and no "not built" warning', async () => {
    const server = await serve('web-root');
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(server.stderr()).not.toContain('the web application is not built');
  });

  it('submit --wait --json prints the plan as solve does', async () => {
    const server = await serve('wait');
    const file = await writeJson('wait.json', smallOneOff());
    const result = await runCli(['submit', file, '--remote', server.url, '--api-key', KEY, '--wait', '--json', '--timeout', '60']);
    expect(result.code, result.stderr).toBe(0);
    expectValidPlan(smallOneOff(), JSON.parse(result.stdout) as Plan);
  });

  it('submit of a project prints its id and page URL; the project exists on the service', async () => {
    const server = await serve('project');
    const file = await writeJson('project.json', smallProject());
    const result = await runCli(['submit', file, '--remote', server.url, '--api-key', KEY]);
    expect(result.code, result.stderr).toBe(0);
    const [id, url] = result.stdout.trim().split(' ');
    expect(url).toBe(`${server.url}/projects/${id}`);
    const project = await api(server.url, 'GET', `/v1.0/project/${id}`, { key: KEY });
    expect(project.status).toBe(200);
    expect(project.body).toMatchObject({ id, name: 'Morning rounds', date: '2026-11-23' });
  });

  it('optimize <project-id> --remote --wait prints the plan of the project as changed; exit codes as submit', async () => {
    const server = await serve('optimize');
    const remote = ['--remote', server.url, '--api-key', KEY];
    const submitted = await runCli(['submit', await writeJson('optimize.json', smallProject()), ...remote]);
    const id = submitted.stdout.trim().split(' ')[0]!;
    const project = (await api(server.url, 'GET', `/v1.0/project/${id}`, { key: KEY })).body;
    const dropped = await api(server.url, 'DELETE', `/v1.0/project/${id}/stops/${project.stops[0].id}`, { key: KEY });
    expect(dropped.status).toBe(200);
    const waited = await runCli(['optimize', id, ...remote, '--wait', '--json', '--timeout', '60']);
    expect(waited.code, waited.stderr).toBe(0);
    const plan = JSON.parse(waited.stdout) as Plan;
    expect(plan.summary.served + plan.summary.unserved).toBe(1); // the stop deleted is not planned
    const keyed = ['optimize', id, ...remote, '--idempotency-key', 'nightly-1'];
    const [first, again] = [await runCli(keyed), await runCli(keyed)];
    expect([first.code, again.code, again.stdout]).toEqual([0, 0, first.stdout]);
    expect(again.stderr).toContain(`the service already had this request: action ${first.stdout.trim()}`);
    const unknown = await runCli(['optimize', '00000000-0000-4000-8000-000000000000', ...remote]);
    expect(unknown.code).toBe(3);
    expect((await runCli(['optimize', id, '--remote', server.url])).code).toBe(4);
    expect((await runCli(['optimize', 'not/an/id', ...remote])).code).toBe(2);
  });

  it('submit validates locally first: an invalid file exits 2 and nothing reaches the service', async () => {
    const server = await serve('invalid');
    const file = await writeJson('invalid.json', smallOneOff({ date: '2026-11-23' }));
    const result = await runCli(['submit', file, '--remote', server.url, '--api-key', KEY, '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout).error.details.map((detail: { path: string }) => detail.path)).toContain('date');
    expect(await storedActions('invalid')).toEqual([]);
  });

  it('auth: a wrong or missing key exits 4 and the key is never printed; lower-case bearer works', async () => {
    const server = await serve('auth');
    const file = await writeJson('auth.json', smallOneOff());
    const wrong = await runCli(['submit', file, '--remote', server.url, '--api-key', 'not-a-valid-key']);
    expect(wrong.code).toBe(4);
    expect(wrong.stdout + wrong.stderr).not.toContain('not-a-valid-key');
    const missing = await runCli(['submit', file, '--remote', server.url]);
    expect(missing.code).toBe(4);
    const lower = await api(server.url, 'POST', '/schedules', { key: KEY, scheme: 'bearer', body: smallOneOff() });
    expect(lower.status).toBe(202);
    const theirs = await api(server.url, 'GET', `/v2/schedules/${lower.body.actionUuid}`, { key: OTHER_KEY });
    expect(theirs.status).toBe(404);
    const poll = await runCli(['poll', lower.body.actionUuid, '--remote', server.url, '--api-key', OTHER_KEY]);
    expect(poll.code).toBe(3);
  });

  it('poll --once prints the status or the plan; an unknown action exits 3; an unreachable service exits 3', async () => {
    const server = await serve('once');
    const ack = await api(server.url, 'POST', '/schedules', { key: KEY, body: smallOneOff() });
    const once = await runCli(['poll', ack.body.actionUuid, '--once', '--remote', server.url, '--api-key', KEY]);
    expect(once.code).toBe(0);
    // Either still running (the status word) or already done (the plan tables).
    expect(once.stdout.trim() === 'pending' || once.stdout.includes('van 1')).toBe(true);
    expect((await settle(server.url, ack.body.actionUuid)).status).toBe('finished');
    // --once --json: always the action record, with its solution once finished (one shape for scripts).
    const done = await runCli(['poll', ack.body.actionUuid, '--once', '--json', '--remote', server.url, '--api-key', KEY]);
    expect(done.code).toBe(0);
    const record = JSON.parse(done.stdout);
    expect([record.actionUuid, record.status, record.solution.version]).toEqual([ack.body.actionUuid, 'finished', 1]);
    // No key at all: the error says where a key goes, in routeplan's terms.
    const keyless = await runCli(['poll', ack.body.actionUuid, '--once', '--remote', server.url]);
    expect(keyless.code).toBe(4);
    expect(keyless.stderr).toContain(
      'pass --api-key-file <file> (a file holding the key), set ROUTEPLAN_API_KEY, or put api_key in routeplan.config.yaml',
    );
    const keyFile = join(work, 'api-key.txt');
    await writeFile(keyFile, `\n${KEY}\n`);
    const fromFile = await runCli(['poll', ack.body.actionUuid, '--once', '--remote', server.url, '--api-key-file', keyFile]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const unknown = await runCli(['poll', '00000000-0000-4000-8000-000000000000', '--remote', server.url, '--api-key', KEY]);
    expect(unknown.code).toBe(3);
    const down = await runCli([
      'poll',
      ack.body.actionUuid,
      '--once',
      '--remote',
      'http://127.0.0.1:9',
      '--api-key',
      KEY,
      '--timeout',
      '3',
    ]);
    expect(down.code).toBe(3);
  });

  it('every rejection of the interface answers 400 with the error body, over the wire', async () => {
    const server = await serve('rejections');
    const base = smallOneOff();
    const route = (base.routesData as unknown[])[0];
    const order = (base.ordersData as unknown[])[0];
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, date: '2026-11-23' }, 'date'],
      [{ routes: [route], orders: [order] }, 'routes'],
      [{ ...base, orders: [order] }, 'orders'],
      [{ ...base, workspaceUuid: 'c56a4180-65aa-42ec-a945-5fd21dec0538' }, 'workspaceUuid'],
      [{ ...base, routesData: Array.from({ length: 501 }, () => route) }, 'routesData'],
      [{ ...base, ordersData: Array.from({ length: 5001 }, () => order) }, 'ordersData'],
    ];
    for (const [body, path] of cases) {
      const reply = await api(server.url, 'POST', '/schedules', { key: KEY, body });
      expect(reply.status, path).toBe(400);
      expect(Object.keys(reply.body.error).sort()).toEqual(['code', 'details', 'message']);
      expect(
        reply.body.error.details.map((detail: { path: string }) => detail.path),
        path,
      ).toContain(path);
    }
  });

  it('413 over the body limit, 415, malformed JSON, 404 and 405 keep the service up', async () => {
    const server = await serve('limits', ['--body-limit', '64k']);
    const big = await api(server.url, 'POST', '/schedules', { key: KEY, body: { ...smallOneOff(), pad: 'x'.repeat(70_000) } });
    expect(big.status).toBe(413);
    expect((await api(server.url, 'POST', '/schedules', { key: KEY, rawBody: '{}', contentType: 'text/csv' })).status).toBe(415);
    expect((await api(server.url, 'POST', '/schedules', { key: KEY, rawBody: '{oops' })).status).toBe(400);
    expect((await api(server.url, 'GET', '/v9/nothing', { key: KEY })).status).toBe(404);
    expect((await api(server.url, 'PATCH', '/v1.0/project', { key: KEY })).status).toBe(405);
    expect((await api(server.url, 'POST', '/schedules', { key: KEY, body: smallOneOff() })).status).toBe(202);
  });

  it('429 with Retry-After when the queue is full; every accepted action still finishes', async () => {
    const server = await serve('full', ['--concurrency', '1', '--queue-size', '1', '--time-limit', '1']);
    const document = generateOneOff(5, { stops: 60 });
    const replies = await Promise.all(Array.from({ length: 8 }, () => api(server.url, 'POST', '/schedules', { key: KEY, body: document })));
    const accepted = replies.filter((reply) => reply.status === 202);
    const refused = replies.filter((reply) => reply.status === 429);
    expect(accepted.length + refused.length).toBe(8);
    expect(refused.length).toBeGreaterThan(0);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused[0]!.body.error.code).toBe('queue_full');
    for (const reply of accepted) expect((await settle(server.url, reply.body.actionUuid)).status).toBe('finished');
  });

  const CONCURRENT_SUBMISSIONS = 100;
  it('100 concurrent submissions are all accepted and all finish, nothing lost', async () => {
    const server = await serve('many', ['--concurrency', '4', '--queue-size', '200', '--time-limit', '0.2']);
    const documents = Array.from({ length: CONCURRENT_SUBMISSIONS }, (_, i) => generateOneOff(100 + i, { stops: 12 }));
    const replies = await Promise.all(documents.map((body) => api(server.url, 'POST', '/schedules', { key: KEY, body })));
    expect(replies.map((reply) => reply.status)).toEqual(documents.map(() => 202));
    const ids = replies.map((reply) => reply.body.actionUuid as string);
    expect(new Set(ids).size).toBe(CONCURRENT_SUBMISSIONS);
    const actions = await Promise.all(ids.map((id) => settle(server.url, id, KEY, 120_000)));
    actions.forEach((action, i) => {
      expect(action.status, JSON.stringify(action.error)).toBe('finished');
      expectValidPlan(documents[i], action.solution as Plan);
    });
    expect((await storedActions('many')).length).toBe(CONCURRENT_SUBMISSIONS);
  });

  it('kill -9 during a solve, three times, then restart: the action is still there and completes (kills are not held against it)', async () => {
    const args = ['--concurrency', '1', '--time-limit', '3'];
    const document = generateOneOff(21, { stops: 150 });
    let actionUuid = '';
    for (let kill = 1; kill <= 3; kill++) {
      const server = await serve('crash', args);
      if (kill === 1) {
        const ack = await api(server.url, 'POST', '/schedules', { key: KEY, body: document });
        expect(ack.status).toBe(202);
        actionUuid = ack.body.actionUuid;
      }
      // On PostgreSQL the killed process's claim must lapse first (its heartbeat stops): seconds, not minutes.
      const deadline = Date.now() + (kind === 'PostgreSQL' ? 40_000 : 10_000);
      while (!/solve_started/.test(server.stderr()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await server.kill9();
      const [stored] = await storedActions('crash');
      expect([stored.record.status, stored.attempts]).toEqual(['pending', kill]);
    }

    const last = await serve('crash', ['--concurrency', '1', '--time-limit', '0.5']);
    if (kind === 'data directory') expect(last.stderr()).toMatch(/"requeued":1/);
    const action = await settle(last.url, actionUuid);
    expect(action.status, JSON.stringify(action.error)).toBe('finished');
    expectValidPlan(document, action.solution as Plan);
  });

  it('SIGTERM stops gracefully (exit 0); accepted actions are kept for the next start', async () => {
    const server = await serve('term', ['--concurrency', '1', '--time-limit', '1', '--shutdown-timeout', '0']);
    const document = generateOneOff(3, { stops: 40 });
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push((await api(server.url, 'POST', '/schedules', { key: KEY, body: document })).body.actionUuid);
    expect(await server.stop()).toBe(0);
    expect(server.stderr()).toMatch(/"event":"stopped"/);
    const again = await serve('term', ['--concurrency', '2', '--time-limit', '0.3']);
    for (const id of ids) expect((await settle(again.url, id)).status).toBe('finished');
  });

  it('refuses to start on a non-loopback host without keys (exit 2)', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--data-dir', join(work, 'open')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/without API keys/);
  });
});
