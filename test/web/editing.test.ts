/**
 * Editing a project in its page (issue 24; decisions.md, "Editing a project and re-planning the
 * day"), in real Chromium against the real service and solver: a stop's window edited → Optimize →
 * the plan respects it and passes the checker; a bad value → the service's message next to its
 * field; two pages on one stop → the second gets the conflict view, re-applies, both changes kept;
 * delete with a confirm step; an ambiguous address fixed by picking a candidate and one not found
 * by clicking the map, neither geocoded again (a fake Nominatim counts the requests); axe-core
 * finds no WCAG 2.1 A/AA violation with the editor open.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';
import { fakeNominatim, type FakeNominatim } from '../support/fake-nominatim.js';
import { ROOT } from '../server/built.js';
import { apiCall, launchChromium, screenshot, signIn, startWebService, type WebService } from './browser.js';

const KEY = 'editing-web-key-0123456789';
const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');
let browser: Browser;
let service: WebService;
let nominatim: FakeNominatim;
let cacheDir: string;

const ROUNDS = {
  name: 'Morning rounds',
  date: '2026-11-24',
  drivers: [{ name: 'Ana', start_location: { coords: { lat: 45.742, lng: 4.818 } }, shift_start: '08:00', shift_end: '13:00' }],
  stops: [
    { name: 'Mairie', location: { coords: { lat: 45.767, lng: 4.836 } }, duration: 5 },
    { name: 'Opéra', location: { coords: { lat: 45.768, lng: 4.836 } }, duration: 5 },
    { name: 'Bellecour', location: { coords: { lat: 45.757, lng: 4.832 } }, duration: 5 },
  ],
};

/** "rue centrale" has two candidates 40 km apart (ambiguous); "impasse inconnue" none (not found). */
const PLACES: Record<string, [number, number, string][]> = {
  'dépôt, quai rambaud, lyon': [[45.742, 4.818, 'Quai Rambaud, Lyon']],
  'rue centrale': [
    [45.7606, 4.8358, 'Rue Centrale, Lyon'],
    [45.4397, 4.3872, 'Rue Centrale, Saint-Étienne'],
  ],
};

