/**
 * The driver page in real Chromium on a phone-sized screen, against the real service: the route in
 * the dispatched order with times, call and navigation links and notes; Done, Failed with a reason
 * and Undo reaching the dispatcher; a report made offline sent once back online; a withdrawn link
 * and another driver's stop refused. Screenshot results/web/driver-page-phone.png.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, launchChromium, screenshot, startWebService, type WebService } from './browser.js';

declare const document: any;

const KEY = 'driver-test-key-0123456789';

let browser: Browser;
let service: WebService;
let phone: BrowserContext;
let page: Page;
let projectId: string;
let dispatch: any;
let plan: any;
let project: any;
const breakage: string[] = [];

function place(name: string, lat: number, lng: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, location: { address: `${name}, 12 rue de la République, Lyon`, coords: { lat, lng } }, duration: 10, load: 1, ...extra };
}

const DOCUMENT = {
  name: 'Tuesday rounds',
  date: '2026-11-24',
  drivers: [
    {
      name: 'Camille',
      start_location: { coords: { lat: 45.76, lng: 4.83 } },
      shift_start: '07:00',
      shift_end: '12:00',
      capacity: 3,
      phone_number: '+33 6 12 34 56 78',
    },
    { name: 'Lucas', start_location: { coords: { lat: 45.76, lng: 4.83 } }, shift_start: '07:00', shift_end: '12:00', capacity: 3 },
  ],
  stops: [
    place('Boulangerie Nord', 45.79, 4.83, {
      phone_number: '+33 4 72 00 00 01',
      notes: 'Side door, ring twice',
      custom_notes: { code: '4521B', crates: 3 },
    }),
    place('Café du Parc', 45.78, 4.85),
    place('Hôtel Royal', 45.8, 4.84, { email: 'reception@royal.example' }),
    place('Épicerie Sud', 45.73, 4.83),
    place('Cantine Gerland', 45.72, 4.84),
    place('Bistro Confluence', 45.74, 4.82),
  ],
  settings: {},
};

function routeOf(name: string): any {
  return plan.routes.find((route: any) => route.vehicle === name);
}

function linkOf(name: string): string {
  return dispatch.drivers.find((driver: any) => driver.driver_name === name).url;
}

function stopIdOf(name: string): string {
  return project.stops.find((stop: any) => stop.name === name).id;
}

async function reports(): Promise<Map<string, any>> {
  const view = (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}/dispatch`)).json;
  return new Map(view.stops.map((stop: any) => [stop.stop_id, stop]));
}

beforeAll(async () => {
  browser = await launchChromium();
  service = await startWebService([KEY], 1_000);
  const created = await apiCall(service, KEY, 'POST', '/v1.0/project', DOCUMENT);
  projectId = created.json.id;
  project = created.json;
  const started = await apiCall(service, KEY, 'POST', `/v1.0/project/${projectId}/optimize`);
  for (;;) {
    const action = await apiCall(service, KEY, 'GET', `/v2/schedules/${started.json.actionUuid}`);
    if (action.json.status !== 'pending') {
      plan = action.json.solution;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  dispatch = (await apiCall(service, KEY, 'POST', `/v1.0/project/${projectId}/dispatch`, {})).json;
  phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  page = await phone.newPage();
  page.on('pageerror', (error) => breakage.push(error.message));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe('the driver page on a phone', () => {
  it('shows the route in the dispatched order with planned times, address, call and navigation links, notes', async () => {
    expect(plan.summary.served).toBe(6);
    const route = routeOf('Camille');
    await page.goto(linkOf('Camille'));
    await page.getByRole('heading', { name: 'Camille’s route', level: 1 }).waitFor();
    const visits = route.visits.filter((visit: any) => visit.kind === 'stop');
    const cards = page.locator('section.stop-card');
    expect(await cards.count()).toBe(visits.length);
    for (const [index, visit] of visits.entries()) {
      const card = page.getByRole('region', { name: `Stop ${index + 1}: ${visit.stop}` });
      expect(await card.locator('.stop-time').innerText()).toBe(visit.arrival);
      expect(await card.locator('.address').innerText()).toBe(`${visit.stop}, 12 rue de la République, Lyon`);
      const geo = await card.getByRole('link', { name: 'Navigate' }).getAttribute('href');
      expect(geo).toBe(
        `geo:${visit.location.lat},${visit.location.lng}?q=${visit.location.lat},${visit.location.lng}(${encodeURIComponent(visit.stop)})`,
      );
      expect(await card.getByRole('link', { name: 'OpenStreetMap' }).getAttribute('href')).toContain(
        `mlat=${visit.location.lat}&mlon=${visit.location.lng}`,
      );
    }
    expect(await page.locator('#progress').innerText()).toBe(`0 of ${visits.length} stops done`);
    // Lucas's stops are not on Camille's page.
    const lucas = routeOf('Lucas')
      .visits.filter((visit: any) => visit.kind === 'stop')
      .map((visit: any) => visit.stop);
    for (const name of lucas) expect(await page.getByText(name, { exact: true }).count()).toBe(0);
  });

  it('has tap-to-call for the customer, the notes and the custom notes as a table, and fits 360 px without sideways scrolling', async () => {
    const driver = (await page.getByText('Boulangerie Nord', { exact: true }).count()) > 0 ? 'Camille' : 'Lucas';
    if (driver === 'Lucas') await page.goto(linkOf('Lucas'));
    const card = page.locator('section.stop-card', { hasText: 'Boulangerie Nord' });
    expect(await card.getByRole('link', { name: 'Call +33 4 72 00 00 01' }).getAttribute('href')).toBe('tel:+33472000001');
    expect(await card.locator('.notes').innerText()).toBe('Side door, ring twice');
    expect(await card.locator('.custom-notes tr').allInnerTexts()).toEqual(['code\t4521B', 'crates\t3']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const box = await card.getByRole('button', { name: 'Done' }).boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    await page.goto(linkOf('Camille'));
    await page.getByRole('heading', { name: 'Camille’s route' }).waitFor();
  });

  it('marks a stop Done and another Failed with a reason; the dispatcher sees both; Undo takes a report back', async () => {
    const visits = routeOf('Camille').visits.filter((visit: any) => visit.kind === 'stop');
    const first = page.getByRole('region', { name: `Stop 1: ${visits[0].stop}` });
    const second = page.getByRole('region', { name: `Stop 2: ${visits[1].stop}` });
    await first.getByRole('button', { name: 'Done' }).click();
    await first.getByRole('button', { name: 'Mark done' }).click();
    await first.getByText('Done', { exact: true }).waitFor();
    await second.getByRole('button', { name: 'Failed' }).click();
    await second.getByRole('button', { name: 'Save' }).click();
    expect(await second.getByRole('radio', { name: 'Other' }).isVisible()).toBe(true); // a reason is required
    await second.getByRole('radio', { name: 'Other' }).check();
    await second.getByRole('button', { name: 'Save' }).click();
    expect(await second.getByLabel('Details').isVisible()).toBe(true); // "Other" needs the text
    await second.getByLabel('Details').fill('Closed, nobody answered');
    await second.getByRole('button', { name: 'Save' }).click();
    await second.getByText(/Failed at \d\d:\d\d: Closed, nobody answered/).waitFor();
    expect(await page.locator('#progress').innerText()).toBe(`1 of ${visits.length} stops done · 1 failed`);
    await expect.poll(async () => (await reports()).get(stopIdOf(visits[0].stop))?.status).toBe('done');
    const failed = (await reports()).get(stopIdOf(visits[1].stop));
    expect([failed.status, failed.reason_code, failed.reason]).toEqual(['failed', 'other', 'Closed, nobody answered']);
    await screenshot(page, 'driver-page-phone', true);

    await second.getByRole('button', { name: 'Undo' }).click();
    await second.getByRole('button', { name: 'Failed' }).waitFor();
    await expect.poll(async () => (await reports()).get(stopIdOf(visits[1].stop))?.status).toBe('planned');
  });

  it('keeps a report made offline on the phone, says so, and sends it with its tap time once back online', async () => {
    const visits = routeOf('Camille').visits.filter((visit: any) => visit.kind === 'stop');
    const third = page.getByRole('region', { name: `Stop 3: ${visits[2].stop}` });
    await phone.setOffline(true);
    const tappedAfter = Date.now();
    await third.getByRole('button', { name: 'Done' }).click();
    await third.getByRole('button', { name: 'Mark done' }).click();
    await page.getByText('Waiting for network: 1 change not sent yet.').waitFor();
    expect((await reports()).get(stopIdOf(visits[2].stop)).status).toBe('planned');
    await page.reload().catch(() => undefined); // offline reload fails: the report must survive in storage
    await phone.setOffline(false);
    await page.goto(linkOf('Camille'));
    await expect.poll(async () => (await reports()).get(stopIdOf(visits[2].stop))?.status, { timeout: 20_000 }).toBe('done');
    const at = Date.parse((await reports()).get(stopIdOf(visits[2].stop)).at);
    expect(at).toBeGreaterThanOrEqual(tappedAfter - 1_000);
    await expect.poll(() => page.locator('#waiting').isVisible()).toBe(false);
  });

  it('refuses a withdrawn link with a clear message, and never shows another driver’s stop', async () => {
    const lucasStop = routeOf('Lucas').visits.find((visit: any) => visit.kind === 'stop');
    const crossed = await fetch(`${linkOf('Camille')}/stops/${stopIdOf(lucasStop.stop)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'done' }),
    });
    expect(crossed.status).toBe(404);
    const lucas = dispatch.drivers.find((driver: any) => driver.driver_name === 'Lucas');
    await apiCall(service, KEY, 'POST', `/v1.0/project/${projectId}/dispatch/drivers/${lucas.driver_id}/revoke`);
    const response = await page.goto(lucas.url);
    expect(response!.status()).toBe(410);
    await page.getByText('This link was withdrawn by your dispatcher. Ask them for a new one.').waitFor();
    await page.goto(`${service.url}/drivers/not-a-real-token-0000000000000000`);
    await page.getByText('This link is not valid.', { exact: false }).waitFor();
    expect(breakage).toEqual([]);
  });
});
