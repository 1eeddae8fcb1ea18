/**
 * OSRM and Valhalla tables through stand-in servers that speak their protocols: blocks within the
 * servers' limits, the same table whatever the block size, no-road cells, exclusions passed on,
 * retries, failures that name the provider, and the disk cache.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { travelTable, type TravelRequest, type TravelSettings, type TravelTable } from '../../src/travel/index.js';
import { RoutingError } from '../../src/errors.js';
import { fakeOsrm, fakeValhalla, type FakeRouting } from '../support/fake-routing.js';

const opened: FakeRouting[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of opened.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function cacheDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'routeplan-travel-cache-'));
  dirs.push(dir);
  return dir;
}

/** `count` places on a grid around Lyon, each with one name. */
function request(count: number, extra: Partial<TravelRequest> = {}): TravelRequest {
  const locations = Array.from({ length: count }, (_, i) => ({
    lat: 45.7 + (i % 10) * 0.01,
    lng: 4.8 + Math.floor(i / 10) * 0.01,
    names: [`p${i}`],
  }));
  return { locations, excludeTolls: false, excludeFerry: false, ...extra };
}

function cell(table: TravelTable, i: number, j: number): [number, number, number] {
  const k = i * table.size + j;
  return [table.durations[k]!, table.distances[k]!, table.noRoad[k]!];
}

async function osrmSettings(server: FakeRouting, extra: Partial<TravelSettings> = {}): Promise<TravelSettings> {
  return { source: 'osrm', url: server.url, cacheDir: await cacheDir(), retryDelayMs: 1, ...extra };
}

describe('OSRM /table', () => {
  it('fetches a table larger than the server’s limit in blocks of at most that many coordinates, the same table as one request', async () => {
    const small = await fakeOsrm({ limit: 10 });
    const large = await fakeOsrm({ limit: 100 });
    opened.push(small, large);
    const problem = request(23);
    const progress: [number, number][] = [];
    const split = (await travelTable(problem, await osrmSettings(small, { maxLocationsPerRequest: 10 }), {
      onProgress: (done, total) => progress.push([done, total]),
    }))!;
    const whole = (await travelTable(problem, await osrmSettings(large)))!;
    expect(Array.from(split.durations)).toEqual(Array.from(whole.durations));
    expect(Array.from(split.distances)).toEqual(Array.from(whole.distances));
    expect(large.requests).toHaveLength(1);
    expect(small.requests).toHaveLength(25); // five chunks of five → 5 × 5 blocks
    for (const { url } of small.requests)
      expect(decodeURIComponent(url.split('/')[4]!.split('?')[0]!).split(';').length).toBeLessThanOrEqual(10);
    expect(progress.at(-1)).toEqual([23 * 23, 23 * 23]);
    expect(cell(whole, 0, 0)).toEqual([0, 0, 0]);
    expect(cell(whole, 0, 1)[0]).toBeGreaterThan(0);
  });

  it('fetches a 250-location table against the default 100-coordinate limit: 25 requests of at most 100 coordinates', async () => {
    const server = await fakeOsrm({ limit: 100 });
    opened.push(server);
    const table = (await travelTable(request(250), await osrmSettings(server)))!;
    expect(server.requests).toHaveLength(25);
    expect(server.requests.every(({ url }) => url.split('/')[4]!.split('?')[0]!.split(';').length <= 100)).toBe(true);
    expect(table.size).toBe(250);
    // Symmetric stand-in: each cell was fetched once, in the block that holds it.
    for (const [i, j] of [
      [0, 249],
      [120, 7],
      [249, 248],
    ] as const)
      expect(cell(table, i, j)).toEqual(cell(table, j, i));
    expect(cell(table, 0, 249)[0]).toBeGreaterThan(0);
  });

  it('asks for durations and distances, the profile, and exclude=toll,ferry when the problem excludes them', async () => {
    const server = await fakeOsrm();
    opened.push(server);
    await travelTable(request(3, { excludeTolls: true, excludeFerry: true }), await osrmSettings(server, { profile: 'car' }));
    const url = new URL(server.requests[0]!.url, 'http://x');
    expect(url.pathname.startsWith('/table/v1/car/4.800000,45.700000;')).toBe(true);
    expect(url.searchParams.get('annotations')).toBe('duration,distance');
    expect(url.searchParams.get('exclude')).toBe('toll,ferry');
  });

  it('marks null cells as no road, both ways', async () => {
    const island = { lat: 45.71, lng: 4.8 };
    const server = await fakeOsrm({ islands: [island] });
    opened.push(server);
    const table = (await travelTable(request(3), await osrmSettings(server)))!;
    expect(cell(table, 0, 1)[2]).toBe(1);
    expect(cell(table, 1, 2)[2]).toBe(1);
    expect(cell(table, 0, 2)[2]).toBe(0);
    expect(cell(table, 1, 1)).toEqual([0, 0, 0]);
  });

  it('retries 429 and 5xx answers, then succeeds', async () => {
    const server = await fakeOsrm();
    opened.push(server);
    server.failNext([429, 503, 502]);
    const table = await travelTable(request(4), await osrmSettings(server));
    expect(table!.size).toBe(4);
    expect(server.requests).toHaveLength(4);
  });

  it('fails with exit 3 naming OSRM and the cause when retries run out, when the server refuses, or cannot be reached', async () => {
    const server = await fakeOsrm({ limit: 5 });
    opened.push(server);
    server.failNext([503, 503, 503]);
    const exhausted = await travelTable(request(3), await osrmSettings(server, { retries: 2 })).catch((error: unknown) => error);
    expect(exhausted).toBeInstanceOf(RoutingError);
    expect((exhausted as RoutingError).exitCode).toBe(3);
    expect((exhausted as Error).message).toMatch(
      /^OSRM at http:\/\/127\.0\.0\.1:\d+\/table\/v1\/driving\/.* failed after 3 attempts: HTTP 503: scripted 503$/,
    );
    const tooBig = await travelTable(request(8), await osrmSettings(server)).catch((error: unknown) => error);
    expect((tooBig as Error).message).toContain('OSRM refused the table request: TooBig');
    const closed = await fakeOsrm();
    await closed.close();
    const down = await travelTable(request(3), {
      source: 'osrm',
      url: closed.url,
      cacheDir: await cacheDir(),
      retries: 1,
      retryDelayMs: 1,
    }).catch((error: unknown) => error);
    expect((down as Error).message).toMatch(/OSRM at http:\/\/127\.0\.0\.1:\d+\/table.* failed after 2 attempts: ECONNREFUSED/);
  });

  it('caches each block on disk: a second fetch of the same table makes no request; --no-cache always asks', async () => {
    const server = await fakeOsrm({ limit: 10 });
    opened.push(server);
    const settings = await osrmSettings(server, { maxLocationsPerRequest: 10 });
    const first = (await travelTable(request(12), settings))!;
    const asked = server.requests.length;
    const second = (await travelTable(request(12), settings))!;
    expect(server.requests.length).toBe(asked);
    expect(Array.from(second.durations)).toEqual(Array.from(first.durations));
    await travelTable(request(12, { excludeFerry: true }), settings);
    expect(server.requests.length).toBe(2 * asked); // other options, other answers
    await travelTable(request(12), { ...settings, cache: false });
    expect(server.requests.length).toBe(3 * asked);
  });
});

