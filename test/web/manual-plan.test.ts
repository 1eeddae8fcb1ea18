/**
 * Adjusting a plan by hand in real Chromium against the real service (decisions.md, "Editing a
 * project and re-planning the day"): Optimize → "Move to…" from the keyboard puts a stop on the
 * other driver → the overload it causes is shown next to the route → "Save plan" → the saved plan,
 * read through the API, passes the checker's timing checks with the stop on its new driver and
 * only that overload, and carries `changes` → a stop dragged between itineraries → "Lock route" →
 * Optimize keeps that route. axe-core finds no WCAG 2.1 A/AA violation with the dialog open and
 * with a draft shown. Screenshots at desktop and phone sizes go to results/web/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';
import { ROOT } from '../server/built.js';
import { apiCall, launchChromium, screenshot, SHOTS, signIn, startWebService, type WebService } from './browser.js';

declare const document: any, window: any;

const KEY = 'manual-plan-web-key-0123456789';
const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');

const depot = { coords: { lat: 45.76, lng: 4.83 } };
const stop = (name: string, lat: number, lng: number): Record<string, unknown> => ({
  name,
  location: { coords: { lat, lng } },
  duration: 10,
  load: 1,
});
/** Two drivers with room for two stops each; two stops north of the depot, two south. */
const PROJECT = {
  name: 'Hand-adjusted rounds',
  date: '2026-11-23',
  drivers: [
    { name: 'Ana', start_location: depot, shift_start: '08:00', shift_end: '12:00', capacity: 2 },
    { name: 'Ben', start_location: depot, shift_start: '08:00', shift_end: '12:00', capacity: 2 },
  ],
  stops: [
    stop('North bakery', 45.8, 4.83),
    stop('North cafe', 45.81, 4.84),
    stop('South bakery', 45.7, 4.83),
    stop('South cafe', 45.69, 4.84),
  ],
  settings: {},
};

let browser: Browser;
let service: WebService;
let page: Page;
let projectId: string;

