/**
 * The project page's unserved list in real Chromium against the real service: after Optimize, a
 * stop left out for capacity and one needing a type the driver lacks show their fix hints in the
 * "Would fit if" column, the same hints the plan read through the API (schedules v2) carries; a
 * stop no single change would serve says so in words. axe-core finds no WCAG 2.1 A/AA violation.
 * Screenshots at desktop and phone sizes go to results/web/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';
import { ROOT } from '../server/built.js';
import { apiCall, launchChromium, screenshot, signIn, startWebService, type WebService } from './browser.js';

declare const document: any, window: any;

const KEY = 'unserved-hints-web-key-0123456789';
const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');
const depot = { coords: { lat: 45.76, lng: 4.83 } };
const at = (lat: number, lng: number) => ({ coords: { lat, lng } });
/** Ana has room for 10 crates; the bakery's 8 come first, so the café's 5 do not fit. */
const PROJECT = {
  name: 'Morning crates',
  date: '2026-11-23',
  drivers: [
    { name: 'Ana', start_location: depot, end_location: depot, shift_start: '08:00', shift_end: '12:00', capacity: 10, types: ['van'] },
  ],
  stops: [
    { name: 'Bakery Rivoli', location: at(45.765, 4.835), duration: 10, load: 8, priority: 'high' },
    { name: 'Café des Arts', location: at(45.768, 4.84), duration: 10, load: 5 },
    { name: 'Fishmonger', location: at(45.755, 4.825), duration: 10, load: 1, types: ['fridge'] },
    { name: 'Warehouse', location: at(45.75, 4.82), duration: 10, load: 40 },
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

async function newestPlan(): Promise<Plan> {
  let uuid = '';
  await expect
    .poll(
      async () => {
        const list = (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}`)).json.optimizations;
        uuid = list.find((p: { status: string }) => p.status === 'finished')?.actionUuid ?? '';
        return uuid !== '';
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return (await apiCall(service, KEY, 'GET', `/v2/schedules/${uuid}`)).json.solution;
}

function hintRow(stop: string) {
  return page.getByRole('region', { name: /Unserved stops/ }).getByRole('row', { name: new RegExp(stop) });
}

describe('fix hints on the project page', () => {
  let plan: Plan;

  it('the API answer carries each unserved stop’s hints, and the plan passes the checker', async () => {
    await page.goto(`${service.url}/projects/${projectId}`);
    await page.getByRole('button', { name: 'Optimize' }).click();
    plan = await newestPlan();
    const { problem } = loadProblemDocument(PROJECT);
    expect(checkPlan(problem, plan)).toEqual([]);
    const hintsOf = (stop: string) => plan.unserved.find((u) => u.stop === stop)?.hints;
    expect(hintsOf('Café des Arts')).toEqual([
      expect.objectContaining({ kind: 'driver_capacity', amount: 3, capacity: 13, driver: 'Ana' }),
    ]);
    expect(hintsOf('Fishmonger')).toEqual([expect.objectContaining({ kind: 'driver_type', type: 'fridge', driver: 'Ana' })]);
    // 40 crates exceed Ana's 10 even alone (a certain reason); with the bakery's 8 on board she needs 48.
    expect(plan.unserved.find((u) => u.stop === 'Warehouse')?.reason).toBe('load_exceeds_capacity');
    expect(hintsOf('Warehouse')).toEqual([expect.objectContaining({ kind: 'driver_capacity', amount: 38, capacity: 48 })]);
  });

  it('the unserved list shows them under "Would fit if"; axe finds nothing at desktop and phone sizes', async () => {
    await page.getByText(/Plan ready/).waitFor({ state: 'attached' });
    const table = page.getByRole('region', { name: /Unserved stops/ });
    await table.getByRole('columnheader', { name: 'Would fit if' }).waitFor();
    expect(await hintRow('Café des Arts').getByRole('listitem').allTextContents()).toEqual(["Ana's capacity +3 (13)"]);
    expect(await hintRow('Fishmonger').getByRole('listitem').allTextContents()).toEqual(['Ana having type fridge']);
    await table.scrollIntoViewIfNeeded();
    await screenshot(page, 'unserved-hints-desktop');
    expect(await axeViolations()).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await table.scrollIntoViewIfNeeded();
    await screenshot(page, 'unserved-hints-phone');
    expect(await axeViolations()).toEqual([]);
  });
});
