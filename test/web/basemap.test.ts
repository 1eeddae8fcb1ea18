/**
 * The map's streets in real Chromium (decisions.md, "The live day"), and never a request off the
 * machine: OpenStreetMap's tiles by default (the browser's requests to them answered locally and
 * recorded), a raster template served by a local tile server, and a local PMTiles extract that
 * routeplan serves in byte ranges and the page draws on canvas tiles.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validateProblemFile } from '../../src/input/index.js';
import { OSM_TILES, type TileSource } from '../../src/server/http/web.js';
import { ROOT } from '../server/built.js';
import { writePmtiles } from '../support/pmtiles-fixture.js';
import { apiCall, launchChromium, screenshot, signIn, startWebService, type WebService } from './browser.js';
import { axeViolations } from './axe.js';

const KEY = 'basemap-test-key-0123456789';
const BAKERY = join(ROOT, 'fixtures/bakery.yaml');

let browser: Browser;
let work: string;
let png: Buffer;
const started: { stop(): Promise<void> }[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  work = await mkdtemp(join(tmpdir(), 'routeplan-basemap-'));
  png = await readFile(join(ROOT, 'node_modules/leaflet/dist/images/layers.png'));
});
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
  for (const each of started.splice(0)) await each.stop();
});
afterAll(async () => {
  await browser?.close();
  await rm(work, { recursive: true, force: true });
});

/** The service with `tiles`, the bakery as a project, and a page open on it (requests leaving the machine are refused and listed). */
async function projectPage(tiles: TileSource): Promise<{ page: Page; service: WebService; outside: string[] }> {
  const service = await startWebService([KEY], 2_000, { tiles });
  started.push(service);
  const { document } = await validateProblemFile(BAKERY);
  const id = (await apiCall(service, KEY, 'POST', '/v1.0/project', document)).json.id as string;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: false });
  contexts.push(context);
  const outside: string[] = [];
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, async (route) => {
    outside.push(route.request().url());
    await route.abort();
  });
  const page = await context.newPage();
  await signIn(page, service.url, KEY);
  await page.goto(`${service.url}/projects/${id}`);
  return { page, service, outside };
}

describe('the basemap', () => {
  it('by default points at OpenStreetMap’s standard tiles with their attribution; only the view’s tiles are asked for', async () => {
    const { page, outside } = await projectPage({ ...OSM_TILES });
    const asked: { url: string; referer: string | undefined }[] = [];
    // Answered here, before the catch-all refusal: the browser's requests never leave the machine.
    await page.route('https://tile.openstreetmap.org/**', async (route) => {
      asked.push({ url: route.request().url(), referer: (await route.request().allHeaders()).referer });
      await route.fulfill({ status: 200, contentType: 'image/png', body: png });
    });
    await page.reload();
    const attribution = page.locator('.leaflet-control-attribution');
    await attribution.getByText('OpenStreetMap').waitFor();
    expect(await attribution.innerText()).toContain('© OpenStreetMap contributors');
    expect(await attribution.getByRole('link', { name: 'OpenStreetMap' }).getAttribute('href')).toBe(
      'https://www.openstreetmap.org/copyright',
    );
    await expect.poll(() => page.locator('img.leaflet-tile-loaded').count()).toBeGreaterThan(0);
    expect(await page.locator('#map').getAttribute('data-basemap')).toBe('raster');
    expect(asked.length).toBeGreaterThan(0);
    for (const { url } of asked) expect(url).toMatch(/^https:\/\/tile\.openstreetmap\.org\/\d+\/\d+\/\d+\.png$/);
    // A 1280-pixel-wide map needs a few dozen 256-pixel tiles at most: nothing is prefetched beyond the view.
    expect(asked.length).toBeLessThan(40);
    expect(new Set(asked.map(({ referer }) => referer))).toEqual(new Set([`${new URL(page.url()).origin}/`]));
    expect(outside.filter((url) => !url.startsWith('https://tile.openstreetmap.org/'))).toEqual([]);
  });

  it('--tiles <template>: tiles come from the local tile server, with the attribution given', async () => {
    const requests: { url: string; headers: IncomingHttpHeaders }[] = [];
    const tileServer: Server = createServer((request, response) => {
      requests.push({ url: request.url ?? '', headers: request.headers });
      response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    await new Promise<void>((resolve) => tileServer.listen(0, '127.0.0.1', resolve));
    started.push({ stop: () => new Promise((resolve) => tileServer.close(() => resolve())) });
    const { port } = tileServer.address() as AddressInfo;
    const { page, outside } = await projectPage({
      kind: 'raster',
      url: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`,
      attribution: '© Local tiles',
    });
    await page.locator('.leaflet-control-attribution', { hasText: '© Local tiles' }).waitFor();
    await expect.poll(() => page.locator('img.leaflet-tile-loaded').count()).toBeGreaterThan(0);
    expect(requests.length).toBeGreaterThan(0);
    for (const { url } of requests) expect(url).toMatch(/^\/\d+\/\d+\/\d+\.png$/);
    expect(outside).toEqual([]);
  });

  it('--tiles <file.pmtiles>: the page reads the extract in byte ranges from routeplan and draws its vector tiles', async () => {
    const file = join(work, 'lyon.pmtiles');
    const { maxZoom } = await writePmtiles(file, 15);
    const service = { kind: 'pmtiles', file, attribution: '© OpenStreetMap contributors (test extract)', maxZoom } as const;
    const { page, outside } = await projectPage(service);
    const ranges: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/tiles/basemap.pmtiles')) ranges.push(request.headers().range ?? '(none)');
    });
    await page.reload();
    await page.locator('.leaflet-control-attribution', { hasText: 'test extract' }).waitFor();
    await expect.poll(() => page.locator('.leaflet-tile-pane canvas').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(ranges.length).toBeGreaterThan(0);
    for (const range of ranges) expect(range).toMatch(/^bytes=\d+-\d+$/);
    // The fixture's tile is water over its western half and land over the rest: a drawn tile has both colours.
    await expect.poll(() => page.evaluate(distinctColours), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(await page.locator('#map').getAttribute('data-basemap')).toBe('pmtiles');
    expect(outside).toEqual([]);
    await screenshot(page, 'map-pmtiles');
    // axe-core goes in as an inline script: in a page that allows it, the same page again.
    const checked = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    contexts.push(checked);
    const again = await checked.newPage();
    await signIn(again, new URL(page.url()).origin, KEY);
    await again.goto(page.url());
    await again.locator('.leaflet-tile-pane canvas').first().waitFor();
    expect(await axeViolations(again)).toEqual([]);
  });
});

declare const document: { querySelectorAll(selector: string): ArrayLike<{ width: number; height: number; getContext(kind: '2d'): any }> };

/** The distinct colours of the first drawn canvas tile, sampled on a grid (runs in the page). */
function distinctColours(): number {
  const colours = new Set<string>();
  for (const canvas of Array.from(document.querySelectorAll('.leaflet-tile-pane canvas'))) {
    const context = canvas.getContext('2d');
    for (let x = 8; x < canvas.width; x += 32) {
      for (let y = 8; y < canvas.height; y += 32) colours.add(Array.from(context.getImageData(x, y, 1, 1).data as number[]).join(','));
    }
  }
  return colours.size;
}
