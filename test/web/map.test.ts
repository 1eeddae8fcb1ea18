/**
 * The live day's map in real Chromium against the real service (decisions.md, "The live day"):
 * with OSRM travel (the local fake serving table and route) the route lines follow the fake's road
 * shapes; the legend's checkboxes hide and show a route; a marker opens its stop's details; after
 * dispatch, done and failed stops get their own glyphs and shapes and a driver's shared position is
 * drawn with its age; axe-core finds no WCAG 2.1 A/AA violation. Screenshots at desktop and phone
 * sizes: results/web/map-*.png.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProblemFile, validateProblemFile } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { routeLocations } from '../../src/output/visits.js';
import type { TravelSettings } from '../../src/travel/types.js';
import { ROOT } from '../server/built.js';
import { checkPlan } from '../support/checker.js';
import { fakeOsrm, roadShape, type FakeRouting } from '../support/fake-routing.js';
import { SHOTS, apiCall, launchChromium, screenshot, signIn, startWebService, type WebService } from './browser.js';
import { axeViolations } from './axe.js';

const KEY = 'map-test-key-0123456789abcdef';
const BAKERY = join(ROOT, 'fixtures/bakery.yaml');

let browser: Browser;
let osrm: FakeRouting;
let service: WebService;
let cacheDir: string;
let travel: TravelSettings;
let page: Page;
let projectId: string;
let plan: Plan;
const breakage: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  osrm = await fakeOsrm();
  cacheDir = await mkdtemp(join(tmpdir(), 'routeplan-map-cache-'));
  travel = { source: 'osrm', url: osrm.url, profile: 'driving', cacheDir };
  service = await startWebService([KEY], 2_000, { travel });
  const { document } = await validateProblemFile(BAKERY);
  projectId = (await apiCall(service, KEY, 'POST', '/v1.0/project', document)).json.id;
  // bypassCSP: axe-core goes in as an inline script; the page's own scripts are all served files.
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true })).newPage();
  page.on('pageerror', (error) => breakage.push(`script error: ${error.message}`));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await osrm?.close();
  await rm(cacheDir, { recursive: true, force: true });
});

/** The SVG path of a route's coloured line, as [x, y] vertices on the screen. */
async function lineVertices(vehicleIndex: number, on: Page = page): Promise<[number, number][]> {
  const d = await on.locator(`path.route-line-${vehicleIndex}`).getAttribute('d');
  return [...(d ?? '').matchAll(/[ML]\s*(-?[\d.]+)[ ,](-?[\d.]+)/g)].map((match) => [Number(match[1]), Number(match[2])]);
}

/** [lng, lat] positions in Web Mercator pixels, scaled and moved so their box is the drawn path's box (Leaflet's zoom and origin). */
function onScreen(coordinates: [number, number][], drawn: [number, number][]): [number, number][] {
  const mercator = coordinates.map(([lng, lat]): [number, number] => [
    lng,
    (-Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) * 180) / Math.PI,
  ]);
  const span = (points: [number, number][], axis: 0 | 1): [number, number] => [
    Math.min(...points.map((p) => p[axis])),
    Math.max(...points.map((p) => p[axis])),
  ];
  const [gx, gy] = [span(mercator, 0), span(mercator, 1)];
  const [px, py] = [span(drawn, 0), span(drawn, 1)];
  const scale = gx[1] - gx[0] > gy[1] - gy[0] ? (px[1] - px[0]) / (gx[1] - gx[0]) : (py[1] - py[0]) / (gy[1] - gy[0]);
  return mercator.map(([x, y]) => [px[0] + (x - gx[0]) * scale, py[0] + (y - gy[0]) * scale]);
}

/** A point's distance to a polyline. */
function distanceToPath([x, y]: [number, number], path: [number, number][]): number {
  let best = Infinity;
  for (let i = 1; i < path.length; i++) {
    const [ax, ay] = path[i - 1]!;
    const [bx, by] = path[i]!;
    const length = (bx - ax) ** 2 + (by - ay) ** 2;
    const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / length));
    best = Math.min(best, Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))));
  }
  return best;
}

