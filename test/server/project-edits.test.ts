/**
 * Changing a project over the API (decisions.md, "Editing a project and re-planning the day"), on
 * both stores: each edit endpoint's 200 (201 for an added stop or driver), 400 with the path of each
 * problem, 404 and 412 answers; a refused change changes nothing; versions and ETags.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { api, servicesStoppedAfterEach, smallProject, type ApiReply, type TestService } from './harness.js';
import { freshDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres.js';
import { call, signIn } from './web-harness.js';
import { InProcessRunner } from './dispatch-harness.js';
import { fakeNominatim, type FakeNominatim } from '../support/fake-nominatim.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const STORES = postgresUnavailable() === null ? ['data directory', 'PostgreSQL'] : ['data directory'];

/** A request with `If-Match` (and the key-alpha key), as api() sends them without it. */
async function send(base: string, method: string, path: string, body: unknown, ifMatch?: string): Promise<ApiReply> {
  const headers: Record<string, string> = { authorization: 'Bearer key-alpha' };
  if (ifMatch !== undefined) headers['if-match'] = ifMatch;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
}

describe.each(STORES)('editing a project: %s', (store) => {
  const databases: TestDatabase[] = [];
  const geocoders: FakeNominatim[] = [];
  const dirs: string[] = [];
  const start = servicesStoppedAfterEach();
  afterEach(async () => {
    for (const db of databases.splice(0)) await db.drop();
    for (const geocoder of geocoders.splice(0)) await geocoder.close();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function service(options: Parameters<typeof start>[0] = {}): Promise<TestService> {
    if (store === 'data directory') return start(options);
    const db = await freshDatabase();
    databases.push(db);
    return start({ ...options, database: db.url });
  }

  async function created(svc: TestService): Promise<any> {
    const reply = await api(svc.url, 'POST', '/v1.0/project', { body: smallProject({ notes: 'kept' }) });
    expect(reply.status).toBe(201);
    return reply.body;
  }

  async function current(svc: TestService, id: string): Promise<ApiReply> {
    return api(svc.url, 'GET', `/v1.0/project/${id}`);
  }

  it('a new project is version 1, with ETag "1"; PATCH changes name, date and settings → 200, version 2, nothing else lost', async () => {
    const svc = await service();
    const project = await created(svc);
    const read = await current(svc, project.id);
    expect([project.version, read.body.version, read.headers.get('etag')]).toEqual([1, 1, '"1"']);
    const patch = { name: 'Afternoon rounds', date: '2026-11-24', settings: { time_zone: 'Europe/Paris' } };
    const changed = await send(svc.url, 'PATCH', `/v1.0/project/${project.id}`, patch, '"1"');
    expect([changed.status, changed.headers.get('etag')]).toEqual([200, '"2"']);
    expect(changed.body).toMatchObject({ ...patch, version: 2, id: project.id, stops: project.stops, drivers: project.drivers });
    expect((await current(svc, project.id)).body).toMatchObject({ name: 'Afternoon rounds', version: 2 });
    const optimized = await api(svc.url, 'POST', `/v1.0/project/${project.id}/optimize`);
    expect(optimized.status).toBe(202);
    await svc.runner.waitForStarts(1);
    // What is optimized is the changed document, with what the user gave that no change named.
    expect(svc.runner.started[0]!.document).toMatchObject({ ...patch, notes: 'kept' });
  });

  it('PATCH without If-Match applies to the current version; a stale If-Match → 412 version_mismatch and nothing changes', async () => {
    const svc = await service();
    const project = await created(svc);
    expect((await send(svc.url, 'PATCH', `/v1.0/project/${project.id}`, { name: 'Second' })).body.version).toBe(2);
    const stale = await send(svc.url, 'PATCH', `/v1.0/project/${project.id}`, { name: 'Lost' }, '"1"');
    expect([stale.status, stale.body.error.code, stale.headers.get('etag')]).toEqual([412, 'version_mismatch', '"2"']);
    expect(stale.body.error.details).toEqual([{ path: 'If-Match', message: 'expected "2"' }]);
    expect((await current(svc, project.id)).body).toMatchObject({ name: 'Second', version: 2 });
  });

  it('an invalid change → 400 with the path of each problem, and nothing changes', async () => {
    const svc = await service();
    const project = await created(svc);
    const stopId = project.stops[1].id as string;
    const badStop = await send(svc.url, 'PATCH', `/v1.0/project/${project.id}/stops/${stopId}`, { end: '25:99' }, '"1"');
    expect(badStop.status).toBe(400);
    expect(badStop.body.error.details.map((detail: any) => detail.path)).toContain('stops[1].end');
    const badDate = await send(svc.url, 'PATCH', `/v1.0/project/${project.id}`, { date: 'someday', name: null });
    expect(badDate.status).toBe(400);
    expect(badDate.body.error.details.map((detail: any) => detail.path)).toEqual(expect.arrayContaining(['date', 'name']));
    const stopsHere = await send(svc.url, 'PATCH', `/v1.0/project/${project.id}`, { stops: [] });
    expect([stopsHere.status, stopsHere.body.error.details[0].path]).toEqual([400, 'stops']);
    const after = await current(svc, project.id);
    expect(after.body).toMatchObject({ version: 1, date: project.date, name: project.name, stops: project.stops });
  });

  it('an unknown project, stop or driver → 404, and another key’s project is unknown too', async () => {
    const svc = await service();
    const project = await created(svc);
    const base = `/v1.0/project/${project.id}`;
    expect((await send(svc.url, 'PATCH', `/v1.0/project/${UNKNOWN}`, { name: 'x' })).status).toBe(404);
    expect((await send(svc.url, 'POST', `/v1.0/project/${UNKNOWN}/stops`, { name: 'x' })).status).toBe(404);
    const stop = await send(svc.url, 'PATCH', `${base}/stops/${UNKNOWN}`, { name: 'x' });
    expect([stop.status, stop.body.error.code]).toEqual([404, 'stop_not_found']);
    const driver = await send(svc.url, 'DELETE', `${base}/drivers/${UNKNOWN}`, undefined);
    expect([driver.status, driver.body.error.code]).toEqual([404, 'driver_not_found']);
    expect((await api(svc.url, 'PATCH', base, { key: 'key-beta', body: { name: 'theirs' } })).status).toBe(404);
    expect((await current(svc, project.id)).body.version).toBe(1);
  });

  it('stops: POST adds one under a new id → 201 with Location; PATCH merges into it; DELETE removes it; ids stay', async () => {
    const svc = await service();
    const project = await created(svc);
    const base = `/v1.0/project/${project.id}/stops`;
    const newStop = { name: 'Deli', location: { coords: { lat: 45.74, lng: 4.82 } }, duration: 4, tag: 'mine' };
    const added = await send(svc.url, 'POST', base, newStop, '"1"');
    expect([added.status, added.body.version, added.headers.get('etag')]).toEqual([201, 2, '"2"']);
    const addedStop = added.body.stops[2];
    expect(addedStop).toEqual({ id: expect.any(String), ...newStop });
    expect(added.headers.get('location')).toBe(`${base}/${addedStop.id}`);
    const patched = await send(svc.url, 'PATCH', `${base}/${addedStop.id}`, { duration: 9, tag: null, id: 'not-mine' }, '"2"');
    expect(patched.status).toBe(200);
    expect(patched.body.stops[2]).toEqual({ id: addedStop.id, name: 'Deli', location: newStop.location, duration: 9 });
    const removed = await send(svc.url, 'DELETE', `${base}/${project.stops[0].id}`, undefined, '"3"');
    expect([removed.status, removed.body.version]).toEqual([200, 4]);
    expect(removed.body.stops.map((stop: any) => stop.id)).toEqual([project.stops[1].id, addedStop.id]);
    const stale = await send(svc.url, 'DELETE', `${base}/${addedStop.id}`, undefined, '"3"');
    expect(stale.status).toBe(412);
    const invalid = await send(svc.url, 'POST', base, { name: 'Nowhere', duration: -1 }, '"4"');
    expect(invalid.status).toBe(400);
    expect((await current(svc, project.id)).body.stops).toHaveLength(2);
  });

  it('drivers: POST, PATCH and DELETE by id, each validated as a file is', async () => {
    const svc = await service();
    const project = await created(svc);
    const base = `/v1.0/project/${project.id}/drivers`;
    const driver = { name: 'Ben', start_location: { coords: { lat: 45.76, lng: 4.83 } }, shift_start: '09:00', shift_end: '15:00' };
    const added = await send(svc.url, 'POST', base, driver);
    expect([added.status, added.body.drivers.length]).toEqual([201, 2]);
    const benId = added.body.drivers[1].id as string;
    const late = await send(svc.url, 'PATCH', `${base}/${benId}`, { shift_end: '16:00' }, '"2"');
    expect([late.status, late.body.drivers[1]]).toEqual([200, { id: benId, ...driver, shift_end: '16:00' }]);
    const invalid = await send(svc.url, 'PATCH', `${base}/${benId}`, { shift_start: 'soon' }, '"3"');
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.map((detail: any) => detail.path)).toContain('drivers[1].shift_start');
    const stale = await send(svc.url, 'PATCH', `${base}/${benId}`, { name: 'Bo' }, '"2"');
    expect(stale.status).toBe(412);
    const removed = await send(svc.url, 'DELETE', `${base}/${benId}`, undefined, '"3"');
    expect([removed.status, removed.body.drivers.map((d: any) => d.id)]).toEqual([200, [project.drivers[0].id]]);
  });

  it('every edit endpoint: 404 for an unknown project, 412 for a stale If-Match, 400 for a body that is no object; nothing changes', async () => {
    const svc = await service();
    const project = await created(svc);
    const routes: [string, (id: string) => string, unknown][] = [
      ['PATCH', (id) => `/v1.0/project/${id}`, { name: 'x' }],
      ['POST', (id) => `/v1.0/project/${id}/stops`, { name: 'x', location: { coords: { lat: 45.7, lng: 4.8 } } }],
      ['PATCH', (id) => `/v1.0/project/${id}/stops/${project.stops[0].id}`, { name: 'x' }],
      ['DELETE', (id) => `/v1.0/project/${id}/stops/${project.stops[0].id}`, undefined],
      ['POST', (id) => `/v1.0/project/${id}/drivers`, { name: 'x', start_location: { coords: { lat: 45.7, lng: 4.8 } } }],
      ['PATCH', (id) => `/v1.0/project/${id}/drivers/${project.drivers[0].id}`, { name: 'x' }],
      ['DELETE', (id) => `/v1.0/project/${id}/drivers/${project.drivers[0].id}`, undefined],
    ];
    for (const [method, path, body] of routes) {
      const what = `${method} ${path('{id}')}`;
      expect((await send(svc.url, method, path(UNKNOWN), body)).status, what).toBe(404);
      const stale = await send(svc.url, method, path(project.id), body, '"9"');
      expect([stale.status, stale.body.error.code], what).toEqual([412, 'version_mismatch']);
      if (body !== undefined) expect((await send(svc.url, method, path(project.id), ['not', 'an', 'object'])).status, what).toBe(400);
    }
    expect((await send(svc.url, 'PATCH', `/v1.0/project/${project.id}/drivers/${UNKNOWN}`, { name: 'x' })).status).toBe(404);
    expect((await send(svc.url, 'DELETE', `/v1.0/project/${project.id}/stops/${UNKNOWN}`, undefined)).status).toBe(404);
    const after = (await current(svc, project.id)).body;
    expect(after).toMatchObject({ version: 1, name: project.name, stops: project.stops, drivers: project.drivers });
  });

  it('signed in from a browser, a change needs the CSRF token as every other write does (403 csrf_failed without it)', async () => {
    const svc = await service();
    const project = await created(svc);
    const { cookie, csrf } = await signIn(svc.url, 'key-alpha');
    const refused = await call(svc.url, 'PATCH', `/v1.0/project/${project.id}`, { cookie, json: { name: 'From the page' } });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'csrf_failed']);
    const changed = await call(svc.url, 'PATCH', `/v1.0/project/${project.id}`, { cookie, csrf, json: { name: 'From the page' } });
    expect([changed.status, changed.body.name, changed.body.version]).toEqual([200, 'From the page', 2]);
  });

  it('a plan made before a change is not dispatched (409 plan_outdated): its stops may be others now; optimized again, it is', async () => {
    const svc = await service({ runner: new InProcessRunner() as never });
    const project = await created(svc);
    const finished = async (): Promise<any> => {
      const accepted = await api(svc.url, 'POST', `/v1.0/project/${project.id}/optimize`);
      for (;;) {
        const action = (await api(svc.url, 'GET', `/v2/schedules/${accepted.body.actionUuid}`)).body;
        if (action.status !== 'pending') return action;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const before = await finished();
    expect([before.status, before.project_version]).toEqual(['finished', 1]);
    expect((await send(svc.url, 'DELETE', `/v1.0/project/${project.id}/stops/${project.stops[0].id}`, undefined)).status).toBe(200);
    const outdated = await api(svc.url, 'POST', `/v1.0/project/${project.id}/dispatch`, { body: {} });
    expect([outdated.status, outdated.body.error.code]).toEqual([409, 'plan_outdated']);
    expect((await finished()).project_version).toBe(2);
    const dispatched = await api(svc.url, 'POST', `/v1.0/project/${project.id}/dispatch`, { body: {} });
    expect(dispatched.status).toBe(201);
    expect(dispatched.body.stops.map((stop: any) => stop.stop_id)).toEqual([project.stops[1].id]);
  });

  it('DELETE of a driver a stop is locked to → 400 naming the lock, nothing removed; unlocking first lets it go', async () => {
    const svc = await service();
    const project = await created(svc);
    const base = `/v1.0/project/${project.id}`;
    const locked = await send(svc.url, 'PATCH', `${base}/stops/${project.stops[0].id}`, { driver: 'Ana', sequence: 1 }, '"1"');
    expect([locked.status, locked.body.stops[0]]).toEqual([200, { ...project.stops[0], driver: 'Ana', sequence: 1 }]);
    const refused = await send(svc.url, 'DELETE', `${base}/drivers/${project.drivers[0].id}`, undefined, '"2"');
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((detail: any) => detail.path)).toContain('stops[0].driver');
    expect((await current(svc, project.id)).body).toMatchObject({ version: 2, drivers: project.drivers });
    const unlocked = await send(svc.url, 'PATCH', `${base}/stops/${project.stops[0].id}`, { driver: null, sequence: null }, '"2"');
    expect([unlocked.status, unlocked.body.stops[0]]).toEqual([200, project.stops[0]]);
    const removed = await send(svc.url, 'DELETE', `${base}/drivers/${project.drivers[0].id}`, undefined, '"3"');
    expect([removed.status, removed.body.version, removed.body.drivers]).toEqual([200, 4, []]);
  });

  it('geocoding keeps each problem address’s candidates; a candidate saved by PATCH is kept as given and never geocoded again', async () => {
    const nominatim = await fakeNominatim({
      'rue centrale': [
        [45.7606, 4.8358, 'Rue Centrale, Lyon'],
        [45.4397, 4.3872, 'Rue Centrale, Saint-Étienne'],
      ],
    });
    geocoders.push(nominatim);
    const cacheDir = await mkdtemp(join(tmpdir(), 'routeplan-edit-geocode-'));
    dirs.push(cacheDir);
    const svc = await service({ geocoder: { name: 'nominatim', url: nominatim.url, version: 't', cacheDir } });
    const document = smallProject({
      stops: [
        { name: 'Centrale', location: { address: 'Rue Centrale' }, duration: 5 },
        { name: 'Nowhere', location: { address: '1 impasse Inconnue' }, duration: 5 },
      ],
    });
    const project = (await api(svc.url, 'POST', '/v1.0/project', { body: document })).body;
    const geocoded = await untilGeocoded(svc, project.id);
    expect(geocoded.geocoding).toEqual([
      expect.objectContaining({
        stop: 'Centrale',
        problem: 'ambiguous',
        path: 'stops[0].location',
        candidates: [
          { lat: 45.7606, lng: 4.8358, label: 'Rue Centrale, Lyon' },
          { lat: 45.4397, lng: 4.3872, label: 'Rue Centrale, Saint-Étienne' },
        ],
      }),
      expect.objectContaining({ stop: 'Nowhere', problem: 'not_found', path: 'stops[1].location' }),
    ]);
    expect(geocoded.geocoding[1].candidates).toBeUndefined();
    const asked = nominatim.requests.length;
    const stops = `/v1.0/project/${project.id}/stops`;
    const picked = await send(
      svc.url,
      'PATCH',
      `${stops}/${project.stops[0].id}`,
      { location: { coords: { lat: 45.4397, lng: 4.3872 } } },
      '"1"',
    );
    expect([picked.status, picked.body.stops[0].location]).toEqual([
      200,
      { address: 'Rue Centrale', coords: { lat: 45.4397, lng: 4.3872 } },
    ]);
    const placed = await send(
      svc.url,
      'PATCH',
      `${stops}/${project.stops[1].id}`,
      { location: { coords: { lat: 45.75, lng: 4.84 } } },
      '"2"',
    );
    expect(placed.status).toBe(200);
    // Nothing is left to geocode: no new geocoding, and no request to the geocoder.
    expect([placed.body.geocoding_status, placed.body.geocoding]).toEqual([undefined, undefined]);
    expect(nominatim.requests.length).toBe(asked);
    const optimized = await api(svc.url, 'POST', `/v1.0/project/${project.id}/optimize`);
    expect(optimized.status).toBe(202);
    await svc.runner.waitForStarts(1);
    expect((svc.runner.started[0]!.document as any).stops.map((stop: any) => stop.location)).toEqual([
      { address: 'Rue Centrale', coords: { lat: 45.4397, lng: 4.3872 } },
      { address: '1 impasse Inconnue', coords: { lat: 45.75, lng: 4.84 } },
    ]);
  }, 20_000);
});

async function untilGeocoded(svc: TestService, id: string): Promise<any> {
  for (;;) {
    const project = (await api(svc.url, 'GET', `/v1.0/project/${id}`)).body;
    if (project.geocoding_status !== 'pending') return project;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
