/**
 * A project's addresses geocoded by the service when it is created (decisions.md, "Geocoding"):
 * pending until done (optimizing is refused meanwhile), then the addresses that were not placed
 * well listed on the record; stops not found stay out of the optimization; a driver's place not
 * found blocks it; an interrupted geocoding resumes after a restart.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, removeDir, startTestService, type TestService } from './harness.js';
import { InProcessRunner } from './dispatch-harness.js';
import { fakeNominatim, type FakeNominatim } from '../support/fake-nominatim.js';
import type { GeocoderSettings } from '../../src/geocode/types.js';

const services: TestService[] = [];
const dirs: string[] = [];
const servers: FakeNominatim[] = [];
afterEach(async () => {
  for (const started of services.splice(0)) {
    await started.stop();
    await removeDir(started.dataDir);
  }
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'routeplan-service-geocode-'));
  dirs.push(dir);
  return dir;
}

async function service(geocoder: GeocoderSettings | undefined, dataDir?: string): Promise<TestService> {
  const started = await startTestService({
    runner: new InProcessRunner() as never,
    ...(geocoder ? { geocoder } : {}),
    ...(dataDir ? { dataDir } : {}),
  });
  services.push(started);
  return started;
}

const DOCUMENT = {
  name: 'Addresses',
  date: '2026-11-24',
  drivers: [{ name: 'Ana', start_location: { address: 'Dépôt, 12 quai Rambaud, Lyon' }, shift_start: '08:00', shift_end: '12:00' }],
  stops: [
    { name: 'Saint-Jean', location: { address: '3 rue Saint-Jean, Lyon' }, duration: 5 },
    { name: 'Nowhere', location: { address: '1 impasse Inconnue, Lyon' }, duration: 5 },
    { name: 'Known', location: { coords: { lat: 45.75, lng: 4.84 } }, duration: 5 },
  ],
};

async function gazetteer(): Promise<GeocoderSettings> {
  const file = join(await tempDir(), 'places.csv');
  await writeFile(
    file,
    ['address,lat,lng', '"Dépôt, 12 quai Rambaud, Lyon",45.742,4.818', '"3 rue Saint-Jean, Lyon",45.7622,4.8271'].join('\n'),
  );
  return { name: 'gazetteer', file };
}

/** A Nominatim (one request a second) that knows the depot and Saint-Jean, not the third address. */
async function nominatimKnowingTwo(): Promise<GeocoderSettings> {
  const nominatim = await fakeNominatim({
    'dépôt, 12 quai rambaud, lyon': [[45.742, 4.818, 'Quai Rambaud']],
    '3 rue saint-jean, lyon': [[45.7622, 4.8271, 'Rue Saint-Jean']],
  });
  servers.push(nominatim);
  return { name: 'nominatim', url: nominatim.url, version: 't', cacheDir: await tempDir() };
}

