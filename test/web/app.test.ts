/**
 * The web application in real Chromium against the real `routeplan serve` (in-process, API keys,
 * worker-thread solver): sign in → projects → project page → Optimize → the plan, checked by the
 * independent checker → every export → Cancel of a long optimization → owner isolation → CSRF.
 * Screenshots of the main states go to results/web/ on every run.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProblemDocument, validateProblemFile } from '../../src/input/index.js';
import { buildGeoJson } from '../../src/output/geojson.js';
import type { Plan } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';
import { generateProject } from '../support/generate.js';
import { ROOT, runCli } from '../server/built.js';
import { apiCall, launchChromium, screenshot, signIn, startWebService, type WebService } from './browser.js';

// The page.evaluate callbacks run in the page, which has these; the Node test program has no DOM types.
declare const document: any, localStorage: any, sessionStorage: any, getComputedStyle: any;

const KEY_A = 'web-test-key-alpha-0123456789';
const KEY_B = 'web-test-key-beta-9876543210';
const BAKERY = join(ROOT, 'fixtures/bakery.yaml');

let browser: Browser;
let service: WebService;
let context: BrowserContext;
let page: Page;
let bakery: { id: string; url: string };
let otherOwnersProject: string;
let plan: Plan;
let planAction: string;
let later: { status: number; json: any };
/** What must never happen on a page: a script error, a CSP refusal, a missing asset. */
const breakage: string[] = [];

function watchForBreakage(watched: Page): void {
  watched.on('pageerror', (error) => breakage.push(`script error: ${error.message}`));
  watched.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/.test(message.text())) breakage.push(`CSP: ${message.text()}`);
  });
  watched.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/assets/') && response.status() >= 400) {
      breakage.push(`asset ${response.url()}: HTTP ${response.status()}`);
    }
  });
}

