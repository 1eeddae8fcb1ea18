/**
 * axe-core's WCAG 2.1 A/AA rules in real Chromium on every page of the web application: the
 * sign-in page, the project list, the "New project" form with a mapping and problem rows shown,
 * a project page with a plan, and a driver page. Each must have 0 violations.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../server/built.js';
import { apiCall, launchChromium, screenshot, signIn, startWebService, type WebService } from './browser.js';

const KEY = 'a11y-web-key-0123456789';
const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');

const DOCUMENT = {
  name: 'Accessible round',
  date: '2024-05-14',
  drivers: [
    { name: 'Camille', start_location: { coords: { lat: 45.7578, lng: 4.832 } }, shift_start: '07:00', shift_end: '12:00', capacity: 20 },
  ],
  stops: Array.from({ length: 6 }, (_, i) => ({
    name: `Stop ${i + 1}`,
    location: { coords: { lat: 45.75 + i / 500, lng: 4.83 + i / 400 } },
    duration: 5,
    start: '08:00',
    end: '11:00',
  })),
};

let browser: Browser;
let service: WebService;
let page: Page;
let projectId: string;
let driverUrl: string;

declare const axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Violation[] }> };

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[]; failureSummary: string }[];
}

/** The violations axe-core finds on the page as it is now, one line each (rule, element, why). */
async function violations(checked: Page): Promise<string[]> {
  await checked.addScriptTag({ path: AXE });
  const found = await checked.evaluate(async () => {
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary })),
    }));
  });
  return found.flatMap((v) => v.nodes.map((node) => `${v.id} (${v.help}): ${node.target.join(' ')} — ${node.summary}`));
}

declare const document: unknown;

beforeAll(async () => {
  browser = await launchChromium();
  service = await startWebService([KEY], 1_000);
  const created = await apiCall(service, KEY, 'POST', '/v1.0/project', DOCUMENT);
  projectId = created.json.id;
  const started = await apiCall(service, KEY, 'POST', `/v1.0/project/${projectId}/optimize`);
  for (;;) {
    const action = await apiCall(service, KEY, 'GET', `/v2/schedules/${started.json.actionUuid}`);
    if (action.json.status !== 'pending') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const dispatch = (await apiCall(service, KEY, 'POST', `/v1.0/project/${projectId}/dispatch`, {})).json;
  driverUrl = dispatch.drivers[0].url;
  // The pages' CSP allows no injected script; axe-core is the test's, not the page's.
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true })).newPage();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe('WCAG 2.1 A/AA (axe-core): 0 violations on every page', () => {
  it('the sign-in page, with its failed sign-in message', async () => {
    await page.goto(`${service.url}/?signin=failed`);
    await page.getByLabel('API key').waitFor();
    expect(await violations(page)).toEqual([]);
  });

  it('the project list', async () => {
    await signIn(page, service.url, KEY);
    await page.getByRole('link', { name: 'Accessible round' }).waitFor();
    expect(await violations(page)).toEqual([]);
  });

  it('the "New project" form with a mapping, a problem row and a driver typed in', async () => {
    await page.getByRole('link', { name: 'New project' }).click();
    await page.getByRole('heading', { name: 'New project', level: 1 }).waitFor();
    expect(await violations(page)).toEqual([]);
    const csv = 'Customer;Lat;Lng;From;Ref\nA;45,75;4,83;08:00;x\nB;45,76;4,84;8h;y\n';
    await page.getByLabel('Stops spreadsheet').setInputFiles({ name: 'stops.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.locator('#stops-import .problem-row').waitFor();
    // The semicolon table's decimal commas are read as points, and the page says so.
    expect(await page.locator('#stops-import .import-warning').innerText()).toContain('decimal commas');
    await page.getByRole('button', { name: 'Add driver' }).click();
    await page.getByRole('button', { name: 'Import' }).click();
    await page.locator('#new-project-error').waitFor();
    await screenshot(page, 'a11y-new-project', true);
    expect(await violations(page)).toEqual([]);
    // Cancel goes back to the list, with the focus on its heading.
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('projects-title');
  });

  it('a project page with a plan', async () => {
    await page.goto(`${service.url}/projects/${projectId}`);
    await page.locator('#plan').waitFor({ state: 'visible', timeout: 15_000 });
    expect(await violations(page)).toEqual([]);
  });

  it('a driver page', async () => {
    const phone = await (
      await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, bypassCSP: true })
    ).newPage();
    await phone.goto(driverUrl);
    await phone.getByText('Stop 1').first().waitFor();
    expect(await violations(phone)).toEqual([]);
  });
});