beforeAll(async () => {
  browser = await launchChromium();
  nominatim = await fakeNominatim(PLACES);
  cacheDir = await mkdtemp(join(tmpdir(), 'routeplan-web-edit-cache-'));
  service = await startWebService([KEY], 1_000, { geocoder: { name: 'nominatim', url: nominatim.url, version: 'test', cacheDir } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await nominatim?.close();
  await rm(cacheDir, { recursive: true, force: true });
});

async function created(document: unknown): Promise<any> {
  const reply = await apiCall(service, KEY, 'POST', '/v1.0/project', document);
  expect(reply.status).toBe(201);
  return reply.json;
}

async function current(id: string): Promise<any> {
  return (await apiCall(service, KEY, 'GET', `/v1.0/project/${id}`)).json;
}

async function projectPage(id: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  // The page's CSP allows its own scripts only; axe-core is injected by the test.
  const page = await browser.newPage({ viewport, bypassCSP: true });
  await signIn(page, service.url, KEY);
  await page.goto(`${service.url}/projects/${id}`);
  await page.locator('#stops tbody tr').first().waitFor();
  return page;
}

function stopRow(page: Page, name: string) {
  return page.locator('#stops tbody tr', { has: page.getByRole('cell', { name, exact: true }) });
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const scope = globalThis as unknown as { axe: any; document: unknown };
    const result = await scope.axe.run(scope.document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
}

/** The project's latest optimization once finished, through the API. */
async function finishedPlan(id: string): Promise<Plan> {
  for (;;) {
    const actionUuid = (await current(id)).optimizations?.[0]?.actionUuid as string | undefined;
    if (actionUuid) {
      const action = (await apiCall(service, KEY, 'GET', `/v2/schedules/${actionUuid}`)).json;
      if (action.status !== 'pending') {
        expect(action.status).toBe('finished');
        return action.solution as Plan;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The plan checked against the project as the service now holds it (its ids are extra fields, ignored). */
function checked(project: any, plan: Plan): void {
  const { name, date, drivers, stops, settings } = project;
  const { problem } = loadProblemDocument({ name, date, drivers, stops, settings }, { expect: 'project' });
  expect(checkPlan(problem, plan)).toEqual([]);
}

function visitOf(plan: Plan, stop: string): any {
  for (const route of plan.routes) {
    const visit = route.visits.find((entry: any) => entry.kind === 'stop' && entry.stop === stop);
    if (visit) return visit;
  }
  return undefined;
}

describe('editing a project in its page', () => {
  it('a stop’s window edited in the page → the tables show it, Optimize → the plan respects it and passes the checker', async () => {
    const project = await created(ROUNDS);
    const page = await projectPage(project.id);
    await stopRow(page, 'Opéra').getByRole('button', { name: 'Edit Opéra' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit stop “Opéra”' });
    await dialog.getByLabel('Time windows').fill('10:30-11:00');
    await screenshot(page, 'edit-stop-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await stopRow(page, 'Opéra').getByRole('cell', { name: '10:30–11:00' }).waitFor();
    expect(await page.locator('#project-meta').innerText()).toContain('version 2');
    // Focus returns to the row's Edit, drawn anew with the new version.
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label'))).toBe('Edit Opéra');
    const saved = await current(project.id);
    expect([saved.version, saved.stops[1]]).toEqual([2, { ...project.stops[1], start: '10:30', end: '11:00' }]);

    await page.getByRole('button', { name: 'Optimize' }).click();
    await page.locator('#plan').waitFor({ state: 'visible', timeout: 30_000 });
    const plan = await finishedPlan(project.id);
    const opera = visitOf(plan, 'Opéra');
    expect(opera.start_s).toBeGreaterThanOrEqual(10.5 * 3600);
    expect(opera.finish_s).toBeLessThanOrEqual(11 * 3600);
    checked(saved, plan);
    await page.close();
  }, 60_000);

  it('a bad value → the service’s message next to its field, nothing saved; axe-core finds no violation with the editor open', async () => {
    const project = await created(ROUNDS);
    const page = await projectPage(project.id);
    await stopRow(page, 'Mairie').getByRole('button', { name: 'Edit Mairie' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit stop “Mairie”' });
    await dialog.getByLabel('Duration (min)').fill('-5');
    await dialog.getByLabel('Time windows').fill('9h-10h');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const durationError = dialog.locator('#edit-duration-error');
    await durationError.waitFor();
    expect(await durationError.innerText()).toMatch(/-5 is not allowed/);
    expect(await dialog.locator('#edit-windows-error').innerText()).toMatch(/"9h" is not allowed/);
    expect(await dialog.getByLabel('Duration (min)').getAttribute('aria-invalid')).toBe('true');
    expect((await current(project.id)).version).toBe(1);
    await screenshot(page, 'edit-validation');
    expect(await axeViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)).toBeLessThanOrEqual(390);
    await screenshot(page, 'edit-page-phone', true);
    // On a phone the row's controls are a scroll away: the name opens the editor too.
    await stopRow(page, 'Bellecour').getByRole('button', { name: 'Bellecour', exact: true }).click();
    await page.getByRole('dialog', { name: 'Edit stop “Bellecour”' }).waitFor();
    await screenshot(page, 'edit-stop-dialog-phone');
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  }, 60_000);

  it('two pages edit one stop: the second save gets the conflict view, re-applies on the new version, and both changes are kept', async () => {
    const project = await created(ROUNDS);
    const [first, second] = [await projectPage(project.id), await projectPage(project.id)];
    await first.getByRole('button', { name: 'Edit Mairie' }).click();
    await second.getByRole('button', { name: 'Edit Mairie' }).click();
    await second.getByLabel('Duration (min)').fill('12');
    await second.getByRole('button', { name: 'Save' }).click();
    await second.getByRole('dialog').waitFor({ state: 'detached' });

    await first.getByLabel('Time windows').fill('09:00-10:00');
    await first.getByRole('button', { name: 'Save' }).click();
    const conflict = first.getByRole('dialog', { name: 'Edit stop “Mairie”' });
    await conflict.getByText('Someone changed this project while you were editing it').waitFor();
    expect(await conflict.locator('.change-list').innerText()).toContain('Stop “Mairie”: duration 5 → 12');
    expect(await conflict.locator('.mine').innerText()).toBe('Change stop “Mairie”: start → 09:00, end → 10:00');
    // The page already shows the version that won, behind the dialog.
    await stopRow(first, 'Mairie').getByRole('cell', { name: '12 min' }).waitFor();
    await screenshot(first, 'edit-conflict');
    expect(await axeViolations(first)).toEqual([]);
    await conflict.getByRole('button', { name: 'Re-apply my change' }).click();
    await conflict.waitFor({ state: 'detached' });
    await stopRow(first, 'Mairie').getByRole('cell', { name: '09:00–10:00' }).waitFor();
    const both = await current(project.id);
    expect([both.version, both.stops[0]]).toEqual([3, { ...project.stops[0], duration: 12, start: '09:00', end: '10:00' }]);
    await first.close();
    await second.close();
  }, 60_000);

  it('a stop deleted meanwhile: the conflict view says so, and re-applying says the change could not be made (never silently lost)', async () => {
    const project = await created(ROUNDS);
    const page = await projectPage(project.id);
    await page.getByRole('button', { name: 'Edit Opéra' }).click();
    await page.getByLabel('Duration (min)').fill('20');
    expect((await apiCall(service, KEY, 'DELETE', `/v1.0/project/${project.id}/stops/${project.stops[1].id}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit stop “Opéra”' });
    await dialog.getByText('Someone changed this project while you were editing it').waitFor();
    expect(await dialog.locator('.change-list').innerText()).toBe('Stop “Opéra” removed');
    expect(await dialog.locator('.mine').innerText()).toBe('Change stop “Opéra”: duration → 20');
    await stopRow(page, 'Opéra').waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'Re-apply my change' }).click();
    await dialog.getByText('It was deleted meanwhile, so this change could not be made: Change stop “Opéra”: duration → 20.').waitFor();
    expect((await current(project.id)).stops.map((stop: any) => stop.name)).toEqual(['Mairie', 'Bellecour']);
    await page.close();
  }, 60_000);

  it('adds a driver and a stop, changes the project’s settings, and deletes a stop only after confirming', async () => {
    const project = await created(ROUNDS);
    const page = await projectPage(project.id);
    await page.getByRole('button', { name: 'Add driver' }).click();
    const driver = page.getByRole('dialog', { name: 'Add a driver' });
    await driver.getByLabel('Name', { exact: true }).fill('Ben');
    await driver.getByLabel('Start latitude').fill('45.75');
    await driver.getByLabel('Start longitude').fill('4.85');
    await driver.getByLabel('Shift start').fill('09:00');
    await screenshot(page, 'edit-driver-dialog');
    await driver.getByRole('button', { name: 'Add' }).click();
    await driver.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Add stop' }).click();
    const stop = page.getByRole('dialog', { name: 'Add a stop' });
    await stop.getByLabel('Name').fill('Fourvière');
    await stop.getByLabel('Latitude').fill('45.7622');
    await stop.getByLabel('Longitude').fill('4.8225');
    await stop.getByLabel('Types').fill('fragile, cold');
    await stop.getByRole('button', { name: 'Add' }).click();
    await stop.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Edit project' }).click();
    const settings = page.getByRole('dialog', { name: 'Project and settings' });
    await settings.getByLabel('Project name').fill('Tuesday rounds');
    await settings.getByLabel('Traffic factor (1–2)').fill('1.2');
    await settings.getByLabel('Drivers leave exactly at shift start').check();
    await screenshot(page, 'edit-project-dialog');
    await settings.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Tuesday rounds', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Delete Bellecour' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete stop “Bellecour”?' });
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    expect((await current(project.id)).stops).toHaveLength(4);
    await page.getByRole('button', { name: 'Delete Bellecour' }).click();
    await confirm.getByRole('button', { name: 'Delete stop' }).click();
    await confirm.waitFor({ state: 'detached' });
    await stopRow(page, 'Bellecour').waitFor({ state: 'detached' });
    const after = await current(project.id);
    expect(after).toMatchObject({ version: 5, name: 'Tuesday rounds', settings: { traffic: 1.2, strict_start: true } });
    expect(after.drivers[1]).toEqual({
      id: expect.any(String),
      name: 'Ben',
      start_location: { coords: { lat: 45.75, lng: 4.85 } },
      shift_start: '09:00',
    });
    expect(after.stops.map((s: any) => s.name)).toEqual(['Mairie', 'Opéra', 'Fourvière']);
    expect(after.stops[2]).toMatchObject({ location: { coords: { lat: 45.7622, lng: 4.8225 } }, types: ['fragile', 'cold'] });
    await page.close();
  }, 60_000);

  it('fixes an ambiguous address by picking a candidate and one not found by clicking the map; neither is geocoded again', async () => {
    const project = await created({
      name: 'Addresses',
      date: '2026-11-24',
      drivers: [{ name: 'Ana', start_location: { address: 'Dépôt, quai Rambaud, Lyon' }, shift_start: '08:00', shift_end: '13:00' }],
      stops: [
        { name: 'Mairie', location: { coords: { lat: 45.767, lng: 4.836 } }, duration: 5 },
        { name: 'Centrale', location: { address: 'Rue Centrale' }, duration: 5 },
        { name: 'Nowhere', location: { address: '1 impasse Inconnue' }, duration: 5 },
      ],
    });
    const page = await projectPage(project.id);
    await page.getByText('2 addresses to check:').waitFor({ timeout: 15_000 });
    const geocoded = await current(project.id);
    expect(geocoded.geocoding.find((failure: any) => failure.stop === 'Centrale').candidates).toEqual([
      { lat: 45.7606, lng: 4.8358, label: 'Rue Centrale, Lyon' },
      { lat: 45.4397, lng: 4.3872, label: 'Rue Centrale, Saint-Étienne' },
    ]);
    const asked = (address: string): number => nominatim.requests.filter((request) => request.query.get('q') === address).length;
    const before = { centrale: asked('Rue Centrale'), nowhere: asked('1 impasse Inconnue') };
    expect(before).toEqual({ centrale: 1, nowhere: 1 });
    await screenshot(page, 'edit-addresses', true);

    // The second candidate, not the one the geocoder put first.
    await page.getByRole('button', { name: 'Use Rue Centrale, Saint-Étienne' }).click();
    await page.getByText('1 address to check:').waitFor({ timeout: 15_000 });
    expect((await current(project.id)).stops[1].location).toEqual({ address: 'Rue Centrale', coords: { lat: 45.4397, lng: 4.3872 } });

    await page.getByRole('button', { name: 'Place on map: Nowhere, 1 impasse Inconnue' }).click();
    await page.getByText('Placing “Nowhere”: click the map where it is.').waitFor();
    await screenshot(page, 'edit-placing');
    expect(await axeViolations(page)).toEqual([]);
    const map = page.locator('#map');
    const box = (await map.boundingBox())!;
    await map.click({ position: { x: box.width * 0.3, y: box.height * 0.4 } });
    await page.getByText('Every address was placed.').waitFor({ timeout: 15_000 });
    const placed = await current(project.id);
    const nowhere = placed.stops[2].location;
    expect(nowhere.address).toBe('1 impasse Inconnue');
    expect(nowhere.coords.lat).toBeGreaterThan(-90);
    expect([placed.version, placed.geocoding_status, placed.geocoding]).toEqual([3, 'done', []]);

    await page.getByRole('button', { name: 'Optimize' }).click();
    await page.locator('#plan').waitFor({ state: 'visible', timeout: 30_000 });
    const plan = await finishedPlan(project.id);
    expect(visitOf(plan, 'Centrale')?.location ?? plan.unserved.find((entry) => entry.stop === 'Centrale')?.location).toEqual({
      lat: 45.4397,
      lng: 4.3872,
    });
    const nowhereAt = visitOf(plan, 'Nowhere')?.location ?? plan.unserved.find((entry) => entry.stop === 'Nowhere')?.location;
    expect(nowhereAt).toEqual(nowhere.coords);
    // Hand-placed and picked places are never sent to the geocoder again (only the depot's address is).
    expect({ centrale: asked('Rue Centrale'), nowhere: asked('1 impasse Inconnue') }).toEqual(before);
    await page.close();
  }, 90_000);

  it('moves a placed stop by dragging its marker in "place on map" mode', async () => {
    const project = await created(ROUNDS);
    const page = await projectPage(project.id);
    await page.getByRole('button', { name: 'Place on map: Bellecour' }).click();
    const marker = page.locator('.placing-pin');
    await marker.waitFor();
    const at = (await marker.boundingBox())!;
    await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
    await page.mouse.down();
    await page.mouse.move(at.x + 80, at.y + 40, { steps: 8 });
    await page.mouse.up();
    await page.locator('.placing-bar').waitFor({ state: 'detached' });
    for (let tries = 0; tries < 50 && (await current(project.id)).version === 1; tries++) await new Promise((r) => setTimeout(r, 100));
    const moved = (await current(project.id)).stops[2].location.coords;
    expect(moved.lng).toBeGreaterThan(ROUNDS.stops[2]!.location.coords.lng);
    expect(moved.lat).toBeLessThan(ROUNDS.stops[2]!.location.coords.lat);
    await page.close();
  }, 60_000);
});
