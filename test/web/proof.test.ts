/**
 * Proof of delivery, failure reasons and the offline driver page in real Chromium, against the real
 * service (decisions.md, "The live day"): a driver marks a stop Done with a photo from the file
 * input, a signature drawn with the mouse and the recipient's name, and the dispatcher's project
 * page shows them (the API's dispatch record has the URLs: the owner fetches them, another key
 * gets 404); with `settings.proof: photo` Done without a photo is refused with a clear message;
 * Failed takes a reason from the list; the page reloads offline with its route and a Done tapped
 * offline (photo included) arrives once back online. axe-core finds 0 WCAG 2.1 A/AA violations on
 * the Done and Failed steps and on the project page with proof. Screenshots in results/web/proof-*.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../server/built.js';
import { checkPlan } from '../support/checker.js';
import { loadProblemDocument } from '../../src/input/index.js';
import { checkImage } from '../../src/server/services/dispatch/proof-image.js';
import { apiCall, launchChromium, screenshot, signIn, startWebService, type WebService } from './browser.js';

const KEY = 'proof-test-key-0123456789';
const OTHER_KEY = 'proof-other-key-0123456789';
const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');

declare const document: any;
declare const axe: { run: (context: unknown, options: unknown) => Promise<{ violations: any[] }> };

function place(name: string, lat: number, lng: number): Record<string, unknown> {
  return { name, location: { address: `${name}, 3 quai Saint-Antoine, Lyon`, coords: { lat, lng } }, duration: 10, load: 1 };
}

const DOCUMENT = {
  name: 'Thursday florist rounds',
  date: '2026-11-26',
  drivers: [{ name: 'Inès', start_location: { coords: { lat: 45.76, lng: 4.83 } }, shift_start: '07:00', shift_end: '13:00' }],
  stops: [
    place('Fleurs du Parc', 45.77, 4.85),
    place('Hôtel Bellecour', 45.758, 4.832),
    place('Clinique Saint-Jean', 45.762, 4.827),
    place('Mairie du 2e', 45.752, 4.829),
    place('Atelier Croix-Rousse', 45.775, 4.831),
  ],
  settings: {},
};

let browser: Browser;
let service: WebService;
let phone: BrowserContext;
let page: Page;
let projectId: string;
let driverUrl: string;
let stopsInOrder: string[];
let project: any;
const breakage: string[] = [];

async function violations(checked: Page): Promise<string[]> {
  await checked.addScriptTag({ path: AXE });
  const found = await checked.evaluate(async () => {
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.flatMap((v: any) => v.nodes.map((n: any) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary}`));
  });
  return found as string[];
}

async function dispatchRecord(): Promise<Map<string, any>> {
  const view = (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}/dispatch`)).json;
  return new Map(view.stops.map((stop: any) => [stop.stop_id, stop]));
}

function stopIdOf(name: string): string {
  return project.stops.find((stop: any) => stop.name === name).id;
}

function card(index: number): Locator {
  return page.getByRole('region', { name: `Stop ${index + 1}: ${stopsInOrder[index]}` });
}

/** A camera-sized JPEG (3000×2000, as a phone takes them), made by Chromium's own encoder. */
async function cameraJpeg(): Promise<Buffer> {
  const dataUrl: string = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 3000;
    canvas.height = 2000;
    const context = canvas.getContext('2d');
    const gradient = context.createLinearGradient(0, 0, 3000, 2000);
    gradient.addColorStop(0, '#b45309');
    gradient.addColorStop(1, '#1e3a8a');
    context.fillStyle = gradient;
    context.fillRect(0, 0, 3000, 2000);
    context.fillStyle = '#fef3c7';
    context.fillRect(1100, 700, 800, 600); // a parcel on the doorstep
    return canvas.toDataURL('image/jpeg', 0.95);
  });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

/** A signature as a person draws it: the mouse pressed, moved in a wave across the pad, released. */
async function drawSignature(pad: Locator): Promise<void> {
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height * 0.6);
  await page.mouse.down();
  for (let step = 1; step <= 24; step += 1) {
    await page.mouse.move(box.x + 20 + step * ((box.width - 40) / 24), box.y + box.height * (0.5 + 0.3 * Math.sin(step / 2)));
  }
  await page.mouse.up();
}