describe('Valhalla sources_to_targets', () => {
  it('fetches in blocks within the pair limit, turns kilometres into metres and null cells into no road', async () => {
    const island = { lat: 45.72, lng: 4.8 };
    const server = await fakeValhalla({ limit: 25, islands: [island] });
    const osrmServer = await fakeOsrm({ islands: [island] });
    opened.push(server, osrmServer);
    const problem = request(12);
    const table = (await travelTable(problem, {
      source: 'valhalla',
      url: server.url,
      cacheDir: await cacheDir(),
      maxLocationsPerRequest: 25,
    }))!;
    const reference = (await travelTable(problem, await osrmSettings(osrmServer)))!;
    expect(Array.from(table.distances)).toEqual(Array.from(reference.distances));
    expect(Array.from(table.noRoad)).toEqual(Array.from(reference.noRoad));
    expect(server.requests.every(({ body }) => body.sources.length * body.targets.length <= 25)).toBe(true);
    expect(server.requests[0]!.body).toMatchObject({ costing: 'auto', units: 'kilometers' });
    expect(cell(table, 0, 2)[2]).toBe(1);
  });

  it('passes exclusions as the costing’s use_tolls / use_ferry 0, and names Valhalla when it refuses', async () => {
    const server = await fakeValhalla({ limit: 4 });
    opened.push(server);
    await travelTable(request(2, { excludeTolls: true, excludeFerry: true }), {
      source: 'valhalla',
      url: server.url,
      profile: 'truck',
      cacheDir: await cacheDir(),
    });
    expect(server.requests[0]!.body).toMatchObject({ costing: 'truck', costing_options: { truck: { use_tolls: 0, use_ferry: 0 } } });
    const refused = await travelTable(request(3), {
      source: 'valhalla',
      url: server.url,
      cacheDir: await cacheDir(),
      maxLocationsPerRequest: 9,
    }).catch((error: unknown) => error);
    expect((refused as Error).message).toBe('Valhalla refused the matrix request: HTTP 400: Exceeded max locations (error_code 154)');
  });
});

describe('haversine', () => {
  it('needs no table: the offline model is computed by src/model', async () => {
    expect(await travelTable(request(3), { source: 'haversine' })).toBeNull();
  });
});
