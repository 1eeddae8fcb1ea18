/**
 * Routes along the roads (decisions.md, "The live day"): Valhalla's polyline6 decoded, long routes
 * asked in pieces within the provider's limit and joined, the disk cache, and a provider that gives
 * no route leaving straight lines and a warning instead of a failed plan.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Plan, PlanRoute } from '../../src/output/plan-types.js';
import { routeLocations } from '../../src/output/visits.js';
import { withRoadGeometry } from '../../src/travel/plan-geometry.js';
import { decodePolyline, encodePolyline } from '../../src/travel/polyline.js';
import { joinShapes, splitPoints } from '../../src/travel/route-geometry.js';
import type { TravelSettings } from '../../src/travel/types.js';
import { fakeOsrm, fakeValhalla, roadShape, type FakeRouting } from '../support/fake-routing.js';

const opened: FakeRouting[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of opened.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function settingsFor(source: 'osrm' | 'valhalla', server: FakeRouting, extra: Partial<TravelSettings> = {}): Promise<TravelSettings> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'routeplan-geometry-cache-'));
  dirs.push(cacheDir);
  return { source, url: server.url, cacheDir, retries: 0, retryDelayMs: 1, ...extra };
}

/** A route from a depot through `stops` places and back: only what the geometry reads is filled in. */
function route(vehicle: string, stops: number, offset = 0): PlanRoute {
  const depot = { lat: 45.75, lng: 4.85 };
  const place = (i: number): { lat: number; lng: number } => ({
    lat: (45_760 + i * 3 + offset * 1000) / 1000,
    lng: (4_830 + (i % 4) * 4) / 1000,
  });
  return {
    vehicle,
    start: { location: depot },
    end: { location: depot },
    visits: Array.from({ length: stops }, (_, i) => ({ kind: 'stop', stop: `${vehicle}-${i}`, location: place(i) })),
  } as unknown as PlanRoute;
}

function planOf(...routes: PlanRoute[]): Plan {
  return { version: 1, routes, unserved: [] } as unknown as Plan;
}

describe('polyline6', () => {
  it('decodes Google’s documented example (precision 5) and round-trips with 6 decimals', () => {
    // https://developers.google.com/maps/documentation/utilities/polylinealgorithm
    expect(decodePolyline('_p~iF~ps|U_ulLnnqC_mqNvxq`@', 5)).toEqual([
      [-120.2, 38.5],
      [-120.95, 40.7],
      [-126.453, 43.252],
    ]);
    const line: [number, number][] = [
      [4.835659, 45.764043],
      [4.8, 45.7],
      [-0.000001, -33.123456],
    ];
    expect(decodePolyline(encodePolyline(line))).toEqual(line);
  });

  it('refuses a polyline cut in the middle of a value', () => {
    expect(() => decodePolyline('_p~iF~ps|U_')).toThrow(/middle of a value/);
  });
});

describe('pieces of a long route', () => {
  it('splits into pieces of at most `size` places that share their joining place, and joins shapes without repeating it', () => {
    expect(splitPoints([0, 1, 2, 3, 4, 5, 6], 3)).toEqual([
      [0, 1, 2],
      [2, 3, 4],
      [4, 5, 6],
    ]);
    expect(splitPoints([0, 1, 2, 3], 3)).toEqual([
      [0, 1, 2],
      [2, 3],
    ]);
    expect(splitPoints([0, 1], 100)).toEqual([[0, 1]]);
    expect(
      joinShapes([
        [
          [0, 0],
          [1, 1],
        ],
        [
          [1, 1],
          [2, 2],
        ],
      ]),
    ).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });
});

describe('withRoadGeometry', () => {
  it('OSRM: each route gets the provider’s shape, a long one asked in pieces within the limit, then from the cache', async () => {
    const server = await fakeOsrm({ limit: 4 });
    opened.push(server);
    const settings = await settingsFor('osrm', server, { maxLocationsPerRequest: 4 });
    const plan = planOf(route('Ana', 5), route('Ben', 1, 0.01));
    const drawn = await withRoadGeometry(plan, settings);
    for (const each of drawn.routes) {
      expect(each.geometry).toEqual({ type: 'LineString', coordinates: roadShape(routeLocations(each)) });
    }
    // Ana passes 7 places: pieces 0–3 and 3–6; Ben passes 3.
    expect(server.requests.map((request) => request.url.split('?')[0]!.split(';').length)).toEqual([4, 4, 3]);
    expect(server.requests[0]!.url).toContain('overview=full&geometries=geojson');
    expect(drawn.warnings).toBeUndefined();
    const again = await withRoadGeometry(plan, settings);
    expect(again.routes.map((each) => each.geometry)).toEqual(drawn.routes.map((each) => each.geometry));
    expect(server.requests).toHaveLength(3);
  });

  it('Valhalla: the legs’ polyline6 shapes decoded and joined, pieces of at most 20 locations', async () => {
    const server = await fakeValhalla();
    opened.push(server);
    const plan = planOf(route('Ana', 25));
    const drawn = await withRoadGeometry(plan, await settingsFor('valhalla', server));
    expect(drawn.routes[0]!.geometry!.coordinates).toEqual(roadShape(routeLocations(plan.routes[0]!)));
    expect(server.requests.map((request) => request.body.locations.length)).toEqual([20, 8]);
    expect(server.requests[0]!.body.costing).toBe('auto');
  });

  it('a provider without a route leaves that route straight and says so in the plan’s warnings; the plan stands', async () => {
    const server = await fakeOsrm({ noRoute: true });
    opened.push(server);
    const plan = planOf(route('Ana', 2), route('Ben', 2, 0.01));
    const drawn = await withRoadGeometry(plan, await settingsFor('osrm', server));
    expect(drawn.routes.map((each) => each.geometry)).toEqual([undefined, undefined]);
    expect(drawn.warnings).toEqual([
      { path: 'routes[0].geometry', message: expect.stringMatching(/straight lines: OSRM gave no route geometry: NoRoute/) },
      { path: 'routes[1].geometry', message: expect.stringMatching(/straight lines/) },
    ]);
  });

  it('a provider that is down (retries spent) is a warning too; other sources and empty routes ask nothing', async () => {
    const server = await fakeOsrm();
    opened.push(server);
    server.failNext([503, 503]);
    const drawn = await withRoadGeometry(planOf(route('Ana', 2)), await settingsFor('osrm', server, { retries: 1 }));
    expect(drawn.routes[0]!.geometry).toBeUndefined();
    expect(drawn.warnings![0]!.message).toMatch(/failed after 2 attempts: HTTP 503/);
    const plan = planOf(route('Ana', 2));
    expect(await withRoadGeometry(plan, { source: 'haversine' })).toBe(plan);
    expect(await withRoadGeometry(plan, undefined)).toBe(plan);
    const lone = { ...route('Ana', 0), start: { location: { lat: 45.75, lng: 4.85 } }, end: { location: null } } as unknown as PlanRoute;
    expect((await withRoadGeometry(planOf(lone), await settingsFor('osrm', server))).routes[0]!.geometry).toBeUndefined();
    expect(server.requests).toHaveLength(2);
  });
});
