/**
 * Re-optimizing a dispatched day in real Chromium against the real service, its clock fixed at
 * 06:45 in Lyon on the bakery's date: Optimize → Dispatch → two stops marked done on a driver's
 * phone → a stop added through the API → Re-optimize (the same progress as Optimize) → the done
 * stops first in their route, same driver, same reported times; the new stop served → Re-dispatch →
 * the driver page under the same link shows the new route. axe-core finds no WCAG 2.1 A/AA
 * violation on the Dispatch card with the button. Screenshots results/web/reoptimize-*.png.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../server/built.js';
import { SHOTS, apiCall, launchChromium, signIn, startWebService, type WebService } from './browser.js';

declare const axe: any;
declare const document: any;

const KEY = 'reoptimize-test-key-0123456789';
/** 06:45 in Lyon (UTC+2 in May) on the bakery's date, the drivers on their way. */
const NOW = new Date('2024-05-14T04:45:00Z');

let browser: Browser;
let service: WebService;
let context: BrowserContext;
let page: Page;
let projectId: string;
const breakage: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  service = await startWebService([KEY], 2_000, { now: () => NOW });
  // bypassCSP: the page's policy allows its own scripts only; axe-core is injected for the checks.
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  page = await context.newPage();
  page.on('pageerror', (error) => breakage.push(`script error: ${error.message}`));
  const bakery = parse(await readFile(join(ROOT, 'fixtures/bakery.yaml'), 'utf8')) as Record<string, any>;
  const created = await apiCall(service, KEY, 'POST', '/v1.0/project', {
    ...bakery,
    settings: { ...bakery.settings, time_zone: 'Europe/Paris' },
  });
  expect(created.status).toBe(201);
  projectId = created.json.id;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const api = async (method: string, path: string, body?: unknown): Promise<any> => (await apiCall(service, KEY, method, path, body)).json;
const stopsOf = (route: any): any[] => route.visits.filter((visit: any) => visit.kind === 'stop');

async function axeViolations(target: Page, selector: string): Promise<string[]> {
  await target.addScriptTag({ path: join(ROOT, 'node_modules/axe-core/axe.min.js') });
  const results = await target.evaluate(
    async (within) =>
      axe.run(document.querySelector(within), { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }),
    selector,
  );
  return results.violations.map((violation: any) => `${violation.id}: ${violation.help} (${violation.nodes.length})`);
}

