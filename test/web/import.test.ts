/**
 * "New project" with spreadsheet import in real Chromium against the real service: a CSV and
 * (separately) an XLSX of 30 stops with a dispatcher's headers → the guessed columns, one mapped by
 * hand → a bad row fixed in place and one left out → Import → the project page → Optimize → the
 * plan, fetched through the API, passes the independent checker. Screenshots at desktop and phone
 * sizes go to results/web/.
 */
import type { Browser, Page } from 'playwright-core';
import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';
import { join } from 'node:path';
import { apiCall, launchChromium, screenshot, SHOTS, signIn, startWebService, type WebService } from './browser.js';

const KEY = 'import-web-key-0123456789';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** A dispatcher's headers: all but "Prio (1-10)" are guessed; "Account manager" stays left out. */
const HEADER = ['Customer', 'Street address', 'Lat', 'Lng', 'From', 'Until', 'Minutes', 'Qty', 'Prio (1-10)', 'Account manager'];
/** Row 7 (the 6th stop) has a window start no clock reads; row 12 a duration in words. */
const BAD_START_ROW = 7;
const BAD_DURATION_ROW = 12;

function stopRows(): string[][] {
  return Array.from({ length: 30 }, (_, i) => {
    const row = i + 2;
    const lat = (45.74 + ((i * 37) % 30) / 1000).toFixed(4);
    const lng = (4.82 + ((i * 53) % 40) / 1000).toFixed(4);
    const from = row === BAD_START_ROW ? '9h30' : i % 3 === 0 ? '08:00' : '07:00';
    const until = i % 3 === 0 ? '11:30' : '12:30';
    const minutes = row === BAD_DURATION_ROW ? 'five' : String(3 + (i % 4));
    const priority = String(1 + (i % 10));
    return [`Client ${i + 1}`, `${i + 1} rue de la République, Lyon`, lat, lng, from, until, minutes, String(1 + (i % 3)), priority, 'Sam'];
  });
}

function csvOf(rows: string[][]): string {
  return [HEADER, ...rows].map((cells) => cells.map((cell) => (cell.includes(',') ? `"${cell}"` : cell)).join(',')).join('\r\n');
}

async function xlsxOf(header: string[], rows: string[][]): Promise<Buffer> {
  // Numbers as numbers, as a spreadsheet holds them.
  const cell = (text: string) => (/^\d+(\.\d+)?$/.test(text) ? { value: Number(text) } : { value: text });
  return writeXlsxFile([header.map((text) => ({ value: text })), ...rows.map((cells) => cells.map(cell))]).toBuffer();
}

let browser: Browser;
let service: WebService;
const breakage: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  service = await startWebService([KEY], 2_000);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

async function openNewProject(): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  page.on('pageerror', (error) => breakage.push(`script error: ${error.message}`));
  await signIn(page, service.url, KEY);
  await page.getByRole('link', { name: 'New project' }).click();
  await page.getByRole('heading', { name: 'New project', level: 1 }).waitFor();
  return page;
}

/** The mapping as the page guessed it, then "Prio (1-10)" mapped by hand. */
async function checkAndCorrectMapping(page: Page, more: Record<string, string> = {}): Promise<void> {
  const readAs = (header: string) => page.getByLabel(`Column “${header}” is read as`);
  await readAs('Customer').waitFor();
  const headers = [...HEADER, ...Object.keys(more)];
  const guessed = await Promise.all(headers.map((header) => readAs(header).inputValue()));
  expect(guessed).toEqual(['name', 'address', 'lat', 'lng', 'start', 'end', 'duration', 'load', '', '', ...Object.values(more)]);
  await readAs('Prio (1-10)').selectOption('priority');
}