/** Escape closes a popup; it fades out before it leaves the page. */
async function closePopup(): Promise<void> {
  await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('.leaflet-popup').count()).toBe(0);
}

describe('the project map with road travel', () => {
  it('draws each route along the provider’s roads: the lines turn where the fake’s roads turn', async () => {
    await signIn(page, service.url, KEY);
    await page.goto(`${service.url}/projects/${projectId}`);
    await page.getByRole('button', { name: 'Optimize', exact: true }).click();
    await page.locator('#plan').waitFor({ state: 'visible', timeout: 30_000 });
    const project = (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}`)).json;
    plan = (await apiCall(service, KEY, 'GET', `/v2/schedules/${project.optimizations[0].actionUuid}`)).json.solution;
    const { problem } = await loadProblemFile(BAKERY, { travel });
    expect(checkPlan(problem, plan)).toEqual([]);
    expect(plan.routes.length).toBeGreaterThan(1);
    for (const route of plan.routes) {
      expect(route.geometry!.coordinates).toEqual(roadShape(routeLocations(route)));
      const vertices = await lineVertices(route.vehicle_index);
      // Straight lines would join the places directly; the fake's roads go north–south, then east–west.
      expect(vertices.length).toBeGreaterThan(routeLocations(route).length);
      for (let i = 1; i < vertices.length; i++) {
        const [dx, dy] = [vertices[i]![0] - vertices[i - 1]![0], vertices[i]![1] - vertices[i - 1]![1]];
        expect(Math.min(Math.abs(dx), Math.abs(dy)), `segment ${i} of ${route.vehicle}`).toBeLessThan(1.5);
      }
      // Point for point: the geometry in Web Mercator, scaled and moved onto the drawn path, lies on it.
      const expected = onScreen(route.geometry!.coordinates, vertices);
      for (const point of expected) expect(distanceToPath(point, vertices), `${route.vehicle} at ${point.join(',')}`).toBeLessThan(2);
      for (const vertex of vertices)
        expect(Math.min(...expected.map((point) => Math.hypot(point[0] - vertex[0], point[1] - vertex[1])))).toBeLessThan(2);
    }
    expect(await page.locator('#map').getAttribute('data-basemap')).toBe('none');
  });

  it('hides and shows a route with its legend checkbox, by keyboard', async () => {
    const route = plan.routes[0]!;
    const toggle = page.getByRole('checkbox', { name: new RegExp(`^1\\. ${route.vehicle}`) });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.focus();
    await page.keyboard.press('Space');
    expect(await toggle.isChecked()).toBe(false);
    expect(await page.locator(`path.route-line-${route.vehicle_index}`).count()).toBe(0);
    expect(await page.locator(`path.route-line-${plan.routes[1]!.vehicle_index}`).count()).toBe(1);
    await screenshot(page, 'map-route-hidden');
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator(`path.route-line-${route.vehicle_index}`).count()).toBe(1);
  });

  it('opens a stop’s details from its marker: name, address, window, planned time, status, driver', async () => {
    const route = plan.routes[0]!;
    const visit = route.visits.find((each) => each.kind === 'stop')!;
    const stopName = (visit as { stop: string }).stop;
    await page.locator(`.leaflet-marker-icon[title^="${route.vehicle} #1: "]`).click();
    const popup = page.locator('.leaflet-popup .stop-popup');
    await popup.waitFor();
    const text = await popup.innerText();
    expect(text).toContain(stopName);
    expect(text).toMatch(/Window\s+\d\d:\d\d–\d\d:\d\d/);
    expect(text).toMatch(/Planned\s+\d\d:\d\d/);
    expect(text).toMatch(/Status\s+Planned/);
    expect(text).toContain(`Driver\n${route.vehicle}`);
    await page.waitForTimeout(300); // the popup's fade-in, for the screenshot
    await screenshot(page, 'map-popup');
    await closePopup();
  });

  it('after dispatch draws done and failed stops with their own glyph and shape, a driver’s position with its age; axe finds nothing', async () => {
    const actionUuid = (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}`)).json.optimizations[0].actionUuid;
    const dispatch = (await apiCall(service, KEY, 'POST', `/v1.0/project/${projectId}/dispatch`, { actionUuid })).json;
    const [first, second] = dispatch.stops;
    const link = dispatch.drivers.find((driver: any) => driver.driver_id === first.driver_id);
    const token = new URL(link.url).pathname.split('/').pop();
    for (const [stop, update] of [
      [first, { status: 'done' }],
      [second, { status: 'failed', reason: 'Shop closed' }],
    ] as const) {
      const sent = await fetch(`${service.url}/drivers/${token}/stops/${stop.stop_id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(update),
      });
      expect(sent.status).toBe(200);
    }
    // The driver shares where they are (3 min ago); the reports and the position re-time the rest of
    // the route from now, which is past the bakery's date: its remaining stops run late.
    const at = new Date(Date.now() - 3 * 60_000).toISOString();
    const shared = await fetch(`${service.url}/drivers/${token}/position`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lat: 45.7605, lng: 4.8425, at }),
    });
    expect(shared.status).toBe(200);
    const live = (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}/dispatch`)).json;
    const late = live.stops.filter((stop: any) => stop.late === true && stop.status === 'planned');
    expect(late.length).toBeGreaterThan(0);
    await page.reload();
    await page.locator('#plan').waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.pin.pin-done').waitFor();
    expect(await page.locator('.pin.pin-done').count()).toBe(1);
    expect(await page.locator('.pin.pin-failed').count()).toBe(1);
    expect(await page.locator('.pin.pin-done').innerText()).toBe('✓');
    expect(await page.locator('.pin.pin-failed').innerText()).toBe('✗');
    expect(await page.locator('.leaflet-marker-icon[title*=", done)"]').count()).toBe(1);
    expect(await page.locator('.leaflet-marker-icon[title*=", failed)"]').count()).toBe(1);
    const legend = await page.locator('#legend').innerText();
    expect(legend).toMatch(/✓\s*Done/);
    expect(legend).toMatch(/✗\s*Failed/);
    expect(legend).toMatch(/!\s*Running late/);
    expect(await page.locator('.pin .pin-late').count()).toBe(late.length);
    await page.locator('.leaflet-marker-icon[title*="running late"]').first().click();
    expect(await page.locator('.leaflet-popup .stop-popup').innerText()).toMatch(
      /Estimate\s+\d\d:\d\d( \(\+\d+ days?\))? \(late\)[\s\S]*Status\s+Planned, running late/,
    );
    await closePopup();
    expect(await page.locator('.driver-position .driver-label').innerText()).toBe(`${link.driver_name} · 3 min ago`);
    await page.locator('.pin.pin-failed').click();
    expect(await page.locator('.leaflet-popup .stop-popup').innerText()).toMatch(/Status\s+Failed/);
    await closePopup();
    await page.mouse.move(0, 0); // no tooltip left from the clicks in the screenshot
    await page.locator('.map-panel').screenshot({ path: join(SHOTS, 'map-dispatched.png') });
    expect(await axeViolations(page)).toEqual([]);
    expect(breakage).toEqual([]);
  });

  it('gives the driver page a small map of the day: stops numbered, done and failed marked; axe finds nothing', async () => {
    const dispatch = (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}/dispatch`)).json;
    const link = dispatch.drivers.find((driver: any) => driver.driver_id === dispatch.stops[0].driver_id);
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, bypassCSP: true });
    const driverPage = await phone.newPage();
    driverPage.on('pageerror', (error) => breakage.push(`driver page script error: ${error.message}`));
    await driverPage.goto(link.url);
    const map = driverPage.getByRole('region', { name: 'Map of your route' });
    await map.locator('.pin.pin-done').waitFor();
    const mine = dispatch.stops.filter((stop: any) => stop.driver_id === link.driver_id);
    expect(await map.locator('.leaflet-marker-icon[title^="Stop "]').count()).toBe(mine.length);
    expect(await map.locator('.pin.pin-done').innerText()).toBe('✓');
    expect(await map.locator('.pin.pin-failed').innerText()).toBe('✗');
    // The number first; a late stop's "!" beside it.
    expect((await map.locator('.leaflet-marker-icon[title^="Stop 3: "] .pin').innerText()).split('\n')[0]).toBe('3');
    // Along the fake's roads, as on the dispatcher's map: north–south, then east–west, never straight across.
    const frozen = plan.routes.find((route: any) => route.vehicle === link.driver_name);
    const d = await map.locator('path.route-line').getAttribute('d');
    const vertices = [...(d ?? '').matchAll(/[ML]\s*(-?[\d.]+)[ ,](-?[\d.]+)/g)].map((match) => [Number(match[1]), Number(match[2])]);
    expect(vertices.length).toBeGreaterThan(routeLocations(frozen!).length);
    for (let i = 1; i < vertices.length; i++) {
      const [dx, dy] = [vertices[i]![0]! - vertices[i - 1]![0]!, vertices[i]![1]! - vertices[i - 1]![1]!];
      expect(Math.min(Math.abs(dx), Math.abs(dy)), `segment ${i}`).toBeLessThan(1.5);
    }
    // The map sits above the list, which stays the way to work through the day.
    expect(await driverPage.locator('.route-map + #route').count()).toBe(1);
    await screenshot(driverPage, 'map-driver-page');
    expect(await axeViolations(driverPage)).toEqual([]);
    expect(breakage).toEqual([]);
    await phone.close();
  });

  it('reads at phone size: the map, its marks and the legend', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const small = await phone.newPage();
    await signIn(small, service.url, KEY);
    await small.goto(`${service.url}/projects/${projectId}`);
    await small.locator('.pin.pin-done').waitFor({ timeout: 30_000 });
    await small.locator('.map-panel').screenshot({ path: join(SHOTS, 'map-phone.png') });
    await phone.close();
  });

  it('says so in the legend when the routing service gave no road shape: the routes are drawn straight', async () => {
    const noRoads = await fakeOsrm({ noRoute: true });
    const straight = await startWebService([KEY], 2_000, { travel: { ...travel, url: noRoads.url } });
    try {
      const { document } = await validateProblemFile(BAKERY);
      const id = (await apiCall(straight, KEY, 'POST', '/v1.0/project', document)).json.id;
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const tab = await context.newPage();
      await signIn(tab, straight.url, KEY);
      await tab.goto(`${straight.url}/projects/${id}`);
      await tab.getByRole('button', { name: 'Optimize', exact: true }).click();
      await tab.locator('#plan').waitFor({ state: 'visible', timeout: 30_000 });
      const action = (await apiCall(straight, KEY, 'GET', `/v1.0/project/${id}`)).json.optimizations[0].actionUuid;
      const straightPlan: Plan = (await apiCall(straight, KEY, 'GET', `/v2/schedules/${action}`)).json.solution;
      expect(straightPlan.routes.every((route) => route.geometry === undefined)).toBe(true);
      expect(straightPlan.warnings).toHaveLength(straightPlan.routes.length);
      const note = tab.locator('#legend').getByText(/^Drawn in straight lines: the routing service gave no road shape for 1\. /);
      await note.waitFor();
      const first = straightPlan.routes[0]!;
      expect(await lineVertices(first.vehicle_index, tab)).toHaveLength(routeLocations(first).length);
      await context.close();
    } finally {
      await straight.stop();
      await noRoads.close();
    }
  });
});
