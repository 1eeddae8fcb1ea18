/**
 * The basemap settings of `routeplan serve` and a local PMTiles extract served by the service
 * (decisions.md, "The live day"): OpenStreetMap by default, `none`, a template, a .pmtiles file
 * checked at start; GET /tiles/basemap.pmtiles answers byte ranges, which the pmtiles reader the
 * page uses reads tiles through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FetchSource, PMTiles } from 'pmtiles';
import { serveOptionsFrom } from '../../src/cli/commands/serve.js';
import { InputError } from '../../src/errors.js';
import { byteRange } from '../../src/server/http/pmtiles.js';
import { OSM_TILES } from '../../src/server/http/web.js';
import { assertBuilt, runCli } from './built.js';
import { servicesStoppedAfterEach } from './harness.js';
import { call, makeWebRoot, signIn } from './web-harness.js';
import { fixtureTile, writePmtiles } from '../support/pmtiles-fixture.js';

const isolatedEnv = { XDG_CONFIG_HOME: '/nonexistent-routeplan-test-config' };
let work: string;
let webRoot: string;
let extract: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'routeplan-tiles-'));
  webRoot = await makeWebRoot();
  extract = join(work, 'lyon.pmtiles');
  await writePmtiles(extract, 14);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await rm(webRoot, { recursive: true, force: true });
});

const service = servicesStoppedAfterEach(() => ({ webRoot }));

async function flagError(flags: Parameters<typeof serveOptionsFrom>[0]): Promise<InputError> {
  const error = await serveOptionsFrom(flags, isolatedEnv).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

describe('--tiles', () => {
  it('defaults to OpenStreetMap’s standard tiles with their attribution linked to the copyright page; `none` is the plain map', async () => {
    const { tiles } = await serveOptionsFrom({}, isolatedEnv);
    expect(tiles).toEqual({ kind: 'raster', url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: OSM_TILES.attribution });
    expect(tiles!.attribution).toContain('<a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors');
    expect((await serveOptionsFrom({ tiles: 'none' }, isolatedEnv)).tiles).toBeUndefined();
    expect((await flagError({ tiles: 'none', tilesAttribution: 'x' })).details[0]!.path).toBe('--tiles-attribution');
  });

  it('a .pmtiles file is checked at start: a PMTiles v3 vector extract, OpenStreetMap’s attribution unless one is given', async () => {
    expect((await serveOptionsFrom({ tiles: extract }, isolatedEnv)).tiles).toEqual({
      kind: 'pmtiles',
      file: extract,
      attribution: OSM_TILES.attribution,
      maxZoom: 14,
    });
    expect((await serveOptionsFrom({ tiles: extract, tilesAttribution: '© Lyon extract' }, isolatedEnv)).tiles).toMatchObject({
      attribution: '© Lyon extract',
    });
    const notPmtiles = join(work, 'notes.pmtiles');
    await writeFile(notPmtiles, 'just some text, not an archive '.repeat(10));
    const version2 = join(work, 'old.pmtiles');
    await writeFile(version2, Buffer.concat([Buffer.from('PMTiles'), Buffer.from([2]), Buffer.alloc(200)]));
    const cases: [string, RegExp][] = [
      [join(work, 'missing.pmtiles'), /cannot read .*missing\.pmtiles.*ENOENT/],
      [notPmtiles, /is not a PMTiles file/],
      [version2, /PMTiles version 2; routeplan reads version 3/],
    ];
    for (const [file, message] of cases) {
      const error = await flagError({ tiles: file });
      expect(error.details[0]!.path).toBe('--tiles');
      expect(error.message).toMatch(message);
    }
  });

  it('the `serve` command exits 2 with a clear message for a file that is no PMTiles extract', async () => {
    assertBuilt();
    const bad = join(work, 'bad.pmtiles');
    await writeFile(bad, 'nope');
    const run = await runCli(['serve', '--port', '0', '--tiles', bad], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--tiles.*is not a PMTiles file/);
  });
});

describe('GET /tiles/basemap.pmtiles', () => {
  it('answers byte ranges (206, Content-Range, ETag) that the pmtiles reader reads the extract’s tiles through', async () => {
    const svc = await service({ tiles: { kind: 'pmtiles', file: extract, attribution: '© OSM', maxZoom: 14 } });
    const reader = new PMTiles(new FetchSource(`${svc.url}/tiles/basemap.pmtiles`));
    const header = await reader.getHeader();
    expect(header).toMatchObject({ specVersion: 3, maxZoom: 14, tileType: 1 });
    const tile = await reader.getZxy(13, 4206, 2918);
    expect(Buffer.from(tile!.data)).toEqual(Buffer.from(fixtureTile()));
    const part = await fetch(`${svc.url}/tiles/basemap.pmtiles`, { headers: { range: 'bytes=0-6' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toMatch(/^bytes 0-6\/\d+$/);
    expect(part.headers.get('accept-ranges')).toBe('bytes');
    expect(await part.text()).toBe('PMTiles');
    const etag = part.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const beyond = await fetch(`${svc.url}/tiles/basemap.pmtiles`, { headers: { range: 'bytes=99999999-' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toMatch(/^bytes \*\/\d+$/);
    const whole = await fetch(`${svc.url}/tiles/basemap.pmtiles`);
    expect(whole.status).toBe(200);
    expect(Number(whole.headers.get('content-length'))).toBe((await whole.arrayBuffer()).byteLength);
    expect((await fetch(`${svc.url}/tiles/basemap.pmtiles`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await call(svc.url, 'GET', '/tiles/other.pmtiles')).status).toBe(404);
    expect((await call(svc.url, 'POST', '/tiles/basemap.pmtiles')).status).toBe(405);
  });

  it('is no route without an extract, and the session tells the page the extract by URL, never its place on disk', async () => {
    const plain = await service();
    expect((await call(plain.url, 'GET', '/tiles/basemap.pmtiles')).status).toBe(404);
    const svc = await service({ tiles: { kind: 'pmtiles', file: extract, attribution: '© OSM', maxZoom: 14 } });
    const { cookie } = await signIn(svc.url, 'key-alpha');
    expect((await call(svc.url, 'GET', '/session', { cookie })).body.tiles).toEqual({
      kind: 'pmtiles',
      url: '/tiles/basemap.pmtiles',
      attribution: '© OSM',
      maxZoom: 14,
    });
  });

  it('reads a Range header as RFC 9110 says: first-last, first-, -suffix; unsatisfiable → null', () => {
    expect(byteRange(undefined, 100)).toBe('whole');
    expect(byteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(byteRange('bytes=90-200', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=50-', 100)).toEqual({ start: 50, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=100-', 100)).toBeNull();
    expect(byteRange('bytes=9-3', 100)).toBeNull();
    expect(byteRange('items=0-1', 100)).toBeNull();
    expect(byteRange('bytes=0-1,5-6', 100)).toBe('whole');
  });
});