beforeAll(async () => {
  browser = await launchChromium();
  service = await startWebService([KEY, OTHER_KEY], 1_000);
  const created = await apiCall(service, KEY, 'POST', '/v1.0/project', DOCUMENT);
  projectId = created.json.id;
  project = created.json;
  const started = await apiCall(service, KEY, 'POST', `/v1.0/project/${projectId}/optimize`);
  let plan: any;
  for (;;) {
    const action = await apiCall(service, KEY, 'GET', `/v2/schedules/${started.json.actionUuid}`);
    if (action.json.status !== 'pending') {
      plan = action.json.solution;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(checkPlan(loadProblemDocument(DOCUMENT, { expect: 'project' }).problem, plan)).toEqual([]);
  stopsInOrder = plan.routes[0].visits.filter((visit: any) => visit.kind === 'stop').map((visit: any) => visit.stop);
  expect(stopsInOrder).toHaveLength(5);
  const dispatch = (await apiCall(service, KEY, 'POST', `/v1.0/project/${projectId}/dispatch`, {})).json;
  driverUrl = dispatch.drivers[0].url;
  phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    bypassCSP: true,
  });
  page = await phone.newPage();
  page.on('pageerror', (error) => breakage.push(error.message));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe('proof of delivery on the driver page', () => {
  it('takes a photo, a drawn signature and the recipient’s name on Done; the API has them, for the owner only', async () => {
    await page.goto(driverUrl);
    const first = card(0);
    await first.getByRole('button', { name: 'Done' }).click();
    await first.getByRole('heading', { name: 'Proof of delivery' }).waitFor();
    expect(await first.getByText('A photo, a signature and the name are optional.').isVisible()).toBe(true);
    expect(await violations(page)).toEqual([]);
    await first.getByLabel('Photo').setInputFiles({ name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: await cameraJpeg() });
    const preview = first.getByRole('img', { name: 'The photo taken' });
    await expect.poll(() => preview.evaluate((img: any) => img.complete && img.naturalWidth)).toBe(3000);
    await drawSignature(first.getByLabel('Signature'));
    await first.getByText('Signed', { exact: true }).waitFor();
    await first.getByLabel('Recipient name').fill('Mme Durand');
    await screenshot(page, 'proof-done-step-phone', true);
    await first.screenshot({ path: join(ROOT, 'results/web/proof-done-step-card.png') });
    await first.getByRole('button', { name: 'Mark done' }).click();
    await first.getByText(/^Done at \d\d:\d\d · photo, signature, received by Mme Durand$/).waitFor({ timeout: 20_000 });

    const stop = (await dispatchRecord()).get(stopIdOf(stopsInOrder[0]!));
    expect(stop.status).toBe('done');
    const base = `/v1.0/project/${projectId}/dispatch/stops/${stop.stop_id}`;
    expect(stop.proof).toEqual({ photo_url: `${base}/photo`, signature_url: `${base}/signature`, recipient: 'Mme Durand' });
    const photo = await fetch(`${service.url}${stop.proof.photo_url}`, { headers: { authorization: `Bearer ${KEY}` } });
    const bytes = new Uint8Array(await photo.arrayBuffer());
    // Downscaled on the phone: a JPEG of at most 1600 px and 2 MB, not the 3000×2000 original.
    expect(checkImage(bytes, 2_000_000)).toMatchObject({ type: 'image/jpeg', width: 1600, height: 1067 });
    const signature = await fetch(`${service.url}${stop.proof.signature_url}`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(checkImage(new Uint8Array(await signature.arrayBuffer()), 200_000).type).toBe('image/png');
    const stranger = await fetch(`${service.url}${stop.proof.photo_url}`, { headers: { authorization: `Bearer ${OTHER_KEY}` } });
    expect(stranger.status).toBe(404);
    expect((await fetch(`${service.url}${stop.proof.photo_url}`)).status).toBe(401);
  });

  it('shows the dispatcher the photo (opening full size), the signature and the name under Stop progress', async () => {
    const desk = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    const dispatcher = await desk.newPage();
    await signIn(dispatcher, service.url, KEY);
    await dispatcher.goto(`${service.url}/projects/${projectId}`);
    const row = dispatcher.locator(`#dispatch-stops-table tr[data-stop-id="${stopIdOf(stopsInOrder[0]!)}"]`);
    const thumbnail = row.getByRole('img', { name: `Photo of the delivery at ${stopsInOrder[0]} (opens full size)` });
    await thumbnail.waitFor();
    await expect.poll(() => thumbnail.evaluate((img: any) => img.complete && img.naturalWidth)).toBe(1600);
    const signature = row.getByRole('img', { name: `Signature for ${stopsInOrder[0]}` });
    await expect.poll(() => signature.evaluate((img: any) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await row.getByText('Received by Mme Durand').isVisible()).toBe(true);
    expect(await row.getByRole('link', { name: /Photo of the delivery/ }).getAttribute('href')).toMatch(/\/photo$/);
    await row.scrollIntoViewIfNeeded();
    await screenshot(dispatcher, 'proof-dispatcher-desktop');
    expect(await violations(dispatcher)).toEqual([]);
    await desk.close();
  });

  it('with settings.proof: photo, says so before Done and refuses Done without a photo, with a clear message', async () => {
    const refused = await apiCall(service, KEY, 'PATCH', `/v1.0/project/${projectId}`, { settings: { proof: 'picture' } });
    expect([refused.status, refused.json.error.details[0].path]).toEqual([400, 'settings.proof']);
    // The dispatcher sets it in Edit project.
    const desk = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const dispatcher = await desk.newPage();
    await signIn(dispatcher, service.url, KEY);
    await dispatcher.goto(`${service.url}/projects/${projectId}`);
    await dispatcher.getByRole('button', { name: 'Edit project' }).click();
    await dispatcher.getByLabel('Proof of delivery on Done').selectOption({ label: 'A photo' });
    await dispatcher.getByRole('button', { name: 'Save' }).click();
    await dispatcher.getByRole('dialog').waitFor({ state: 'detached' });
    expect((await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}`)).json.settings.proof).toBe('photo');
    await desk.close();
    await page.goto(driverUrl);
    const second = card(1);
    await second.getByRole('button', { name: 'Done' }).click();
    await second.getByText('Required: a photo of the delivery.').waitFor();
    await second.getByLabel('Recipient name').fill('The concierge');
    await second.getByRole('button', { name: 'Mark done' }).click();
    await second.getByRole('alert').getByText('Take a photo of the delivery first: this project requires one.').waitFor();
    await screenshot(page, 'proof-photo-required-phone');
    expect(await violations(page)).toEqual([]);
    expect((await dispatchRecord()).get(stopIdOf(stopsInOrder[1]!)).status).toBe('planned');
    await second.getByRole('button', { name: 'Cancel' }).click();
    await second.getByRole('button', { name: 'Done' }).waitFor();
    expect(await second.getByRole('button', { name: 'Done' }).evaluate((button: any) => button === document.activeElement)).toBe(true);
  });

  it('takes a failure reason from the list', async () => {
    const third = card(2);
    await third.getByRole('button', { name: 'Failed' }).click();
    await third.getByRole('radio', { name: 'Not at home' }).waitFor();
    expect(await violations(page)).toEqual([]);
    await third.getByRole('radio', { name: 'Not at home' }).check();
    await third.getByLabel('Details').fill('Left a card in the letterbox');
    await screenshot(page, 'proof-failed-step-phone');
    await third.getByRole('button', { name: 'Save' }).click();
    await third.getByText(/^Failed at \d\d:\d\d: Not at home — Left a card in the letterbox$/).waitFor();
    await expect.poll(async () => (await dispatchRecord()).get(stopIdOf(stopsInOrder[2]!))?.reason_code).toBe('not_at_home');
    expect((await dispatchRecord()).get(stopIdOf(stopsInOrder[2]!)).reason).toBe('Left a card in the letterbox');
  });
});

describe('the driver page offline', () => {
  it('reloads without network with its route, and a Done tapped offline (with its photo) arrives once back online', async () => {
    await page.goto(driverUrl);
    await page.getByText('Saved on this phone: opens without network.').waitFor({ timeout: 20_000 });
    await phone.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Inès’s route', level: 1 }).waitFor();
    await page.getByText(/^Offline: showing the route as of \d\d:\d\d\.$/).waitFor();
    expect(await page.locator('section.stop-card').count()).toBe(5);
    const fourth = card(3);
    await fourth.getByRole('button', { name: 'Done' }).click();
    await fourth.getByLabel('Photo').setInputFiles({ name: 'door.jpg', mimeType: 'image/jpeg', buffer: await cameraJpeg() });
    await fourth.getByRole('button', { name: 'Mark done' }).click();
    await page.getByText('Waiting for network: 1 change not sent yet.').waitFor();
    await page.evaluate(() => document.defaultView.scrollTo(0, 0));
    await screenshot(page, 'proof-offline-phone');
    expect(await violations(page)).toEqual([]);
    expect((await dispatchRecord()).get(stopIdOf(stopsInOrder[3]!)).status).toBe('planned');

    await phone.setOffline(false);
    // A phone tells the page its network is back; Chromium's offline emulation does not, so the test does.
    await page.evaluate(() => document.defaultView.dispatchEvent(new Event('online')));
    await expect.poll(async () => (await dispatchRecord()).get(stopIdOf(stopsInOrder[3]!))?.status, { timeout: 10_000 }).toBe('done');
    const stop = (await dispatchRecord()).get(stopIdOf(stopsInOrder[3]!));
    const photo = await fetch(`${service.url}${stop.proof.photo_url}`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(photo.status).toBe(200);
    expect(checkImage(new Uint8Array(await photo.arrayBuffer()), 2_000_000).width).toBe(1600);
    await expect.poll(() => page.locator('#waiting').isVisible()).toBe(false);
    expect(breakage).toEqual([]);
  });

  it('keeps one versioned cache: a new worker deletes the caches of older versions when it takes over', async () => {
    const fresh = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const other = await fresh.newPage();
    await other.goto(`${service.url}/`);
    await other.evaluate(async () => {
      const stale = await document.defaultView.caches.open('routeplan-driver-0123456789abcdef');
      await stale.put('/drivers/stale-page', new document.defaultView.Response('<p>an old page</p>'));
    });
    await other.goto(driverUrl);
    await other.getByText('Saved on this phone: opens without network.').waitFor({ timeout: 20_000 });
    const names: string[] = await other.evaluate(() => document.defaultView.caches.keys());
    const worker = await fetch(`${service.url}/drivers/sw.js`);
    const versions = (await worker.text()).match(/\b[0-9a-f]{16}\b/g) ?? [];
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    expect(names).toHaveLength(1);
    expect(versions.map((version) => `routeplan-driver-${version}`)).toContain(names[0]);
    await fresh.close();
  });

  it('leaves the dispatcher a day of reports with their proof and reasons (screenshot for the README)', async () => {
    const desk = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    const dispatcher = await desk.newPage();
    await signIn(dispatcher, service.url, KEY);
    await dispatcher.goto(`${service.url}/projects/${projectId}`);
    const table = dispatcher.locator('#dispatch-stops-table');
    await table.getByText('Not at home — Left a card in the letterbox').waitFor();
    for (const image of await table.getByRole('img').all()) {
      await expect.poll(() => image.evaluate((img: any) => img.complete && img.naturalWidth > 0)).toBe(true);
    }
    expect(await table.getByRole('img', { name: /^Photo of the delivery/ }).count()).toBe(2);
    await dispatcher.locator('#dispatch-stops').screenshot({ path: join(ROOT, 'results/web/proof-stop-progress.png') });
    // The driver page on a desktop screen, its Done step open: one readable column.
    await dispatcher.goto(driverUrl);
    const last = dispatcher.getByRole('region', { name: `Stop 5: ${stopsInOrder[4]}` });
    await last.getByRole('button', { name: 'Done' }).click();
    await last.getByText('Required: a photo of the delivery.').waitFor();
    await screenshot(dispatcher, 'proof-done-step-desktop');

    // A photo that hardly compresses (a 12-megapixel camera's noise) still leaves the phone at 2 MB at most.
    const noisy: string = await dispatcher.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 4000;
      canvas.height = 3000;
      const context = canvas.getContext('2d');
      const pixels = context.createImageData(4000, 3000);
      for (let i = 0; i < pixels.data.length; i += 1) pixels.data[i] = i % 4 === 3 ? 255 : (i * 2654435761) >>> 24;
      context.putImageData(pixels, 0, 0);
      return canvas.toDataURL('image/jpeg', 1);
    });
    const original = Buffer.from(noisy.split(',')[1]!, 'base64');
    expect(original.length).toBeGreaterThan(20_000_000);
    await last.getByLabel('Photo').setInputFiles({ name: 'IMG_2077.jpg', mimeType: 'image/jpeg', buffer: original });
    await last.getByRole('button', { name: 'Mark done' }).click();
    await last.getByText(/^Done at \d\d:\d\d · photo$/).waitFor({ timeout: 20_000 });
    const stop = (await dispatchRecord()).get(stopIdOf(stopsInOrder[4]!));
    const photo = new Uint8Array(
      await (await fetch(`${service.url}${stop.proof.photo_url}`, { headers: { authorization: `Bearer ${KEY}` } })).arrayBuffer(),
    );
    expect(photo.length).toBeLessThanOrEqual(2_000_000);
    expect(checkImage(photo, 2_000_000)).toMatchObject({ type: 'image/jpeg' });
    expect(Math.max(checkImage(photo, 2_000_000).width, checkImage(photo, 2_000_000).height)).toBeLessThanOrEqual(1600);
    await desk.close();
  });
});