async function untilGeocoded(svc: TestService, id: string): Promise<any> {
  for (;;) {
    const project = (await api(svc.url, 'GET', `/v1.0/project/${id}`)).body;
    if (project.geocoding_status !== 'pending') return project;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function optimized(svc: TestService, id: string): Promise<any> {
  const started = await api(svc.url, 'POST', `/v1.0/project/${id}/optimize`);
  expect(started.status).toBe(202);
  for (;;) {
    const action = (await api(svc.url, 'GET', `/v2/schedules/${started.body.actionUuid}`)).body;
    if (action.status !== 'pending') return action;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a project with addresses, on a service with a geocoder', () => {
  it('is geocoded after creation; the addresses not found are listed and their stops left out of the optimization', async () => {
    const svc = await service(await gazetteer());
    const created = await api(svc.url, 'POST', '/v1.0/project', { body: DOCUMENT });
    expect([created.status, created.body.geocoding_status]).toEqual([201, 'pending']);
    const project = await untilGeocoded(svc, created.body.id);
    expect(project.geocoding_status).toBe('done');
    expect(project.geocoding).toEqual([
      expect.objectContaining({ stop: 'Nowhere', address: '1 impasse Inconnue, Lyon', problem: 'not_found', path: 'stops[1].location' }),
    ]);
    expect(project.stops[1].location).toEqual({ address: '1 impasse Inconnue, Lyon' }); // as given, never changed
    const action = await optimized(svc, created.body.id);
    expect(action.status).toBe('finished');
    const plan = action.solution;
    expect(plan.unserved.map((entry: any) => [entry.stop, entry.reason])).toEqual([['Nowhere', 'missing_location']]);
    const visits = plan.routes[0].visits.filter((visit: any) => visit.kind === 'stop');
    expect(visits.find((visit: any) => visit.stop === 'Saint-Jean').location).toEqual({ lat: 45.7622, lng: 4.8271 });
    expect(plan.routes[0].start.location).toEqual({ lat: 45.742, lng: 4.818 });
  });

  it('a changed stop with an address and no coordinates is geocoded again; coordinates given by hand are kept, never geocoded', async () => {
    const svc = await service(await gazetteer());
    const created = (await api(svc.url, 'POST', '/v1.0/project', { body: DOCUMENT })).body;
    expect((await untilGeocoded(svc, created.id)).version).toBe(1); // geocoding changes no contents
    const stops = `/v1.0/project/${created.id}/stops`;
    const fixed = await api(svc.url, 'PATCH', `${stops}/${created.stops[1].id}`, {
      body: { location: { address: '3 rue Saint-Jean, Lyon' } },
    });
    expect([fixed.status, fixed.body.version, fixed.body.geocoding_status, fixed.body.geocoding]).toEqual([200, 2, 'pending', undefined]);
    expect((await untilGeocoded(svc, created.id)).geocoding).toEqual([]);
    const byHand = { address: '1 impasse Inconnue, Lyon', coords: { lat: 45.75, lng: 4.84 } };
    const moved = await api(svc.url, 'PATCH', `${stops}/${created.stops[2].id}`, { body: { location: { address: byHand.address } } });
    expect(moved.body.stops[2].location).toEqual(byHand);
    const project = await untilGeocoded(svc, created.id);
    expect([project.version, project.geocoding]).toEqual([3, []]);
    const action = await optimized(svc, created.id);
    expect(action.solution.unserved).toEqual([]);
  });

  it('refuses to optimize while geocoding (409 geocoding_pending), and resumes an interrupted geocoding after a restart', async () => {
    const settings = await nominatimKnowingTwo();
    const svc = await service(settings);
    const created = await api(svc.url, 'POST', '/v1.0/project', { body: DOCUMENT });
    // One request a second: the three addresses take two seconds.
    const refused = await api(svc.url, 'POST', `/v1.0/project/${created.body.id}/optimize`);
    expect([refused.status, refused.body.error.code, refused.headers.get('retry-after')]).toEqual([409, 'geocoding_pending', '2']);
    await svc.stop();
    services.splice(services.indexOf(svc), 1);
    const again = await service(settings, svc.dataDir);
    const project = await untilGeocoded(again, created.body.id);
    expect(project.geocoding.map((failure: any) => failure.stop)).toEqual(['Nowhere']);
  }, 20_000);

  it('a stop of the service waits, within its shutdown timeout, for a running geocoding to store its result', async () => {
    const settings = await nominatimKnowingTwo();
    const svc = await startTestService({ runner: new InProcessRunner() as never, geocoder: settings, shutdownTimeoutMs: 10_000 });
    services.push(svc);
    const created = await api(svc.url, 'POST', '/v1.0/project', { body: DOCUMENT });
    expect(created.body.geocoding_status).toBe('pending');
    // One request a second: the three addresses take two seconds, all of them after the stop began.
    await svc.stop();
    const stored = JSON.parse(await readFile(join(svc.dataDir, 'projects', `${created.body.id}.json`), 'utf8'));
    expect(JSON.stringify(stored)).not.toContain('"geocoding_status":"pending"');
    expect(JSON.stringify(stored)).toContain('1 impasse Inconnue, Lyon');
  }, 20_000);

  it('refuses to optimize a project whose driver’s place was not found (409 geocoding_failed)', async () => {
    const svc = await service(await gazetteer());
    const document = { ...DOCUMENT, drivers: [{ name: 'Ana', start_location: { address: 'Dépôt inconnu' } }] };
    const created = await api(svc.url, 'POST', '/v1.0/project', { body: document });
    await untilGeocoded(svc, created.body.id);
    const refused = await api(svc.url, 'POST', `/v1.0/project/${created.body.id}/optimize`);
    expect([refused.status, refused.body.error.code, refused.body.error.details[0].path]).toEqual([
      409,
      'geocoding_failed',
      'drivers[0].start_location',
    ]);
  });

  it('without a geocoder, refuses the project listing every address-only place (400)', async () => {
    const svc = await service(undefined);
    const refused = await api(svc.url, 'POST', '/v1.0/project', { body: DOCUMENT });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((detail: any) => detail.path)).toEqual([
      'drivers[0].start_location',
      'stops[0].location',
      'stops[1].location',
    ]);
  });
});