beforeAll(async () => {
  browser = await launchChromium();
  // A short limit: the bakery's plan is there in a few seconds.
  service = await startWebService([KEY_A, KEY_B], 3_000);
  context = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  watchForBreakage(page);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe('the web application in Chromium', () => {
  it('signs in with the API key form (a wrong key is refused) and lists the key’s projects, newest first', async () => {
    // Created as `routeplan submit` does, which prints the project's page URL.
    const submitted = await runCli(['submit', BAKERY, '--remote', service.url, '--api-key', KEY_A]);
    expect(submitted.code, submitted.stderr).toBe(0);
    const [id, url] = submitted.stdout.trim().split(' ');
    bakery = { id: id!, url: url! };
    expect(bakery.url).toBe(`${service.url}/projects/${bakery.id}`);
    const other = await apiCall(service, KEY_B, 'POST', '/v1.0/project', {
      name: 'Other team',
      date: '2024-05-15',
      drivers: [],
      stops: [],
    });
    expect(other.status).toBe(201);
    otherOwnersProject = other.json.id;
    // A later project of the same key, to see the order.
    later = await apiCall(service, KEY_A, 'POST', '/v1.0/project', {
      name: 'Afternoon round',
      date: '2024-05-14',
      drivers: [],
      stops: [],
    });
    expect(later.status).toBe(201);

    await page.goto(`${service.url}/`);
    await expect.poll(() => page.getByLabel('API key').isVisible()).toBe(true);
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That API key was not accepted').waitFor();
    await screenshot(page, '01-sign-in-failed');

    await page.getByLabel('API key').fill(KEY_A);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Boulangerie Saint-Jean' });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Boulangerie Saint-Jean — tournée du matin\s+.*2024\s+4\s+25\s+Not optimized/);
    expect(await page.getByText('Other team').count()).toBe(0);
    const names = await page.locator('.projects-table tbody th').allInnerTexts();
    expect(names).toEqual(['Afternoon round', 'Boulangerie Saint-Jean — tournée du matin']);
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    await screenshot(page, '02-projects');

    // The key is nowhere a script can read it; the session cookie is HttpOnly.
    const readable = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]));
    expect(readable).not.toContain(KEY_A);
    const cookies = await context.cookies();
    const session = cookies.find((cookie) => cookie.name === 'routeplan_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');
  });

  it('opens the project page: the date, a map with the depot and stops, the drivers and stops tables', async () => {
    await page.getByRole('link', { name: 'Boulangerie Saint-Jean — tournée du matin' }).click();
    await page.waitForURL(bakery.url);
    await page.getByRole('heading', { name: 'Boulangerie Saint-Jean — tournée du matin', level: 1 }).waitFor();
    expect(await page.locator('#project-meta').innerText()).toContain('2024');
    expect(await page.locator('#drivers tbody tr').count()).toBe(4);
    expect(await page.locator('#stops tbody tr').count()).toBe(25);
    // A stop without its own duration or load shows the project's defaults.
    expect(await page.locator('#stops tbody tr').nth(1).innerText()).toMatch(/Café du Soleil\s+06:30–08:00\s+4 min \(default\)\s+4\s/);
    expect(await page.locator('#stops tbody tr').nth(24).innerText()).toMatch(
      /Coworking Part-Dieu\s+08:30–09:30\s+4 min \(default\)\s+3\s/,
    );
    expect(await page.locator('#drivers tbody tr').first().innerText()).toMatch(/Camille\s+05:30–13:00\s+120\s+van, refrigerated/);
    expect(await page.locator('#stops tbody tr').nth(8).innerText()).toMatch(
      /École Sainte-Marie — cantine\s+07:30–08:15, 10:00–10:45\s+5 min\s+10\s+20\s+van/,
    );
    // All four drivers start at the bakery: one depot marker; 25 stop dots; a scale, no tiles.
    expect(await page.locator('.leaflet-marker-icon .depot').count()).toBe(1);
    expect(await page.locator('path.stop-dot').count()).toBe(25);
    expect(await page.locator('.leaflet-control-scale').count()).toBe(1);
    expect(await page.locator('.leaflet-tile').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel' }).isVisible()).toBe(false);
    await screenshot(page, '03-project', true);
  });

  it('Optimize shows the running action, then the plan: routes, itineraries, timeline, summary', async () => {
    await page.getByRole('button', { name: 'Optimize' }).click();
    await page.locator('#run-status').getByText('elapsed').waitFor();
    expect(await page.getByRole('button', { name: 'Cancel' }).isVisible()).toBe(true);
    // The bakery's search stops by itself in well under a second on a quiet machine, often before the
    // page's next poll (every 700 ms), so its progress figures are checked on a longer search below
    // ('shows its progress and stops it with Cancel'), not here.
    await screenshot(page, '04-optimizing');

    await page.locator('#plan').waitFor({ state: 'visible', timeout: 30_000 });
    const project = await apiCall(service, KEY_A, 'GET', `/v1.0/project/${bakery.id}`);
    expect(project.json.optimizations).toHaveLength(1);
    planAction = project.json.optimizations[0].actionUuid;
    const action = await apiCall(service, KEY_A, 'GET', `/v2/schedules/${planAction}`);
    expect(action.json.status).toBe('finished');
    plan = action.json.solution;

    // The plan the page shows passes the independent checker.
    const { document } = await validateProblemFile(BAKERY);
    const { problem } = loadProblemDocument(document, { expect: 'project' });
    expect(checkPlan(problem, plan)).toEqual([]);

    expect(await page.getByRole('button', { name: 'Cancel' }).isVisible()).toBe(false);
    expect(await page.locator('.itinerary').count()).toBe(plan.routes.length);
    expect(await page.locator('.pin').count()).toBe(plan.summary.served);
    expect(await page.locator('.legend-list').innerText()).toContain(plan.routes[0]!.vehicle);
    expect(await page.locator('.timeline-row').count()).toBe(plan.routes.length);
    expect(await page.locator('.bar-service').count()).toBe(plan.summary.served);
    const served = page.locator('.figure', { hasText: 'Served' }).locator('dd');
    expect(await served.first().innerText()).toBe(String(plan.summary.served));
    const first = plan.routes[0]!;
    const firstStop = first.visits.find((visit) => visit.kind === 'stop')!;
    expect(await page.locator('.itinerary').first().locator('tbody tr').first().innerText()).toContain(
      `${(firstStop as any).stop}\t${(firstStop as any).arrival}`,
    );
    // A screen reader hears the change of state, not every progress redraw.
    expect(await page.locator('#run-announce').innerText()).toBe(
      `Plan ready: ${plan.summary.served} stops served, ${plan.summary.unserved} unserved.`,
    );
    expect(await page.locator('#history li').count()).toBe(1);
    expect(await page.locator('#history').innerText()).toContain('Planned');
    await screenshot(page, '05-plan');
    await screenshot(page, '06-plan-full', true);
  });

  it('exports the plan JSON, GeoJSON, a CSV per driver and printable sheets', async () => {
    const planJson = JSON.parse(await downloaded(page, page.getByRole('button', { name: 'Plan JSON' })));
    expect(planJson).toEqual(plan);

    const geojson = JSON.parse(await downloaded(page, page.getByRole('button', { name: 'GeoJSON' })));
    expect(geojson).toEqual(buildGeoJson(plan));
    expect(geojson.features.filter((feature: any) => feature.geometry.type === 'LineString')).toHaveLength(plan.routes.length);
    expect(geojson.features.filter((feature: any) => feature.properties.kind === 'stop')).toHaveLength(plan.summary.served);

    for (const route of plan.routes) {
      const csv = await downloaded(page, page.getByRole('button', { name: `CSV for ${route.vehicle}` }));
      // A byte order mark first, so that spreadsheets read the accents as UTF-8.
      expect(csv.startsWith('\uFEFF')).toBe(true);
      const lines = csv.slice(1).trimEnd().split('\r\n');
      expect(lines[0]).toBe('order,stop,address,arrival,start,finish,load after,lateness,phone,notes');
      expect(lines).toHaveLength(1 + route.visits.length);
      const stopRows = lines.slice(1).filter((line) => !line.startsWith(',break,'));
      const stops = route.visits.filter((visit) => visit.kind === 'stop') as any[];
      expect(stopRows.map((line) => line.split(',')[0])).toEqual(stops.map((_, index) => String(index + 1)));
      stopRows.forEach((line, index) =>
        expect(line).toContain(stops[index].stop.includes(',') ? `"${stops[index].stop}"` : stops[index].stop),
      );
    }
    const hospital = plan.routes
      .flatMap((route) => route.visits)
      .find((visit: any) => visit.stop === 'Hôpital Édouard Herriot — cuisine centrale');
    if (hospital) {
      const owner = plan.routes.find((route) => route.visits.includes(hospital))!;
      const csv = await downloaded(page, page.getByRole('button', { name: `CSV for ${owner.vehicle}` }));
      expect(csv).toContain(`"5 place d'Arsonval, 69003 Lyon"`);
      expect(csv).toContain('+33 4 72 11 73 11');
      expect(csv).toContain("Quai de livraison B, sonner à l'interphone");
    }

    // A stop given by coordinates only is found by them.
    const soleil = plan.routes.find((route) => route.visits.some((visit: any) => visit.stop === 'Café du Soleil'))!;
    expect(await downloaded(page, page.getByRole('button', { name: `CSV for ${soleil.vehicle}` }))).toContain(
      'Café du Soleil,"45.75970, 4.82620"',
    );

    const printHref = await page.getByRole('link', { name: 'Print sheets', exact: true }).getAttribute('href');
    expect(printHref).toBe(`/projects/${bakery.id}/print?plan=${planAction}`);
    const sheets = await context.newPage();
    watchForBreakage(sheets);
    await sheets.goto(`${service.url}${printHref}`);
    await sheets.locator('.sheet').first().waitFor();
    expect(await sheets.locator('.sheet').count()).toBe(plan.routes.length);
    expect(await sheets.locator('.sheet h1').allInnerTexts()).toEqual(plan.routes.map((route) => route.vehicle));
    for (const [index, route] of plan.routes.entries()) {
      expect(await sheets.locator('.sheet').nth(index).locator('tbody tr').count()).toBe(route.visits.length);
    }
    await screenshot(sheets, '07-print-sheets', true);
    // Printed, each sheet is a page of its own.
    await sheets.emulateMedia({ media: 'print' });
    await screenshot(sheets, '07-print-sheets-as-printed', true);
    // Printed to PDF: one page per driver (the bakery's sheets are short enough for one page each).
    const pdf = (await sheets.pdf({ format: 'A4' })).toString('latin1');
    expect(pdf.match(/\/Type\s*\/Page(?!s)/g)).toHaveLength(plan.routes.length);
    const breaks = await sheets
      .locator('.sheet')
      .evaluateAll((elements) => elements.map((element) => getComputedStyle(element).breakAfter as string));
    expect(breaks).toEqual(plan.routes.map((_, index) => (index < plan.routes.length - 1 ? 'page' : 'auto')));
    expect(await sheets.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    // One driver's sheet, from the Print link of that driver's itinerary.
    const last = plan.routes[plan.routes.length - 1]!;
    const oneHref = await page.getByRole('link', { name: `Print sheet for ${last.vehicle}` }).getAttribute('href');
    await sheets.emulateMedia({ media: 'screen' });
    await sheets.goto(`${service.url}${oneHref}`);
    await sheets.locator('.sheet').first().waitFor();
    expect(await sheets.locator('.sheet h1').allInnerTexts()).toEqual([last.vehicle]);
    await sheets.close();
  });

  it('refuses a state-changing request without the CSRF token (403), accepts it with the token', async () => {
    const refused = await page.evaluate(async (id) => {
      const response = await fetch(`/v1.0/project/${id}/optimize`, { method: 'POST', credentials: 'same-origin' });
      return { status: response.status, body: (await response.json()) as { error: { code: string } } };
    }, bakery.id);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('csrf_failed');
    const wrongToken = await context.request.post(`${service.url}/v1.0/project/${bakery.id}/optimize`, {
      headers: { 'x-csrf-token': 'forged' },
    });
    expect(wrongToken.status()).toBe(403);
    expect((await apiCall(service, KEY_A, 'GET', `/v1.0/project/${bakery.id}`)).json.optimizations).toHaveLength(1);
    // The same request with the session's token is accepted: the token alone made the difference.
    const accepted = await page.evaluate(async (id) => {
      const session = (await (await fetch('/session')).json()) as { csrfToken: string };
      const response = await fetch(`/v1.0/project/${id}/optimize`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'x-csrf-token': session.csrfToken },
      });
      return response.status;
    }, bakery.id);
    expect(accepted).toBe(202);
    expect((await apiCall(service, KEY_A, 'GET', `/v1.0/project/${bakery.id}`)).json.optimizations).toHaveLength(2);
  });

  it('shows an empty project (no drivers, no stops) without breaking', async () => {
    await page.goto(`${service.url}/projects/${later.json.id}`);
    await page.getByRole('heading', { name: 'Afternoon round', level: 1 }).waitFor();
    expect(await page.locator('#project-meta').innerText()).toContain('0 drivers · 0 stops');
    expect(await page.locator('#stops tbody tr').count()).toBe(0);
    expect(await page.locator('#run-status').innerText()).toContain('Not optimized yet');
  });

  it('shows names as text, never as markup (tables, map tooltips, plan)', async () => {
    const markup = '<img id="injected" src="/nothing.png">';
    const created = await apiCall(service, KEY_A, 'POST', '/v1.0/project', {
      name: '<i id="italic">Markup</i> & co',
      date: '2024-05-14',
      drivers: [{ name: '<b id="bold">Driver</b>', start_location: { coords: { lat: 45.76, lng: 4.83 } }, shift_start: '08:00' }],
      stops: [{ name: markup, location: { coords: { lat: 45.77, lng: 4.84 } }, duration: 5, phone_number: '+33 1 23 45 67 89' }],
    });
    expect(created.status).toBe(201);
    await page.goto(`${service.url}/projects/${created.json.id}`);
    await page.getByRole('heading', { name: '<i id="italic">Markup</i> & co', level: 1 }).waitFor();
    await page.locator('path.stop-dot').first().hover();
    await page.locator('.leaflet-tooltip', { hasText: markup }).waitFor();
    await page.getByRole('button', { name: 'Optimize' }).click();
    await page.locator('#plan').waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.pin').first().hover();
    // The pin's tooltip and its route's may both be open, and both name the stop: either shows it as text.
    await page.locator('.leaflet-tooltip', { hasText: markup }).first().waitFor();
    expect(await page.locator('.itinerary').innerText()).toContain(markup);
    expect(await page.locator('.legend-list').innerText()).toContain('<b id="bold">Driver</b>');
    expect(await page.locator('#injected, #italic, #bold').count()).toBe(0);
  });

  it('answers another key’s project with 404, in the browser and in the API', async () => {
    const response = await page.goto(`${service.url}/projects/${otherOwnersProject}`);
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Project not found' }).waitFor();
    await screenshot(page, '08-not-found');
    const withCookie = await context.request.get(`${service.url}/v1.0/project/${otherOwnersProject}`);
    expect(withCookie.status()).toBe(404);
    expect((await apiCall(service, KEY_A, 'GET', `/v1.0/project/${otherOwnersProject}`)).status).toBe(404);
    expect((await apiCall(service, KEY_B, 'GET', `/v1.0/project/${otherOwnersProject}`)).status).toBe(200);
  });

  it('keeps every optimization: the latest is shown, an earlier one opens from the list', async () => {
    const project = await apiCall(service, KEY_A, 'GET', `/v1.0/project/${bakery.id}`);
    const [latest, earlier] = project.json.optimizations;
    expect(earlier.actionUuid).toBe(planAction);
    await page.goto(bakery.url);
    const printLink = page.getByRole('link', { name: 'Print sheets', exact: true });
    await expect.poll(() => printLink.getAttribute('href').catch(() => null), { timeout: 30_000 }).toContain(latest.actionUuid);
    expect(await page.locator('#history li').count()).toBe(2);
    await page.locator('#history li').nth(1).getByRole('button').click();
    await expect.poll(() => printLink.getAttribute('href')).toContain(planAction);
    expect(await page.locator('#history li').nth(1).getAttribute('class')).toContain('current');
    expect(await page.locator('.pin').count()).toBe(plan.summary.served);
  });

  it('reaches Optimize by keyboard in a few steps (map markers are no tab stops), with a visible focus ring', async () => {
    await page.goto(bakery.url);
    await page.locator('#history li').first().waitFor();
    let focused = '';
    for (let presses = 0; presses < 15 && focused !== 'Optimize'; presses++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    }
    expect(focused).toBe('Optimize');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    expect(outline).not.toBe('none');
  });

  it('fits a phone’s screen: nothing wider than the viewport but the tables and the timeline, which scroll', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(bakery.url);
    await page.locator('#plan').waitFor({ state: 'visible', timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth as number)).toBeLessThanOrEqual(390);
    await screenshot(page, '12-phone');
    await page.setViewportSize({ width: 1360, height: 900 });
  });

  it('ran without a script error, a CSP refusal or a missing asset on any page', () => {
    expect(breakage).toEqual([]);
  });

  it('signs out: the session ends, the page asks for the key again and, signed in, returns to the project', async () => {
    await page.goto(`${service.url}/`);
    // The list now shows the bakery's latest plan.
    const row = page.getByRole('row').filter({ hasText: 'Boulangerie Saint-Jean' });
    await row.getByText('Planned').waitFor();
    await screenshot(page, '13-projects-planned');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    const after = await context.request.get(`${service.url}/session`);
    expect(after.status()).toBe(401);
    const redirected = await page.goto(bakery.url);
    expect(new URL(redirected!.url()).pathname).toBe('/');
    await page.getByLabel('API key').waitFor();
    // Signing in from there comes back to the project.
    await page.getByLabel('API key').fill(KEY_A);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(bakery.url);
    await page.getByRole('heading', { name: 'Boulangerie Saint-Jean — tournée du matin', level: 1 }).waitFor();
  });
});

