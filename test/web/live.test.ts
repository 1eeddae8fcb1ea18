/**
 * The live day in real Chromium against the real service (decisions.md, "The live day"): the driver
 * shares their location (playwright's geolocation permission and position), the project page shows
 * it with its age; Done tapped 40 minutes after the first stop's planned finish re-times the rest,
 * the project page flags the stop whose window it passes Late and counts it for the driver, and the
 * driver page shows the new times. axe-core finds no WCAG 2.1 A/AA violation on either page.
 * Screenshots results/web/live-*.png at desktop and phone sizes.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../server/built.js';
import { apiCall, launchChromium, screenshot, signIn, startWebService, type WebService } from './browser.js';
import { clock, liveDay } from './live-clock.js';

const KEY = 'live-test-key-0123456789';
const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');
const DEPOT = { lat: 45.7578, lng: 4.832 };
const PHONE = { width: 390, height: 844 };

declare const axe: { run: (context: unknown, options: unknown) => Promise<{ violations: any[] }> };
declare const document: unknown;

/** The project's day is now, and its shift started 50 minutes ago: the first stop (at the depot, 10 min) was due to end 40 minutes ago. */
const DAY = liveDay(50);
const DATE = DAY.date;
const SHIFT_START_S = DAY.shiftStartS;

function stop(name: string, sequence: number, lat: number, lng: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, location: { coords: { lat, lng } }, duration: 10, driver: 'Camille', sequence, ...extra };
}

const DOCUMENT = {
  name: 'Live rounds',
  date: DATE,
  settings: { time_zone: DAY.timeZone, strict_start: true },
  drivers: [{ name: 'Camille', start_location: { coords: DEPOT }, shift_start: clock(SHIFT_START_S), shift_end: '23:59' }],
  stops: [
    stop('Halles depot counter', 1, DEPOT.lat, DEPOT.lng),
    stop('Café Bellecour', 2, 45.7578, 4.842, { start: clock(SHIFT_START_S), end: clock(SHIFT_START_S + 3600) }),
    stop('Boulangerie Ainay', 3, 45.7518, 4.828),
  ],
};

let browser: Browser;
let service: WebService;
let phone: BrowserContext;
let desk: BrowserContext;
let driverPage: Page;
let projectPage: Page;
let projectId: string;
let driverUrl: string;
const breakage: string[] = [];

