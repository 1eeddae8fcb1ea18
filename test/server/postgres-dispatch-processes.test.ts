/**
 * Issue 27: dispatch changes serialized in the database. Two `routeplan serve` processes (the built
 * binary) on one real PostgreSQL (test/support/postgres.ts) take a driver's reports on one project
 * at the same moment: each change is a read-modify-write of the project's dispatch record, and none
 * may overwrite another's.
 */
import { describe, expect, it } from 'vitest';
import { databasePerTest, postgresUnavailable } from '../support/postgres.js';
import { api, smallProject } from './harness.js';
import { builtServersOnDatabase, type BuiltServer } from './built.js';
import { tokenOf } from './dispatch-harness.js';

const KEY = 'dispatch-key';
const ENV = { ROUTEPLAN_SERVER_KEYS: KEY };
const STOPS = 20;

describe.skipIf(postgresUnavailable())('dispatch on two processes sharing one PostgreSQL (built binary)', () => {
  const db = databasePerTest();
  const serveOnDb = builtServersOnDatabase(db, ENV, 'dispatch');
  const serve = (name: string): Promise<BuiltServer> => serveOnDb(name, ['--role', 'all', '--time-limit', '0.5']);

  it('reports on one project at the same moment on two processes overwrite each other: 20 concurrent reports, every one kept', async () => {
    const both = [await serve('one'), await serve('two')];
    const [one] = both;
    const created = await api(one!.url, 'POST', '/v1.0/project', { key: KEY, body: oneDriverProject() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const started = await api(one!.url, 'POST', `/v1.0/project/${id}/optimize`, { key: KEY });
    expect(started.status).toBe(202);
    await waitUntil(
      async () => (await api(one!.url, 'GET', `/v2/schedules/${started.body.actionUuid}`, { key: KEY })).body.status === 'finished',
      30_000,
    );
    const view = (await api(one!.url, 'POST', `/v1.0/project/${id}/dispatch`, { key: KEY, body: {} })).body;
    expect(view.stops).toHaveLength(STOPS);
    const token = tokenOf(view.drivers[0].url);

    // Every other report to the other process, all at once.
    const reports = await Promise.all(
      view.stops.map((stop: { stop_id: string }, i: number) =>
        api(both[i % 2]!.url, 'POST', `/drivers/${token}/stops/${stop.stop_id}`, { key: null, body: { status: 'done' } }),
      ),
    );
    expect(reports.map((reply) => [reply.status, reply.body.status])).toEqual(view.stops.map(() => [200, 'done']));

    for (const server of both) {
      const seen = (await api(server.url, 'GET', `/v1.0/project/${id}`, { key: KEY })).body.dispatch.stops as { status: string }[];
      expect(seen.filter((stop) => stop.status === 'done')).toHaveLength(STOPS);
    }
  }, 120_000);
});

/** One driver with the whole day's twenty stops around Lyon, so that every report changes the same driver's route. */
function oneDriverProject(): Record<string, unknown> {
  const depot = { coords: { lat: 45.76, lng: 4.83 } };
  return smallProject({
    drivers: [{ name: 'Ana', start_location: depot, shift_start: '06:00', shift_end: '22:00' }],
    stops: Array.from({ length: STOPS }, (_, i) => ({
      name: `Shop ${i + 1}`,
      location: {
        address: `${i + 1} rue de la République, Lyon`,
        coords: { lat: 45.74 + (i % 5) * 0.01, lng: 4.81 + Math.floor(i / 5) * 0.01 },
      },
      duration: 5,
    })),
  });
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not so after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