describe('a long optimization in Chromium', () => {
  let long: WebService;

  afterAll(async () => {
    await long?.stop();
  });

  it('shows its progress and stops it with Cancel (failed, code cancelled)', async () => {
    long = await startWebService([KEY_A], 120_000);
    const created = await apiCall(long, KEY_A, 'POST', '/v1.0/project', generateProject(11, { stops: 500 }));
    expect(created.status).toBe(201);
    const tab = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(tab, long.url, KEY_A);
    await tab.goto(`${long.url}/projects/${created.json.id}`);
    await tab.getByRole('button', { name: 'Optimize' }).click();
    await tab.locator('#run-status').getByText('Served', { exact: true }).waitFor({ timeout: 30_000 });
    // The bar is an upper bound: the search may end sooner, and the page says so.
    expect(await tab.locator('#run-status').innerText()).toContain('Ends by 120 s at the latest, sooner once the plan stops improving.');
    await screenshot(tab, '09-long-optimizing');
    await tab.getByRole('button', { name: 'Cancel' }).click();
    await tab.locator('#run-error').getByText('Cancelled.').waitFor();
    expect(await tab.locator('#run-announce').textContent()).toBe('Optimization cancelled.');
    expect(await tab.getByRole('button', { name: 'Cancel' }).isVisible()).toBe(false);
    const project = await apiCall(long, KEY_A, 'GET', `/v1.0/project/${created.json.id}`);
    const action = await apiCall(long, KEY_A, 'GET', `/v2/schedules/${project.json.optimizations[0].actionUuid}`);
    expect(action.json.status).toBe('failed');
    expect(action.json.error.code).toBe('cancelled');
    await expect.poll(() => tab.locator('#history').innerText()).toContain('Failed');
    await screenshot(tab, '10-cancelled');
    await tab.context().close();
  }, 120_000);
});