async function violations(checked: Page): Promise<string[]> {
  await checked.addScriptTag({ path: AXE });
  const found = await checked.evaluate(async () => {
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
  return found;
}

async function dispatchView(): Promise<any> {
  return (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}/dispatch`)).json;
}

beforeAll(async () => {
  expect(SHIFT_START_S).toBeGreaterThan(0);
  browser = await launchChromium();
  service = await startWebService([KEY], 1_000);
  const created = await apiCall(service, KEY, 'POST', '/v1.0/project', DOCUMENT);
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  projectId = created.json.id;
  const started = await apiCall(service, KEY, 'POST', `/v1.0/project/${projectId}/optimize`);
  for (;;) {
    const action = await apiCall(service, KEY, 'GET', `/v2/schedules/${started.json.actionUuid}`);
    if (action.json.status !== 'pending') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const dispatched = (await apiCall(service, KEY, 'POST', `/v1.0/project/${projectId}/dispatch`, {})).json;
  expect(dispatched.stops).toHaveLength(3);
  driverUrl = dispatched.drivers[0].url;
  phone = await browser.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    bypassCSP: true,
  });
  await phone.grantPermissions(['geolocation'], { origin: service.url });
  driverPage = await phone.newPage();
  desk = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  projectPage = await desk.newPage();
  for (const page of [driverPage, projectPage]) page.on('pageerror', (error) => breakage.push(error.message));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe('the live day', () => {
  it('the driver shares their location: the service keeps it, the project page shows it with its age', async () => {
    await driverPage.goto(driverUrl);
    await driverPage.getByRole('heading', { name: 'Camille’s route' }).waitFor();
    expect(await driverPage.locator('#share').innerText()).toContain('Nothing is shared with customers');
    // The phone is at the depot, 12 m accurate.
    await phone.setGeolocation({ latitude: DEPOT.lat, longitude: DEPOT.lng, accuracy: 12 });
    await driverPage.getByRole('button', { name: 'Share location' }).click();
    await driverPage.getByRole('button', { name: 'Stop sharing' }).waitFor();
    await expect
      .poll(async () => (await dispatchView()).drivers[0].position, { timeout: 15_000 })
      .toMatchObject({ ...DEPOT, accuracy_m: 12 });

    await signIn(projectPage, service.url, KEY);
    await projectPage.goto(`${service.url}/projects/${projectId}`);
    const links = projectPage.locator('.driver-links');
    await links.getByText('Last seen just now at 45.75780, 4.83200 (±12 m)').waitFor();
    expect(breakage).toEqual([]);
  });

  it('remembers the choice for this link: sharing is on again after a reload', async () => {
    await driverPage.reload();
    await driverPage.getByRole('button', { name: 'Stop sharing' }).waitFor();
  });

  it('Done 40 min after the first stop’s planned finish re-times the rest: Late on the project page, new times on the driver page', async () => {
    const before = await dispatchView();
    const [first, second, third] = before.stops;
    const firstCard = driverPage.getByRole('region', { name: 'Stop 1: Halles depot counter' });
    await firstCard.getByRole('button', { name: 'Done' }).click();
    await firstCard.getByRole('button', { name: 'Mark done' }).click();
    await expect.poll(async () => (await dispatchView()).stops[0].status, { timeout: 15_000 }).toBe('done');
    const after = await dispatchView();
    // Plan times count whole seconds of the wall clock.
    const tapped = Math.floor((Date.parse(after.stops[0].at) - DAY.midnightMs) / 1000);
    const delay = tapped - (first.arrival_s + 600);
    // 40 min, and the seconds this test took to get here on a busy machine.
    expect(delay).toBeGreaterThanOrEqual(2400);
    expect(delay).toBeLessThan(2400 + 300);
    expect(after.stops[1]).toMatchObject({ eta_s: second.arrival_s + delay, late: true });
    expect(after.stops[2]).toMatchObject({ eta_s: third.arrival_s + delay, late: false });

    const row = projectPage.locator(`#dispatch-stops-table tr[data-stop-id="${second.stop_id}"]`);
    const minutes = Math.round(delay / 60);
    // The page polls the project: the estimate from the position shared earlier gives way to the one from Done.
    await expect.poll(() => row.innerText(), { timeout: 15_000 }).toContain(`(${minutes} min later) ⚠ Late`);
    expect(await projectPage.locator(`#dispatch-stops-table tr[data-stop-id="${third.stop_id}"]`).innerText()).not.toContain('Late');
    expect(await projectPage.locator('.driver-links').innerText()).toContain('1 late');

    const card = driverPage.getByRole('region', { name: 'Stop 2: Café Bellecour' });
    await card.getByText(`Now expected`).waitFor({ timeout: 15_000 });
    expect(await card.locator('.stop-eta').innerText()).toContain(`(${minutes} min later)`);
    expect(breakage).toEqual([]);
  });

  it('both pages have no WCAG 2.1 A/AA violations; screenshots at desktop and phone sizes', async () => {
    expect(await violations(driverPage)).toEqual([]);
    await projectPage.locator('#dispatch-stops').scrollIntoViewIfNeeded();
    expect(await violations(projectPage)).toEqual([]);
    await screenshot(driverPage, 'live-driver-phone', true);
    await screenshot(projectPage, 'live-project-desktop');
    await projectPage.locator('#dispatch').screenshot({ path: join(ROOT, 'results/web/live-dispatch-card.png') });
    await projectPage.locator('#dispatch-stops').screenshot({ path: join(ROOT, 'results/web/live-stops-table.png') });
    await projectPage.setViewportSize(PHONE);
    await projectPage.locator('#dispatch-stops').scrollIntoViewIfNeeded();
    await screenshot(projectPage, 'live-project-phone');
    await driverPage.setViewportSize({ width: 1280, height: 800 });
    await screenshot(driverPage, 'live-driver-desktop');
  });
});