/** The plan of the project's finished optimization, checked against the project as stored. */
async function optimizeAndCheck(page: Page, expectedStops: number): Promise<{ project: any; plan: Plan }> {
  await page.waitForURL(/\/projects\/[A-Za-z0-9-]+$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  await page.getByRole('button', { name: 'Optimize' }).click();
  await page.locator('#plan').waitFor({ state: 'visible', timeout: 30_000 });
  const project = (await apiCall(service, KEY, 'GET', `/v1.0/project/${id}`)).json;
  expect(project.stops).toHaveLength(expectedStops);
  const action = await apiCall(service, KEY, 'GET', `/v2/schedules/${project.optimizations[0].actionUuid}`);
  expect(action.json.status).toBe('finished');
  const plan = action.json.solution as Plan;
  const { name, date, drivers, stops, settings } = project;
  const { problem } = loadProblemDocument({ name, date, drivers, stops, settings }, { expect: 'project' });
  expect(checkPlan(problem, plan)).toEqual([]);
  expect(plan.summary.served).toBeGreaterThan(0);
  return { project, plan };
}

describe('New project: spreadsheet import in Chromium', () => {
  it('CSV: guessed columns, one mapped by hand, a cell fixed in place, a row left out, drivers typed in → Import → Optimize → a checked plan', async () => {
    const page = await openNewProject();
    await page.getByLabel('Name', { exact: true }).fill('Lyon — mardi');
    await page
      .getByLabel('Stops spreadsheet')
      .setInputFiles({ name: 'clients.csv', mimeType: 'text/csv', buffer: Buffer.from(csvOf(stopRows())) });
    await checkAndCorrectMapping(page);

    // Both bad rows are listed with the CLI's message, by row and column.
    const problems = page.locator('#stops-import .problem-row');
    await expect.poll(() => problems.count()).toBe(2);
    expect(await problems.nth(0).innerText()).toMatch(new RegExp(`Row ${BAD_START_ROW}[\\s\\S]*"9h30" is not allowed; use a clock time`));
    expect(await problems.nth(1).innerText()).toMatch(new RegExp(`Row ${BAD_DURATION_ROW}[\\s\\S]*"five" is not allowed`));
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'import-01-mapping-problems', true);
    // The import step alone, as the README shows it.
    await page.locator('fieldset', { hasText: 'Stops spreadsheet' }).screenshot({ path: join(SHOTS, 'import-02-stops-step.png') });

    await page.getByLabel(`Row ${BAD_DURATION_ROW}, Minutes`).fill('5');
    await page.getByLabel(`Row ${BAD_DURATION_ROW}, Minutes`).press('Tab');
    await expect.poll(() => problems.count()).toBe(1);
    await page.getByLabel(`Leave out row ${BAD_START_ROW}`).check();
    await page.getByText('29 stops ready to import.').waitFor();

    // No drivers file: two drivers typed in the form.
    for (const [n, name] of [
      [1, 'Camille'],
      [2, 'Théo'],
    ] as const) {
      await page.getByRole('button', { name: 'Add driver' }).click();
      await page.getByLabel(`Driver ${n} Name`).fill(name);
      await page.getByLabel(`Driver ${n} Start (address, or latitude, longitude)`).fill('45.7578, 4.8320');
      await page.getByLabel(`Driver ${n} Shift start`).fill('06:30');
      await page.getByLabel(`Driver ${n} Shift end`).fill('13:00');
      await page.getByLabel(`Driver ${n} Capacity`).fill('40');
    }
    await page.getByLabel('Service time per stop (minutes)').fill('4');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'import-03-phone', true);
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Import' }).click();
    const { project, plan } = await optimizeAndCheck(page, 29);
    expect(project.name).toBe('Lyon — mardi');
    expect(project.settings).toEqual({ default_duration: 4 });
    expect(project.drivers.map((d: any) => [d.name, d.start_location, d.capacity])).toEqual([
      ['Camille', { coords: { lat: 45.7578, lng: 4.832 } }, 40],
      ['Théo', { coords: { lat: 45.7578, lng: 4.832 } }, 40],
    ]);
    const byName = new Map(project.stops.map((stop: any) => [stop.name, stop]));
    expect(byName.has(`Client ${BAD_START_ROW - 1}`)).toBe(false);
    expect(byName.get(`Client ${BAD_DURATION_ROW - 1}`)).toMatchObject({ duration: 5 });
    expect(byName.get('Client 1')).toMatchObject({
      location: { address: '1 rue de la République, Lyon', coords: { lat: 45.74, lng: 4.82 } },
      start: '08:00',
      end: '11:30',
      duration: 3,
      load: 1,
      priority: 1,
    });
    expect(plan.summary.served + plan.summary.unserved).toBe(29);
    await screenshot(page, 'import-04-planned');
    expect(breakage).toEqual([]);
  });

  it('XLSX: stops and drivers workbooks, a stop locked to a driver of the drivers file, a bad row left out → Import → Optimize → a checked plan', async () => {
    const page = await openNewProject();
    await page.getByLabel('Name', { exact: true }).fill('Lyon — mercredi');
    const rows = stopRows().map((cells, i) => [
      ...(i + 2 === BAD_DURATION_ROW ? cells.map((cell, c) => (c === 6 ? '4' : cell)) : cells),
      i === 0 ? 'Inès' : '',
    ]);
    await page.getByLabel('Stops spreadsheet').setInputFiles({
      name: 'clients.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await xlsxOf([...HEADER, 'Driver'], rows),
    });
    await checkAndCorrectMapping(page, { Driver: 'driver' });
    // Client 1 is locked to Inès, whom the project does not have yet.
    const problems = page.locator('#stops-import .problem-row');
    await expect.poll(() => problems.count()).toBe(2);
    expect(await problems.first().innerText()).toContain('the project has no driver to lock the stop to');
    const drivers = await xlsxOf(
      ['Driver', 'Depot lat', 'Depot lng', 'From', 'Until', 'Capacity'],
      [
        ['Inès', '45.7578', '4.8320', '06:30', '13:00', '40'],
        ['Malik', '45.7578', '4.8320', '06:30', '13:00', '40'],
      ],
    );
    await page
      .getByLabel('Drivers spreadsheet')
      .setInputFiles({ name: 'drivers.xlsx', mimeType: 'application/octet-stream', buffer: drivers });
    await page.getByText('2 drivers ready to import.').waitFor();
    // With the drivers read, the lock names one of them: only the bad row is left.
    await expect.poll(() => problems.count()).toBe(1);

    // "Import" before the bad row is dealt with says why, in the page, and nothing is created.
    await page.locator('#stops-import .problem-row').first().waitFor();
    await page.getByRole('button', { name: 'Import' }).click();
    const error = page.locator('#new-project-error');
    await error.waitFor();
    expect(await error.innerText()).toContain(`clients.xlsx row ${BAD_START_ROW}, column From`);
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('new-project-error');
    expect((await apiCall(service, KEY, 'GET', '/v1.0/projects')).json.projects.map((p: any) => p.name)).not.toContain('Lyon — mercredi');

    await page.getByLabel(`Leave out row ${BAD_START_ROW}`).check();
    await page.getByText('29 stops ready to import.').waitFor();
    await page.getByRole('button', { name: 'Import' }).click();
    const { project, plan } = await optimizeAndCheck(page, 29);
    const ines = plan.routes.find((route) => route.vehicle === 'Inès');
    expect(ines?.visits.some((visit) => visit.kind === 'stop' && visit.stop === 'Client 1')).toBe(true);
    expect(project.drivers.map((d: any) => [d.name, d.shift_start, d.shift_end, d.capacity])).toEqual([
      ['Inès', '06:30', '13:00', 40],
      ['Malik', '06:30', '13:00', 40],
    ]);
    expect(project.stops.find((stop: any) => stop.name === 'Client 3')).toMatchObject({ priority: 3, load: 3, duration: 5 });
    expect(project.stops.find((stop: any) => stop.name === 'Client 1')).toMatchObject({ driver: 'Inès' });
    expect(breakage).toEqual([]);
  });
});