describe('the map with tiles configured (--tiles)', () => {
  let tiled: WebService;
  let tileServer: Server;
  const tileRequests: string[] = [];

  afterAll(async () => {
    await tiled?.stop();
    await new Promise((resolve) => tileServer?.close(resolve));
  });

  it('draws the operator’s tiles with their attribution', async () => {
    // A stand-in tile server on its own origin: every tile is the same small PNG.
    const png = await readFile(join(ROOT, 'node_modules/leaflet/dist/images/layers.png'));
    tileServer = createServer((request, response) => {
      tileRequests.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    await new Promise<void>((resolve) => tileServer.listen(0, '127.0.0.1', resolve));
    const { port } = tileServer.address() as AddressInfo;
    tiled = await startWebService([KEY_A], 2_000, {
      tiles: { kind: 'raster', url: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`, attribution: '© Test tiles' },
    });
    const { document } = await validateProblemFile(BAKERY);
    const created = await apiCall(tiled, KEY_A, 'POST', '/v1.0/project', document);
    const tab = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(tab, tiled.url, KEY_A);
    await tab.goto(`${tiled.url}/projects/${created.json.id}`);
    await tab.locator('.leaflet-control-attribution', { hasText: '© Test tiles' }).waitFor();
    await expect.poll(() => tab.locator('img.leaflet-tile-loaded').count()).toBeGreaterThan(0);
    expect(tileRequests.some((url) => /^\/\d+\/\d+\/\d+\.png$/.test(url))).toBe(true);
    await screenshot(tab, '11-tiles');
    await tab.context().close();
  });
});

/** Clicks `trigger`, waits for the download it starts and returns the file's text. */
async function downloaded(page: Page, trigger: ReturnType<Page['getByRole']>): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), trigger.click()]);
  const path = await download.path();
  return readFile(path, 'utf8');
}
