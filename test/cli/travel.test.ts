/**
 * Road travel times through the BUILT binary (decisions.md, "Road travel times"): `solve` and
 * `validate` with --travel osrm against a stand-in OSRM server, the disk cache, --no-cache, a
 * failing provider (exit 3), a matrix file (its legs checked by the independent checker), a place
 * with no road, exclusions, and `serve` with a server-wide travel source.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProblemFile } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';
import { fakeOsrm, roadShape, type FakeRouting } from '../support/fake-routing.js';
import { routeLocations } from '../../src/output/visits.js';
import { ROOT, assertBuilt, runCli, startBuiltServer } from '../server/built.js';

const BAKERY = join(ROOT, 'fixtures/bakery.yaml');
let work: string;
const servers: FakeRouting[] = [];

beforeAll(async () => {
  assertBuilt();
  work = await mkdtemp(join(tmpdir(), 'routeplan-travel-cli-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function osrm(options: Parameters<typeof fakeOsrm>[0] = {}): Promise<FakeRouting> {
  const server = await fakeOsrm(options);
  servers.push(server);
  return server;
}

/** A fresh cache directory per test, so runs never see each other's answers. */
async function cacheEnv(): Promise<Record<string, string>> {
  return { XDG_CACHE_HOME: await mkdtemp(join(work, 'cache-')) };
}

const SOLVE = ['--json', '--quiet', '--max-iterations', '50', '--time-limit', '20'];

