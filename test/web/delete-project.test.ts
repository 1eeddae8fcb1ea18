/**
 * "Delete project" on the project page (issue 27, item 11), in real Chromium against the real
 * service and solver: the confirm dialog names the project, Cancel keeps it (focus back on the
 * button), confirming deletes it with its plan and dispatch (its driver link answers 404) and goes
 * back to the list, which no longer has it; axe-core finds no WCAG 2.1 A/AA violation with the
 * dialog open. Screenshots at desktop and phone sizes in results/web/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import { checkPlan } from '../support/checker.js';
import { axeViolations } from './axe.js';
import { apiCall, launchChromium, screenshot, signIn, startWebService, type WebService } from './browser.js';

const KEY = 'delete-web-key-0123456789';
let browser: Browser;
let service: WebService;

const ROUNDS = {
  name: 'Tuesday bakery rounds',
  date: '2026-11-24',
  drivers: [{ name: 'Ana', start_location: { coords: { lat: 45.742, lng: 4.818 } }, shift_start: '08:00', shift_end: '13:00' }],
  stops: [
    { name: 'Mairie', location: { coords: { lat: 45.767, lng: 4.836 } }, duration: 5, email: 'mairie@example.com' },
    { name: 'Opéra', location: { coords: { lat: 45.768, lng: 4.836 } }, duration: 5, phone_number: '+33 4 00 00 00 02' },
    { name: 'Bellecour', location: { coords: { lat: 45.757, lng: 4.832 } }, duration: 5 },
  ],
};

beforeAll(async () => {
  browser = await launchChromium();
  service = await startWebService([KEY], 500);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** A project optimized (its plan checked) and dispatched over the API: its id and its driver's link. */
async function dispatchedProject(): Promise<{ id: string; driverPath: string }> {
  const created = await apiCall(service, KEY, 'POST', '/v1.0/project', ROUNDS);
  expect(created.status).toBe(201);
  const id = created.json.id as string;
  const started = await apiCall(service, KEY, 'POST', `/v1.0/project/${id}/optimize`);
  let action = started.json;
  while (action.status === 'pending') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    action = (await apiCall(service, KEY, 'GET', `/v2/schedules/${started.json.actionUuid}`)).json;
  }
  expect(action.status).toBe('finished');
  expect(checkPlan(loadProblemDocument(ROUNDS, { expect: 'project' }).problem, action.solution)).toEqual([]);
  const dispatch = await apiCall(service, KEY, 'POST', `/v1.0/project/${id}/dispatch`, {});
  expect(dispatch.status).toBe(201);
  return { id, driverPath: new URL(dispatch.json.drivers[0].url).pathname };
}

async function projectPage(id: string, viewport: { width: number; height: number }): Promise<Page> {
  // The page's CSP allows its own scripts only; axe-core is injected by the test.
  const page = await browser.newPage({ viewport, bypassCSP: true });
  await signIn(page, service.url, KEY);
  await page.goto(`${service.url}/projects/${id}`);
  await page.locator('#stops tbody tr').first().waitFor();
  return page;
}

describe('Delete project', () => {
  it('asks first, naming the project; Cancel keeps it; Delete removes it with its dispatch and goes back to the list', async () => {
    const { id, driverPath } = await dispatchedProject();
    const kept = 'Wednesday bakery rounds';
    expect((await apiCall(service, KEY, 'POST', '/v1.0/project', { ...ROUNDS, name: kept })).status).toBe(201);
    const page = await projectPage(id, { width: 1280, height: 800 });
    const opener = page.getByRole('button', { name: 'Delete project' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: `Delete “${ROUNDS.name}”?` });
    await dialog.waitFor();
    expect(await page.locator(':focus').textContent()).toBe('Cancel');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'erase-confirm-desktop');

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.locator(':focus').textContent()).toBe('Delete project');
    expect((await apiCall(service, KEY, 'GET', `/v1.0/project/${id}`)).status).toBe(200);

    await opener.click();
    await dialog.getByRole('button', { name: 'Delete project' }).click();
    await page.waitForURL(`${service.url}/`);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    // The list is drawn once the other project shows: the deleted one is not in it.
    await page.getByText(kept).first().waitFor();
    const notice = page.getByRole('status').filter({ hasText: 'was deleted' });
    expect(await notice.textContent()).toBe(`“${ROUNDS.name}” was deleted, with its plans, dispatch and customer e-mails.`);
    expect(await page.locator('#project-list').getByText(ROUNDS.name).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'erase-list-after');
    // The confirmation is shown once: a reload does not repeat it.
    await page.reload();
    await page.getByText(kept).first().waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'was deleted' }).count()).toBe(0);
    expect((await apiCall(service, KEY, 'GET', `/v1.0/project/${id}`)).status).toBe(404);
    expect((await fetch(`${service.url}${driverPath}/route`)).status).toBe(404);
    await page.close();
  }, 60_000);

  it('on a phone the dialog fits the screen, with no axe-core violation', async () => {
    const { id } = await dispatchedProject();
    const page = await projectPage(id, { width: 390, height: 844 });
    await page.getByRole('button', { name: 'Delete project' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete “${ROUNDS.name}”?` });
    await dialog.waitFor();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'erase-confirm-phone');
    await page.close();
  }, 60_000);
});