describe('Re-optimize a dispatched day on the project page', () => {
  let before: any;
  let doneIds: string[];
  let driverUrl: string;

  it('dispatches, and two stops are marked done on a driver’s phone', async () => {
    await signIn(page, service.url, KEY);
    await page.goto(`${service.url}/projects/${projectId}`);
    await page.getByRole('button', { name: 'Optimize', exact: true }).click();
    await page.locator('#plan').waitFor({ state: 'visible', timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Re-optimize', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Dispatch' }).click();
    await page.getByRole('button', { name: 'Confirm dispatch' }).click();
    await page.getByRole('button', { name: 'Re-optimize', exact: true }).waitFor();

    before = await api('GET', `/v1.0/project/${projectId}/dispatch`);
    const driver = before.drivers.find(
      (candidate: any) => before.stops.filter((stop: any) => stop.driver_id === candidate.driver_id).length >= 3,
    );
    driverUrl = driver.url;
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const driverPage = await phone.newPage();
    await driverPage.goto(driverUrl);
    const cards = driverPage.locator('section.stop-card');
    await cards.first().getByRole('button', { name: 'Done' }).click();
    await cards.first().getByRole('button', { name: 'Mark done' }).click();
    await driverPage.locator('#waiting').waitFor({ state: 'hidden' });
    await cards.nth(1).getByRole('button', { name: 'Done' }).click();
    await cards.nth(1).getByRole('button', { name: 'Mark done' }).click();
    await driverPage.locator('#waiting').waitFor({ state: 'hidden' });
    await phone.close();
    const reported = await api('GET', `/v1.0/project/${projectId}/dispatch`);
    doneIds = reported.stops.filter((stop: any) => stop.status === 'done').map((stop: any) => stop.stop_id);
    expect(doneIds).toHaveLength(2);
    before = reported;
  });

  it('re-plans the rest of the day around what is done, with the new stop, and the driver page shows it', async () => {
    const added = await apiCall(service, KEY, 'POST', `/v1.0/project/${projectId}/stops`, {
      name: 'Urgent order — Place Bellecour',
      location: { coords: { lat: 45.7578, lng: 4.832 } },
      duration: 5,
      load: 2,
    });
    expect(added.status).toBeLessThan(300);
    await page.reload();
    const button = page.getByRole('button', { name: 'Re-optimize', exact: true });
    await button.waitFor();
    expect(await axeViolations(page, '#dispatch')).toEqual([]);
    await page.locator('#dispatch').screenshot({ path: join(SHOTS, 'reoptimize-button.png') });

    await button.click();
    await page.getByText('The re-optimized plan is shown', { exact: false }).waitFor({ timeout: 30_000 });
    await page.locator('.workspace').screenshot({ path: join(SHOTS, 'reoptimize-desktop.png') });
    const project = await api('GET', `/v1.0/project/${projectId}`);
    expect(project.optimizations[0].kind).toBe('reoptimized');
    const plan = (await api('GET', `/v2/schedules/${project.optimizations[0].actionUuid}`)).solution;
    const idOf = (visit: any): string => project.stops[visit.stop_index].id;

    // The done stops: first in their driver's route, in order, with the times dispatched and reported.
    const dispatchedPlan = await api('GET', `/v1.0/project/${projectId}/dispatch/solution`);
    const doneRoute = plan.routes.find((route: any) => doneIds.includes(idOf(stopsOf(route)[0])));
    const dispatchedRoute = dispatchedPlan.routes.find((route: any) => route.vehicle === doneRoute.vehicle);
    for (const [i, visit] of stopsOf(doneRoute).slice(0, 2).entries()) {
      const reported = before.stops.find((stop: any) => stop.stop_id === idOf(visit));
      expect(idOf(visit)).toBe(doneIds[i]);
      expect(visit).toMatchObject({ status: 'done', reported_at: reported.at, start_s: stopsOf(dispatchedRoute)[i].start_s });
    }
    // Nothing after them starts before now (06:45).
    for (const visit of stopsOf(doneRoute).slice(2)) expect(visit.start_s).toBeGreaterThanOrEqual(6 * 3600 + 45 * 60);
    const newStop = project.stops.find((stop: any) => stop.name === 'Urgent order — Place Bellecour');
    const newRoute = plan.routes.find((route: any) => stopsOf(route).some((visit: any) => idOf(visit) === newStop.id));
    expect(newRoute).toBeDefined();
    // The itinerary says which stops are done.
    const itinerary = page.locator('#itineraries table', { has: page.getByText(`Itinerary of ${doneRoute.vehicle}`) });
    expect(await itinerary.locator('tbody tr').nth(0).innerText()).toContain('Done');
    await page
      .locator('#itineraries article, #itineraries section, #itineraries > *')
      .first()
      .screenshot({ path: join(SHOTS, 'reoptimize-itinerary.png') });

    // Re-dispatch with one press (and its confirm); the links stay; the driver page shows the new route.
    await page.getByRole('button', { name: 'Re-dispatch' }).click();
    await page.getByRole('button', { name: 'Confirm re-dispatch' }).click();
    await expect
      .poll(async () => (await api('GET', `/v1.0/project/${projectId}/dispatch`)).actionUuid)
      .toBe(plan && project.optimizations[0].actionUuid);
    const after = await api('GET', `/v1.0/project/${projectId}/dispatch`);
    expect(after.drivers.map((driver: any) => driver.url)).toEqual(before.drivers.map((driver: any) => driver.url));
    for (const id of doneIds) {
      const was = before.stops.find((stop: any) => stop.stop_id === id);
      expect(after.stops.find((stop: any) => stop.stop_id === id)).toMatchObject({ status: 'done', at: was.at, driver_id: was.driver_id });
    }
    const newDriver = project.drivers[newRoute.vehicle_index];
    const newDriverUrl = after.drivers.find((driver: any) => driver.driver_id === newDriver.id).url;
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const driverPage = await phone.newPage();
    await driverPage.goto(newDriverUrl);
    await driverPage.getByText('Urgent order — Place Bellecour').first().waitFor();
    await driverPage.screenshot({ path: join(SHOTS, 'reoptimize-driver-phone.png'), fullPage: true });
    const doneDriverPage = await phone.newPage();
    await doneDriverPage.goto(driverUrl);
    const cards = doneDriverPage.locator('section.stop-card');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(stopsOf(doneRoute).length);
    await phone.close();
    expect(breakage).toEqual([]);
  });

  it('shows the Dispatch card with Re-optimize on a phone', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const small = await phone.newPage();
    await signIn(small, service.url, KEY);
    await small.goto(`${service.url}/projects/${projectId}`);
    await small.getByRole('button', { name: 'Re-optimize', exact: true }).waitFor();
    await small.locator('#dispatch').scrollIntoViewIfNeeded();
    await small.locator('#dispatch').screenshot({ path: join(SHOTS, 'reoptimize-phone.png') });
    expect(await axeViolations(small, '#dispatch')).toEqual([]);
    await phone.close();
  });
});