describe('solve with --travel osrm', () => {
  it('plans on the provider’s times: every leg is the table’s (checked by the checker), and the plan names its source', async () => {
    const server = await osrm();
    const env = await cacheEnv();
    const run = await runCli(['solve', BAKERY, '--travel', 'osrm', '--travel-url', server.url, ...SOLVE], env);
    expect(run.code, run.stderr).toBe(0);
    const plan = JSON.parse(run.stdout) as Plan;
    expect(plan.travel).toEqual({ source: 'osrm', profile: 'driving', url: server.url });
    expect(server.requests.length).toBeGreaterThan(0);
    const asked = server.requests.length;
    // The checker re-derives every leg from the same table, fetched again through the cache.
    const { problem } = await withEnv(env, () =>
      loadProblemFile(BAKERY, { travel: { source: 'osrm', url: server.url, profile: 'driving' } }),
    );
    expect(server.requests.length).toBe(asked);
    expect(problem.travelSource).toMatchObject({ kind: 'road', source: 'osrm' });
    expect(checkPlan(problem, plan)).toEqual([]);
    const geo = JSON.parse((await runCli(['solve', BAKERY, ...SOLVE], env)).stdout) as Plan;
    expect(geo.travel).toEqual({ source: 'haversine' });
    expect(plan.summary.driving_s).not.toBe(geo.summary.driving_s);
  });

  it('asks nothing the second time (disk cache), and everything again with --no-cache', async () => {
    const server = await osrm();
    const env = await cacheEnv();
    const args = ['solve', BAKERY, '--travel', 'osrm', '--travel-url', server.url, '--travel-max-locations', '10', ...SOLVE];
    expect((await runCli(args, env)).code).toBe(0);
    const first = server.requests.length;
    expect(first).toBeGreaterThan(1); // 20 places in blocks of at most 10 coordinates
    expect((await runCli(args, env)).code).toBe(0);
    expect(server.requests.length).toBe(first);
    expect((await runCli([...args, '--no-cache'], env)).code).toBe(0);
    expect(server.requests.length).toBe(2 * first);
  });

  it('draws each route along the provider’s roads: routes[].geometry in the JSON plan and the GeoJSON output', async () => {
    const server = await osrm();
    const env = await cacheEnv();
    const run = await runCli(['solve', BAKERY, '--travel', 'osrm', '--travel-url', server.url, ...SOLVE], env);
    expect(run.code, run.stderr).toBe(0);
    const plan = JSON.parse(run.stdout) as Plan;
    expect(plan.routes.length).toBeGreaterThan(0);
    for (const route of plan.routes) {
      expect(route.geometry).toEqual({ type: 'LineString', coordinates: roadShape(routeLocations(route)) });
    }
    expect(server.requests.filter((request) => request.url.startsWith('/route/v1/driving/'))).toHaveLength(plan.routes.length);
    const file = join(work, 'roads.geojson');
    expect((await runCli(['solve', BAKERY, '--travel', 'osrm', '--travel-url', server.url, ...SOLVE, '-o', file], env)).code).toBe(0);
    const lines = (
      JSON.parse(await readFile(file, 'utf8')) as { features: { geometry: { type: string; coordinates: unknown } }[] }
    ).features
      .filter((feature) => feature.geometry.type === 'LineString')
      .map((feature) => feature.geometry.coordinates);
    expect(lines).toEqual(plan.routes.map((route) => route.geometry!.coordinates));
  });

  it('keeps the plan with straight lines and warns on stderr when the route service gives no route', async () => {
    const server = await osrm({ noRoute: true });
    const args = ['solve', BAKERY, '--travel', 'osrm', '--travel-url', server.url, '--json', '--max-iterations', '50'];
    const run = await runCli(args, await cacheEnv());
    expect(run.code, run.stderr).toBe(0);
    const plan = JSON.parse(run.stdout) as Plan;
    expect(plan.routes.every((route) => route.geometry === undefined)).toBe(true);
    expect(plan.warnings?.[0]).toMatchObject({ path: 'routes[0].geometry', message: expect.stringMatching(/straight lines.*NoRoute/) });
    expect(run.stderr).toMatch(/warning: .*routes\[0\]\.geometry.*straight lines/);
  });

  it('exits 3 naming OSRM and the cause when the server keeps failing', async () => {
    const server = await osrm();
    server.failNext(new Array(10).fill(503));
    const run = await runCli(['solve', BAKERY, '--travel', 'osrm', '--travel-url', server.url, '--quiet'], await cacheEnv());
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/OSRM at http:\/\/127\.0\.0\.1:\d+\/table\/v1\/driving\/.* failed after 5 attempts: HTTP 503/);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  }, 30_000);

  it('leaves a stop with no road to it unserved, saying so', async () => {
    // Hôtel Le Royal (45.7571, 4.8316 in the fixture) cut off from every other place.
    const server = await osrm({ islands: [{ lat: 45.7571, lng: 4.8316 }] });
    const run = await runCli(['solve', BAKERY, '--travel', 'osrm', '--travel-url', server.url, ...SOLVE], await cacheEnv());
    expect(run.code, run.stderr).toBe(0);
    const plan = JSON.parse(run.stdout) as Plan;
    const royal = plan.unserved.find((entry) => entry.stop === 'Hôtel Le Royal');
    expect(royal).toMatchObject({ reason: 'unreachable_in_shift' });
    expect(royal!.message).toMatch(/^no road/);
  });

  it('passes excludeTolls/excludeFerry to the provider, and warns about them with the offline model', async () => {
    const file = join(work, 'excludes.json');
    const oneOff = JSON.parse(await readFile(join(ROOT, 'fixtures/oneoff.json'), 'utf8'));
    oneOff.options = { ...(oneOff.options ?? {}), excludeTolls: true, excludeFerry: true };
    await writeFile(file, JSON.stringify(oneOff));
    const server = await osrm();
    const road = await runCli(['validate', file, '--travel', 'osrm', '--travel-url', server.url], await cacheEnv());
    expect(road.code, road.stderr).toBe(0);
    expect(road.stdout).not.toContain('warning');
    expect(new URL(server.requests[0]!.url, 'http://x').searchParams.get('exclude')).toBe('toll,ferry');
    // The routes' shapes avoid what the times avoided.
    const solved = await runCli(['solve', file, '--travel', 'osrm', '--travel-url', server.url, ...SOLVE], await cacheEnv());
    expect(solved.code, solved.stderr).toBe(0);
    const shapes = server.requests.filter((request) => request.url.startsWith('/route/'));
    expect(shapes.length).toBeGreaterThan(0);
    for (const request of shapes) expect(new URL(request.url, 'http://x').searchParams.get('exclude')).toBe('toll,ferry');
    const offline = await runCli(['validate', file], await cacheEnv());
    expect(offline.stdout).toContain('warning: options.excludeTolls: has no effect with the offline travel model');
  });

  it('says which flag is missing (exit 2)', async () => {
    const noUrl = await runCli(['solve', BAKERY, '--travel', 'osrm']);
    expect([noUrl.code, noUrl.stderr.trim()]).toEqual([2, 'routeplan: error: --travel osrm needs the server: --travel-url <url>']);
    const bad = await runCli(['solve', BAKERY, '--travel', 'google']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected one of haversine, osrm, valhalla, matrix');
  });
});