beforeAll(async () => {
  browser = await launchChromium();
  service = await startWebService([KEY], 2_000);
  const created = await apiCall(service, KEY, 'POST', '/v1.0/project', PROJECT);
  expect(created.status).toBe(201);
  projectId = created.json.id;
  // The page's CSP allows no inline script: bypassed so that axe-core can be injected (addScriptTag).
  page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await signIn(page, service.url, KEY);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

async function axeViolations(): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
}

/** The project's plans, newest first, as the API lists them. */
async function plans(): Promise<{ actionUuid: string; kind: string; status: string }[]> {
  return (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}`)).json.optimizations;
}

async function planOf(actionUuid: string): Promise<Plan> {
  return (await apiCall(service, KEY, 'GET', `/v2/schedules/${actionUuid}`)).json.solution;
}

/** The newest plan once the project has `count` (listed and readable: the list may name a plan being written). */
async function newestPlan(count: number): Promise<Plan> {
  let plan: Plan | undefined;
  await expect
    .poll(
      async () => {
        const list = await plans();
        plan = list.length === count ? await planOf(list[0]!.actionUuid) : undefined;
        return plan !== undefined;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return plan!;
}

function routeOf(plan: Plan, driver: string): string[] {
  const route = plan.routes.find((r) => r.vehicle === driver);
  return route ? route.visits.flatMap((v) => (v.kind === 'stop' ? [v.stop] : [])) : [];
}

function itinerary(driver: string) {
  return page.getByRole('article', { name: new RegExp(`: ${driver}$`) });
}

async function optimize(count: number): Promise<Plan> {
  await page.getByRole('button', { name: 'Optimize' }).click();
  await expect.poll(async () => (await plans()).filter((p) => p.status === 'finished').length, { timeout: 30_000 }).toBe(count);
  await page.getByText(/Plan ready/).waitFor({ state: 'attached' });
  return planOf((await plans())[0]!.actionUuid);
}

describe('adjusting a plan by hand in the page', () => {
  let first: Plan;
  let saved: string;

  it('Move to… from the keyboard: the draft is re-timed, its overload shown; axe finds nothing with the dialog open or the draft shown', async () => {
    await page.goto(`${service.url}/projects/${projectId}`);
    first = await optimize(1);
    expect(routeOf(first, 'Ana')).toHaveLength(2);
    expect(routeOf(first, 'Ben')).toHaveLength(2);
    const moved = routeOf(first, 'Ben')[0]!;
    const moveButton = itinerary('Ben')
      .getByRole('row', { name: new RegExp(moved) })
      .getByRole('button', { name: 'Move to…' });
    await moveButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Move ${moved}` });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement.id)).toBe('move-driver');
    // Escape closes without a move, and the focus goes back to the button.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement.textContent)).toBe('Move to…');
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('ArrowUp');
    expect(await page.getByLabel('Driver', { exact: true }).inputValue()).toBe(
      (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}`)).json.drivers[0].id,
    );
    await screenshot(page, 'manual-move-dialog');
    expect(await axeViolations()).toEqual([]);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement.id)).toBe('move-position');
    expect(await page.getByLabel('Position on the route', { exact: true }).inputValue()).toBe('2');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });

    const draft = page.getByRole('region', { name: 'Adjusted plan — not saved' });
    await draft.waitFor();
    expect(await draft.innerText()).toMatch(/1 violation:\s+Ana: overload: load 3 of a capacity of 2 \(1 over\)/);
    expect(await itinerary('Ana').innerText()).toMatch(/Violation:\s+overload: load 3 of a capacity of 2 \(1 over\)/);
    expect(
      await itinerary('Ana')
        .getByRole('row', { name: new RegExp(moved) })
        .count(),
    ).toBe(1);
    // The focus follows the moved stop to its new row.
    expect(await page.evaluate(() => document.activeElement.closest('article').getAttribute('aria-labelledby'))).toBeTruthy();
    expect(await page.evaluate(() => document.activeElement.closest('article').innerText)).toContain(': Ana');
    expect(await plans()).toHaveLength(1);
    await screenshot(page, 'manual-draft');
    await screenshot(page, 'manual-draft-full', true);
    await page.locator('#plan').screenshot({ path: join(SHOTS, 'manual-draft-plan.png') });
    expect(await axeViolations()).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await draft.scrollIntoViewIfNeeded();
    await screenshot(page, 'manual-draft-phone');
    await itinerary('Ana').scrollIntoViewIfNeeded();
    await screenshot(page, 'manual-itinerary-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('Save plan keeps it as an edited plan: through the API it passes the checker with the stop on Ana and exactly that overload, and carries changes', async () => {
    await page.getByRole('button', { name: 'Save plan' }).click();
    await page.getByRole('heading', { name: 'What changed since the plan before' }).waitFor();
    const list = await plans();
    expect(list.map((p) => [p.kind, p.status])).toEqual([
      ['edited', 'finished'],
      ['optimized', 'finished'],
    ]);
    saved = list[0]!.actionUuid;
    const plan = await planOf(saved);
    const moved = routeOf(first, 'Ben')[0]!;
    expect(routeOf(plan, 'Ana')).toEqual([...routeOf(first, 'Ana'), moved]);
    const problem = loadProblemDocument(PROJECT, { expect: 'project' }).problem;
    const ana = plan.routes.findIndex((r) => r.vehicle === 'Ana');
    expect(checkPlan(problem, plan)).toEqual([`route ${ana} (Ana): load 3 on dimension "" exceeds capacity 2`]);
    expect(plan.changes).toMatchObject({
      against: list[1]!.actionUuid,
      driver_changed: [{ stop: moved, from: 'Ben', to: 'Ana' }],
      added: [],
      removed: [],
    });
    const shown = await page.locator('.plan-changes').innerText();
    expect(shown).toContain(`Changed driver (1)\n${moved} (Ben → Ana)`);
    expect(await page.locator('#history').innerText()).toContain('edited by hand');
    // The saved plan still says what it breaks, next to the route and above the plan.
    await page.getByRole('region', { name: 'Rules this plan breaks' }).waitFor();
    expect(await itinerary('Ana').innerText()).toMatch(/Violation:\s+overload: load 3 of a capacity of 2 \(1 over\)/);
    await page.locator('#plan').scrollIntoViewIfNeeded();
    await screenshot(page, 'manual-saved');
    await page.locator('#plan').screenshot({ path: join(SHOTS, 'manual-saved-plan.png') });
  });

  it('a stop dragged from one itinerary to the other makes a draft with it there; saved, its route is locked, and Optimize keeps it', async () => {
    const dragged = routeOf(first, 'Ana')[0]!;
    const source = itinerary('Ana').getByRole('row', { name: new RegExp(dragged) });
    const target = itinerary('Ben').locator('tbody tr').last();
    await source.dragTo(target);
    const draft = page.getByRole('region', { name: 'Adjusted plan — not saved' });
    await draft.waitFor();
    await expect
      .poll(() =>
        itinerary('Ben')
          .getByRole('row', { name: new RegExp(dragged) })
          .count(),
      )
      .toBe(1);
    expect(await draft.innerText()).toContain('No rule broken.');
    await page.getByRole('button', { name: 'Save plan' }).click();
    const edited = await newestPlan(3);
    const benRoute = routeOf(edited, 'Ben');
    expect(benRoute).toContain(dragged);
    expect(benRoute).toHaveLength(2);
    await page.getByRole('heading', { name: 'What changed since the plan before' }).waitFor();

    // Ben now serves one stop north and one south: not a route the optimizer would make unlocked.
    await itinerary('Ben').getByRole('button', { name: 'Lock route' }).click();
    await itinerary('Ben').getByText('Route locked: Optimize keeps these stops with this driver, in this order.').waitFor();
    const stops = (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}`)).json.stops as any[];
    const locks = benRoute.map((name) => stops.find((s) => s.name === name)).map((s) => [s.driver, s.sequence]);
    expect(locks).toEqual([
      ['Ben', 1],
      ['Ben', 2],
    ]);
    expect(await itinerary('Ben').getByRole('checkbox', { name: 'Lock to driver' }).first().isChecked()).toBe(true);
    expect(await itinerary('Ben').getByText('Locked: Ben #1').count()).toBe(1);
    // The project's own tables follow the lock: the stop's row says it, the header names the new version.
    expect(await page.locator('#stops').getByText('Locked: Ben #2').count()).toBe(1);
    const version = (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}`)).json.version as number;
    expect(await page.locator('#project-meta').innerText()).toContain(`version ${version}`);
    await screenshot(page, 'manual-locked');
    const next = await optimize(4);
    expect(routeOf(next, 'Ben')).toEqual(benRoute);
    const problem = loadProblemDocument((await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}`)).json, {
      expect: 'project',
    }).problem;
    expect(checkPlan(problem, next)).toEqual([]);
    expect(next.changes?.against).toBe((await plans())[1]!.actionUuid);
  });

  it('a service bar dragged on the timeline to the other driver’s row moves that stop there (a draft); Discard goes back to the plan', async () => {
    const shown = await newestPlan(4);
    const anaRow = shown.routes.findIndex((r) => r.vehicle === 'Ana');
    const benRow = shown.routes.findIndex((r) => r.vehicle === 'Ben');
    const bar = page.locator('.timeline-chart .timeline-row').nth(anaRow).locator('rect[data-stop-index]').first();
    const target = page.locator('.timeline-chart .timeline-row').nth(benRow).locator('line.timeline-shift');
    await page.locator('#timeline').scrollIntoViewIfNeeded();
    const from = (await bar.boundingBox())!;
    const to = (await target.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width + 20, to.y, { steps: 8 });
    await page.mouse.up();
    const draft = page.getByRole('region', { name: 'Adjusted plan — not saved' });
    await draft.waitFor();
    const moved = routeOf(shown, 'Ana')[0]!;
    await expect
      .poll(() =>
        itinerary('Ben')
          .getByRole('row', { name: new RegExp(moved) })
          .count(),
      )
      .toBe(1);
    // Dropped right of Ben's day: last on his route, past his capacity of 2.
    expect(await itinerary('Ben').locator('tbody tr').last().innerText()).toContain(moved);
    expect(await draft.innerText()).toMatch(/Ben: overload: load 3 of a capacity of 2 \(1 over\)/);
    await page.getByRole('button', { name: 'Discard' }).click();
    await draft.waitFor({ state: 'detached' });
    expect(
      await itinerary('Ana')
        .getByRole('row', { name: new RegExp(moved) })
        .count(),
    ).toBe(1);
    expect(await plans()).toHaveLength(4);
  });

  it('Move to… “Unserved” takes a stop off every route; from the unserved stops, Move to… puts it back', async () => {
    const shown = await newestPlan(4);
    const stop = routeOf(shown, 'Ana')[0]!;
    await itinerary('Ana')
      .getByRole('row', { name: new RegExp(stop) })
      .getByRole('button', { name: 'Move to…' })
      .click();
    await page.getByLabel('Driver', { exact: true }).focus();
    await page.keyboard.press('End');
    expect(await page.getByLabel('Position on the route', { exact: true }).isDisabled()).toBe(true);
    await page.keyboard.press('Enter');
    const unserved = page.locator('#unserved');
    await unserved.getByText('left out of this plan by hand').waitFor();
    expect(await unserved.getByRole('row', { name: new RegExp(stop) }).innerText()).toContain('dropped_for_capacity_or_time');
    await unserved
      .getByRole('row', { name: new RegExp(stop) })
      .getByRole('button', { name: 'Move to…' })
      .click();
    await page.getByLabel('Driver', { exact: true }).focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await expect
      .poll(() =>
        itinerary('Ana')
          .getByRole('row', { name: new RegExp(stop) })
          .count(),
      )
      .toBe(1);
    expect(await unserved.innerText()).toBe('');
    await page.getByRole('button', { name: 'Discard' }).click();
  });
});
