/**
 * Dispatch in real Chromium against the real service: Optimize → Dispatch (with its confirm step) →
 * each driver's link, Copy link, SMS link or the note without a phone → the drivers' reports coming
 * back to the page → Re-dispatch of a newer plan → Revoke and New link → the e-mails panel says
 * SMTP is off. Screenshot results/web/dispatch-progress.png.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../server/built.js';
import { SHOTS, apiCall, launchChromium, signIn, startWebService, type WebService } from './browser.js';
import { startMailbox } from '../support/mailbox.js';

declare const navigator: any;

const KEY = 'dispatch-test-key-0123456789';
const BAKERY = join(ROOT, 'fixtures/bakery.yaml');

let browser: Browser;
let service: WebService;
let context: BrowserContext;
let page: Page;
let projectId: string;
const breakage: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  service = await startWebService([KEY], 2_000);
  context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
  page = await context.newPage();
  page.on('pageerror', (error) => breakage.push(`script error: ${error.message}`));
  const submitted = await runCli(['submit', BAKERY, '--remote', service.url, '--api-key', KEY]);
  expect(submitted.code, submitted.stderr).toBe(0);
  projectId = submitted.stdout.trim().split(' ')[0]!;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

async function dispatchView(): Promise<any> {
  return (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}/dispatch`)).json;
}

describe('dispatch on the project page', () => {
  it('offers Dispatch only once a plan is shown, and says customer e-mails are off without SMTP', async () => {
    await signIn(page, service.url, KEY);
    await page.goto(`${service.url}/projects/${projectId}`);
    await page.getByRole('heading', { name: 'Dispatch', level: 2 }).waitFor();
    expect(await page.getByRole('button', { name: 'Dispatch' }).isDisabled()).toBe(true);
    expect(await page.locator('#dispatch').innerText()).toContain('Optimize first');
    await expect.poll(() => page.locator('#emails').innerText()).toBe('Customer e-mails are off: the service has no SMTP configured.');
  });

  it('dispatches the plan shown after a confirm step, and lists each driver’s link', async () => {
    await page.getByRole('button', { name: 'Optimize', exact: true }).click();
    await page.locator('#plan').waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByRole('button', { name: 'Dispatch' }).click();
    expect(await page.locator('#dispatch .confirm').innerText()).toMatch(/^Dispatch this plan to \d drivers\?/);
    await page.getByRole('button', { name: 'Not now' }).click();
    expect(await dispatchView()).toMatchObject({ error: { code: 'not_dispatched' } });
    await page.getByRole('button', { name: 'Dispatch' }).click();
    await page.getByRole('button', { name: 'Confirm dispatch' }).click();
    await page.getByRole('heading', { name: 'Driver links' }).waitFor();

    const dispatch = await dispatchView();
    const project = (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}`)).json;
    expect(dispatch.actionUuid).toBe(project.optimizations[0].actionUuid);
    for (const driver of dispatch.drivers) {
      const link = page.getByRole('link', { name: `Driver page: ${driver.driver_name}` });
      expect(await link.getAttribute('href')).toBe(driver.url);
    }
    // Camille has a phone number: an sms: link carrying her link; the others get the note.
    const camille = dispatch.drivers.find((driver: any) => driver.driver_name === 'Camille');
    const sms = await page.getByRole('link', { name: 'Send by SMS to +33 6 12 34 56 78' }).getAttribute('href');
    expect(sms).toBe(`sms:+33612345678?body=${encodeURIComponent(`Your route for today: ${camille.url}`)}`);
    const withoutPhone = dispatch.drivers.filter((driver: any) => driver.phone_number === undefined).length;
    expect(await page.getByText('No phone number: send the link another way.').count()).toBe(withoutPhone);
    expect(await page.locator('#dispatch-announce').innerText()).toBe('Dispatched: send each driver their link.');

    await page.getByRole('button', { name: 'Copy link for Camille' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(camille.url);
  });

  it('shows the drivers’ reports as they come in from a driver’s phone: done, failed with its reason', async () => {
    const dispatch = await dispatchView();
    expect(await page.locator('.dispatch-progress').innerText()).toContain(`0 of ${dispatch.stops.length} stops done`);
    const [first, second] = dispatch.stops;
    expect(second.driver_id).toBe(first.driver_id);
    const driverUrl = dispatch.drivers.find((driver: any) => driver.driver_id === first.driver_id).url;
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const driverPage = await phone.newPage();
    await driverPage.goto(driverUrl);
    const cards = driverPage.locator('section.stop-card');
    await cards.first().getByRole('button', { name: 'Done' }).click();
    await cards.first().getByRole('button', { name: 'Mark done' }).click();
    await cards.nth(1).getByRole('button', { name: 'Failed' }).click();
    await cards.nth(1).getByRole('radio', { name: 'Other' }).check();
    await cards.nth(1).getByLabel('Details').fill('Shop closed');
    await cards.nth(1).getByRole('button', { name: 'Save' }).click();
    await driverPage.getByText('1 of', { exact: false }).waitFor();
    // Both reports sent (the failure was made while the first was on its way) before the phone goes.
    await driverPage.locator('#waiting').waitFor({ state: 'hidden' });
    await phone.close();
    await page.locator('.dispatch-progress').getByText(`1 of ${dispatch.stops.length} stops done · 1 failed`).waitFor({ timeout: 12_000 });
    const rows = page.locator('#dispatch-stops-table tbody tr');
    expect(await rows.nth(0).innerText()).toContain('Done');
    expect(await rows.nth(1).innerText()).toMatch(/Failed.*Shop closed/s);
    // The map with the routes beside the dispatch card: what a dispatcher watches during the day.
    await page.locator('.workspace').screenshot({ path: join(SHOTS, 'dispatch-progress.png') });
  });

  it('keeps the dispatched plan through a new optimization, then re-dispatches it on request', async () => {
    const before = await dispatchView();
    await page.getByRole('button', { name: 'Optimize', exact: true }).click();
    await page.getByRole('button', { name: 'Re-dispatch' }).waitFor({ timeout: 30_000 });
    expect((await dispatchView()).actionUuid).toBe(before.actionUuid);
    await page.getByRole('button', { name: 'Show the dispatched plan' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Re-dispatch' }).count()).toBe(0);
    await page.locator('#history li').first().getByRole('button').click();
    await page.getByRole('button', { name: 'Re-dispatch' }).click();
    await page.getByRole('button', { name: 'Confirm re-dispatch' }).click();
    await expect.poll(async () => (await dispatchView()).actionUuid).not.toBe(before.actionUuid);
    const after = await dispatchView();
    expect(after.drivers.map((driver: any) => driver.url)).toEqual(before.drivers.map((driver: any) => driver.url));
    expect(after.stops.find((stop: any) => stop.stop_id === before.stops[0].stop_id).status).toBe('done');
  });

  it('revokes a driver’s link and makes a new one', async () => {
    const before = (await dispatchView()).drivers.find((driver: any) => driver.driver_name === 'Camille');
    await page.getByRole('button', { name: 'Revoke the link of Camille' }).click();
    await page.getByText('Link withdrawn: the driver page no longer opens.').waitFor();
    expect((await fetch(`${before.url}/route`)).status).toBe(410);
    await page.getByRole('button', { name: 'New link for Camille' }).click();
    await page.getByRole('link', { name: 'Driver page: Camille' }).waitFor();
    const renewed = (await dispatchView()).drivers.find((driver: any) => driver.driver_name === 'Camille');
    expect(renewed.url).not.toBe(before.url);
    expect((await fetch(`${renewed.url}/route`)).status).toBe(200);
    expect(breakage).toEqual([]);
  });
});

describe('customer e-mails on the project page', () => {
  it('lists each message sent on dispatch, with its recipient and result', async () => {
    const smtp = await startMailbox();
    const withMail = await startWebService([KEY], 2_000, { smtp: { url: smtp.url, from: 'deliveries@bakery.example' } });
    try {
      const submitted = await runCli(['submit', BAKERY, '--remote', withMail.url, '--api-key', KEY]);
      const id = submitted.stdout.trim().split(' ')[0]!;
      const mailPage = await context.newPage();
      await signIn(mailPage, withMail.url, KEY);
      await mailPage.goto(`${withMail.url}/projects/${id}`);
      await expect.poll(() => mailPage.locator('#emails').innerText()).toMatch(/^None yet\./);
      await mailPage.getByRole('button', { name: 'Optimize', exact: true }).click();
      await mailPage.locator('#plan').waitFor({ state: 'visible', timeout: 30_000 });
      await mailPage.getByRole('button', { name: 'Dispatch' }).click();
      await mailPage.getByRole('button', { name: 'Confirm dispatch' }).click();
      // The bakery has one stop with an e-mail: Hôtel Le Royal.
      await smtp.waitFor(1);
      expect((smtp.received[0]!.to as any).value[0].address).toBe('reception@hotel-royal.example');
      await mailPage.locator('#emails').getByText('Sent').waitFor({ timeout: 12_000 });
      expect(await mailPage.locator('#emails').innerText()).toContain('reception@hotel-royal.example');
      await mailPage.close();
    } finally {
      await withMail.stop();
      await smtp.close();
    }
  });
});