describe('solve with --travel matrix', () => {
  /** Every ordered pair of the one-off fixture's places, straight-line metres and metres ÷ 8 seconds. */
  async function matrixFor(document: any, drop = 0): Promise<string> {
    const places: [string, { lat: number; lng: number }][] = [];
    for (const route of document.routesData) {
      const start = route.constraints.startLocations[0];
      places.push([`${route.name}/start`, { lat: start.latitude, lng: start.longitude }]);
      const end = route.constraints.endLocations?.[0];
      if (end) places.push([`${route.name}/end`, { lat: end.latitude, lng: end.longitude }]);
    }
    for (const order of document.ordersData)
      places.push([order.name, { lat: order.locations[0].latitude, lng: order.locations[0].longitude }]);
    const rows = ['from,to,duration_s,distance_m'];
    for (const [from, a] of places) {
      for (const [to, b] of places) {
        if (from === to) continue;
        const metres = Math.round(Math.hypot(a.lat - b.lat, (a.lng - b.lng) * 0.7) * 111_000);
        rows.push(`"${from}","${to}",${Math.round(metres / 8)},${metres}`);
      }
    }
    const file = join(work, `matrix-${drop}.csv`);
    await writeFile(file, rows.slice(0, rows.length - drop).join('\n'));
    return file;
  }

  it('plans on the file’s legs, which the checker verifies against the same file', async () => {
    const document = JSON.parse(await readFile(join(ROOT, 'fixtures/oneoff.json'), 'utf8'));
    const matrix = await matrixFor(document);
    const run = await runCli(['solve', join(ROOT, 'fixtures/oneoff.json'), '--travel', 'matrix', '--travel-matrix', matrix, ...SOLVE]);
    expect(run.code, run.stderr).toBe(0);
    const plan = JSON.parse(run.stdout) as Plan;
    expect(plan.travel).toEqual({ source: 'matrix', url: matrix });
    const { problem } = await loadProblemFile(join(ROOT, 'fixtures/oneoff.json'), { travel: { source: 'matrix', matrixFile: matrix } });
    expect(checkPlan(problem, plan)).toEqual([]);
    const legs = new Map(
      (await readFile(matrix, 'utf8'))
        .split('\n')
        .slice(1)
        .map((row) => {
          const [from, to, duration] = row.split(',');
          return [`${from!.replace(/"/g, '')}→${to!.replace(/"/g, '')}`, Number(duration)];
        }),
    );
    for (const route of plan.routes) {
      let previous = `${route.vehicle}/start`;
      for (const visit of route.visits) {
        if (visit.kind !== 'stop') continue;
        const expected = legs.get(`${previous}→${visit.stop}`);
        if (previous !== visit.stop && expected !== undefined) expect(visit.travel_s, `${previous}→${visit.stop}`).toBe(expected);
        previous = visit.stop;
      }
    }
  });

  it('names the missing pairs (exit 2)', async () => {
    const document = JSON.parse(await readFile(join(ROOT, 'fixtures/oneoff.json'), 'utf8'));
    const matrix = await matrixFor(document, 3);
    const run = await runCli(['validate', join(ROOT, 'fixtures/oneoff.json'), '--travel', 'matrix', '--travel-matrix', matrix]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/lacks 3 of the problem's \d+ legs: /);
  });
});

describe('serve with a travel source', () => {
  it('solves every action on the provider’s times, and fails an action naming OSRM when the provider is down (exit 3 for the client)', async () => {
    const server = await osrm();
    const env = { ...(await cacheEnv()), ROUTEPLAN_SERVER_KEYS: 'k' };
    const service = await startBuiltServer(
      ['--travel', 'osrm', '--travel-url', server.url, '--time-limit', '1', '--data-dir', join(work, 'data')],
      env,
    );
    try {
      const submit = await runCli(
        ['submit', join(ROOT, 'fixtures/oneoff.json'), '--remote', service.url, '--api-key', 'k', '--wait', '--json'],
        env,
      );
      expect(submit.code, submit.stderr).toBe(0);
      expect(JSON.parse(submit.stdout).travel).toEqual({ source: 'osrm', profile: 'driving', url: server.url });
      const document = JSON.parse(await readFile(join(ROOT, 'fixtures/oneoff.json'), 'utf8'));
      document.ordersData[0].locations[0].latitude += 0.001; // new coordinates: not in the cache
      await writeFile(join(work, 'moved.json'), JSON.stringify(document));
      server.failNext(new Array(10).fill(502));
      const failed = await runCli(['submit', join(work, 'moved.json'), '--remote', service.url, '--api-key', 'k', '--wait', '--json'], env);
      expect(failed.code).toBe(3);
      const error = JSON.parse(failed.stdout).error;
      expect(error.code).toBe('action_failed');
      expect(error.message).toMatch(/failed: OSRM at http:\/\/127\.0\.0\.1:\d+\/table\/v1\/driving\/.* failed after 5 attempts: HTTP 502/);
    } finally {
      await service.stop();
    }
  }, 60_000);
});

/** Runs `work` with environment variables set (the cache directory), as the binary had them. */
async function withEnv<T>(env: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await work();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}
