/**
 * Loading with a geocoder (decisions.md, "Geocoding"): places given by address only are placed by a
 * gazetteer or a Nominatim-compatible API before the problem is built; what finds nothing is an
 * error naming each place (or, with allowUnresolved, a stop left unserved as missing_location);
 * ambiguous and outlying results are warnings naming the stop.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProblemDocument, resolveProblemDocument } from '../../src/input/index.js';
import { InputError } from '../../src/errors.js';
import { solve } from '../../src/solver/index.js';
import { buildPlan } from '../../src/output/plan.js';
import { checkPlan } from '../support/checker.js';
import { fakeNominatim, type FakeNominatim } from '../support/fake-nominatim.js';

const dirs: string[] = [];
const servers: FakeNominatim[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  for (const server of servers.splice(0)) await server.close();
});

async function gazetteer(rows: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'routeplan-gazetteer-'));
  dirs.push(dir);
  await writeFile(join(dir, 'places.csv'), ['address,lat,lng', ...rows].join('\n'));
  return join(dir, 'places.csv');
}

const PLACES = [
  '"Dépôt, 12 quai Rambaud, Lyon",45.742,4.818',
  '"3 rue Saint-Jean, Lyon",45.7622,4.8271',
  '"30 cours de Verdun, Lyon",45.7486,4.8262',
];

function project(
  stops: Record<string, unknown>[],
  depot: Record<string, unknown> = { address: 'Dépôt, 12 quai Rambaud, Lyon' },
): Record<string, unknown> {
  return {
    name: 'Addresses',
    date: '2026-11-24',
    drivers: [{ name: 'Ana', start_location: depot, shift_start: '08:00', shift_end: '12:00' }],
    stops,
  };
}

describe('geocoding while loading', () => {
  it('places every address-only location through the gazetteer, and the plan of it passes the checker', async () => {
    const file = await gazetteer(PLACES);
    const document = project([
      { name: 'Saint-Jean', location: { address: '3 Rue Saint-Jean,  Lyon' }, duration: 5 },
      { name: 'Verdun', location: { address: '30 cours de Verdun, Lyon' }, duration: 5 },
      { name: 'Known', location: { coords: { lat: 45.75, lng: 4.84 } }, duration: 5 },
    ]);
    const { problem, warnings } = await resolveProblemDocument(document, { expect: 'project', geocoder: { name: 'gazetteer', file } });
    expect(warnings).toEqual([]);
    expect(problem.locations[problem.vehicles[0]!.startLocation]).toEqual({ lat: 45.742, lng: 4.818 });
    expect(problem.stops.map((stop) => problem.locations[stop.location])).toEqual([
      { lat: 45.7622, lng: 4.8271 },
      { lat: 45.7486, lng: 4.8262 },
      { lat: 45.75, lng: 4.84 },
    ]);
    const plan = JSON.parse(JSON.stringify(buildPlan(problem, await solve(problem, { timeLimitMs: 5_000, seed: 1, maxIterations: 20 }))));
    expect(checkPlan(problem, plan)).toEqual([]);
    expect(plan.summary.served).toBe(3);
  });

  it('names every address that found nothing (one error), and leaves such stops unserved with allowUnresolved', async () => {
    const file = await gazetteer(PLACES);
    const document = project([
      { name: 'Nowhere', location: { address: '1 impasse Inconnue, Lyon' }, duration: 5 },
      { name: 'Saint-Jean', location: { address: '3 rue Saint-Jean, Lyon' }, duration: 5 },
      { name: 'Elsewhere', location: { address: '2 impasse Perdue, Lyon' }, duration: 5 },
    ]);
    const error = await resolveProblemDocument(document, { expect: 'project', geocoder: { name: 'gazetteer', file } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).details.map((detail) => detail.path)).toEqual(['stops[0].location', 'stops[2].location']);
    expect((error as Error).message).toContain('--allow-unresolved');
    const allowed = await resolveProblemDocument(document, {
      expect: 'project',
      geocoder: { name: 'gazetteer', file },
      allowUnresolved: true,
    });
    expect(allowed.warnings.map((warning) => warning.path)).toEqual(['stops[0].location', 'stops[2].location']);
    const plan = buildPlan(allowed.problem, await solve(allowed.problem, { timeLimitMs: 5_000, seed: 1, maxIterations: 10 }));
    expect(plan.unserved.map((entry) => [entry.stop, entry.reason])).toEqual([
      ['Nowhere', 'missing_location'],
      ['Elsewhere', 'missing_location'],
    ]);
  });

  it('refuses a driver’s place that found nothing even with allowUnresolved (no route without it)', async () => {
    const file = await gazetteer(PLACES);
    const document = project([{ name: 'Saint-Jean', location: { address: '3 rue Saint-Jean, Lyon' } }], { address: 'Dépôt inconnu' });
    const error = await resolveProblemDocument(document, {
      expect: 'project',
      geocoder: { name: 'gazetteer', file },
      allowUnresolved: true,
    }).catch((caught: unknown) => caught);
    expect((error as InputError).details.map((detail) => detail.path)).toEqual(['drivers[0].start_location']);
  });

  it('geocodes one-off orders through a Nominatim-compatible API, warning about an ambiguous address and an outlier', async () => {
    const server = await fakeNominatim({
      '10 rue de la gare': [
        [45.7605, 4.8597, 'Rue de la Gare, Lyon 3e'],
        [45.7494, 4.8259, 'Rue de la Gare, Lyon 2e'],
      ],
      '1 place bellecour, lyon': [[45.7578, 4.832, 'Place Bellecour']],
      'bellecour, paris': [[48.85, 2.35, 'Rue Bellecour, Paris']],
    });
    servers.push(server);
    const cacheDir = await mkdtemp(join(tmpdir(), 'routeplan-geocache-'));
    dirs.push(cacheDir);
    const document = {
      routesData: [{ name: 'Van', constraints: { startLocations: [{ latitude: 45.76, longitude: 4.83 }] } }],
      ordersData: [
        { name: 'Gare', locations: [{ address: '10 rue de la Gare' }] },
        { name: 'Bellecour', locations: [{ address: '1 place Bellecour, Lyon' }] },
        { name: 'Far', locations: [{ address: 'Bellecour, Paris' }] },
        { name: 'Near', locations: [{ latitude: 45.765, longitude: 4.84 }] },
      ],
      options: {},
    };
    const { warnings } = await resolveProblemDocument(document, {
      expect: 'oneoff',
      geocoder: { name: 'nominatim', url: server.url, version: '1.2.3', cacheDir },
    });
    expect(warnings.map((warning) => warning.path)).toEqual(['ordersData[0].locations[0]', 'ordersData[2].locations[0]']);
    expect(warnings[0]!.message).toMatch(/matches places 2\.9 km apart/);
    expect(warnings[1]!.message).toMatch(/landed 39\d km from the other stops/);
    expect(server.requests[0]!.headers['user-agent']).toMatch(/^routeplan\/1\.2\.3 /);
  });

  it('refuses to build a document with address-only places without geocoding it first', () => {
    const document = project([{ name: 'A', location: { address: '3 rue Saint-Jean, Lyon' } }], { coords: { lat: 45.74, lng: 4.82 } });
    expect(() => loadProblemDocument(document, { expect: 'project', geocoder: { name: 'gazetteer', file: 'x.csv' } })).toThrow(InputError);
  });
});
