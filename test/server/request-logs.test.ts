/**
 * Log lines with ids (issue 28, "Metrics and logs"): still one JSON object per line; every line
 * written while one request is handled carries its request id, also with many requests under way
 * at once; every line of an action's run carries the action id and the id of the request that
 * accepted it; a sane incoming X-Request-Id is kept and echoed, anything else replaced. The worker
 * side on PostgreSQL is in postgres-observe.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { cannedPlan, ScriptedRunner, servicesStoppedAfterEach, smallOneOff, type TestService } from './harness.js';

const start = servicesStoppedAfterEach();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Line = Record<string, unknown>;

function linesOf(svc: TestService): Line[] {
  return svc.logs.map((line) => JSON.parse(line) as Line);
}

async function send(svc: TestService, method: string, path: string, requestId?: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { authorization: 'Bearer key-alpha' };
  if (requestId !== undefined) headers['x-request-id'] = requestId;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${svc.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
}

describe('log lines', () => {
  it('every line written while a request is handled carries its id, with many requests under way at once', async () => {
    const runner = new ScriptedRunner();
    const svc = await start({ runner, concurrency: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1)
      ids.push(((await (await send(svc, 'POST', '/schedules', `submit-${i}`, smallOneOff())).json()) as any).actionUuid);
    await runner.waitForStarts(1);
    // Each DELETE cancels its action (the first one's solve is stopped) and deletes it: three lines each, all at once.
    const deletes = await Promise.all(ids.map((id, i) => send(svc, 'DELETE', `/v2/schedules/${id}`, `delete-${i}`)));
    expect(deletes.map((response) => response.status)).toEqual(ids.map(() => 204));
    expect(deletes.map((response) => response.headers.get('x-request-id'))).toEqual(ids.map((_id, i) => `delete-${i}`));
    await expect.poll(() => linesOf(svc).filter((line) => line.event === 'action_deleted').length).toBe(ids.length);
    const lines = linesOf(svc);
    ids.forEach((id, i) => {
      const ofRequest = lines.filter((line) => line.request_id === `delete-${i}`);
      expect(ofRequest.map((line) => line.event ?? line.path).sort()).toEqual([`/v2/schedules/${id}`, 'action_deleted', 'solve_cancelled']);
      expect(ofRequest.every((line) => line.action_id === id)).toBe(true);
    });
    // Lines written outside any request (the start) carry no request id.
    expect(lines.find((line) => line.event === 'started')).not.toHaveProperty('request_id');
  });

  it("every line of an action's run carries the action id and the id of the request that accepted it", async () => {
    const runner = new ScriptedRunner();
    const svc = await start({ runner, concurrency: 1 });
    const first = ((await (await send(svc, 'POST', '/schedules', 'accept-first', smallOneOff())).json()) as any).actionUuid;
    const second = ((await (await send(svc, 'POST', '/schedules', 'accept-second', smallOneOff())).json()) as any).actionUuid;
    await runner.waitForStarts(1);
    // The second is started by the queue as the first ends, within the first's run: it must not inherit the first's ids.
    runner.finishNext({ ok: true, plan: cannedPlan('first') });
    await runner.waitForStarts(2);
    runner.finishNext({ ok: false, error: { code: 'no_solution', message: 'nothing fits', details: [] } });
    await expect.poll(() => linesOf(svc).filter((line) => line.event === 'solve_ended').length).toBe(2);
    const runLines = linesOf(svc).filter((line) => typeof line.event === 'string' && line.event.startsWith('solve_'));
    expect(runLines.map((line) => [line.event, line.action_id, line.request_id])).toEqual([
      ['solve_started', first, 'accept-first'],
      ['solve_ended', first, 'accept-first'],
      ['solve_started', second, 'accept-second'],
      ['solve_ended', second, 'accept-second'],
    ]);
  });

  it('keeps a sane X-Request-Id and replaces any other with a new one, echoed on every answer', async () => {
    const svc = await start();
    const kept = await send(svc, 'GET', '/v1.0/projects', 'trace-0af7651916cd43dd8448eb211c80319c');
    expect(kept.headers.get('x-request-id')).toBe('trace-0af7651916cd43dd8448eb211c80319c');
    for (const insane of ['x'.repeat(129), 'two words', 'tab\there']) {
      const replaced = await send(svc, 'GET', '/v1.0/projects', insane);
      expect(replaced.headers.get('x-request-id'), insane).toMatch(UUID);
    }
    const fresh = await send(svc, 'GET', '/v1.0/projects');
    const freshId = fresh.headers.get('x-request-id')!;
    expect(freshId).toMatch(UUID);
    // Refused answers carry it too (401, 404), and it is the id the request's line has.
    const refused = await fetch(`${svc.url}/v1.0/projects`, { headers: { 'x-request-id': 'refused-1' } });
    expect([refused.status, refused.headers.get('x-request-id')]).toEqual([401, 'refused-1']);
    const unknown = await send(svc, 'GET', '/no/such/route', 'unknown-1');
    expect([unknown.status, unknown.headers.get('x-request-id')]).toEqual([404, 'unknown-1']);
    await expect.poll(() => linesOf(svc).filter((line) => line.path === '/v1.0/projects').length).toBe(6);
    const requestLines = linesOf(svc).filter((line) => line.method !== undefined);
    expect(requestLines.map((line) => line.request_id)).toEqual([
      'trace-0af7651916cd43dd8448eb211c80319c',
      expect.stringMatching(UUID),
      expect.stringMatching(UUID),
      expect.stringMatching(UUID),
      freshId,
      'refused-1',
      'unknown-1',
    ]);
    expect(svc.logs.every((line) => !line.includes('\n') && typeof JSON.parse(line) === 'object')).toBe(true);
  });

  it("a background job a request starts (geocoding its project) logs with that request's id", async () => {
    // A gazetteer file that is not there: the project's geocoding fails in the background, and says so.
    const svc = await start({ geocoder: { name: 'gazetteer', file: '/nonexistent/places.csv' } });
    const document = {
      name: 'Addresses',
      date: '2026-11-24',
      drivers: [{ name: 'Ana', start_location: { coords: { lat: 45.76, lng: 4.83 } }, shift_start: '08:00', shift_end: '12:00' }],
      stops: [{ name: 'Saint-Jean', location: { address: '3 rue Saint-Jean, Lyon' }, duration: 5 }],
    };
    const created = await send(svc, 'POST', '/v1.0/project', 'create-with-addresses', document);
    expect(created.status).toBe(201);
    for (let i = 0; i < 3; i += 1) await send(svc, 'GET', '/v1.0/projects', `meanwhile-${i}`);
    await expect.poll(() => linesOf(svc).find((line) => line.event === 'geocoding_failed')).toBeDefined();
    expect(linesOf(svc).find((line) => line.event === 'geocoding_failed')).toMatchObject({ request_id: 'create-with-addresses' });
  });
});
