/**
 * A customer's day in real Chromium, against the real service and a real SMTP server on loopback:
 * the planned e-mail promises a quarter-hour window and carries a tracking link; the link opens that
 * stop's page on a phone (nothing of other customers); the live re-timing (its record and its
 * etaChanged event, made here as the live day makes them) shows on the page within its minute's
 * refresh, and a revised e-mail reaches the SMTP server once; without network the page keeps what it
 * showed; Done shows as delivered; the dispatcher sees each promise and link. axe-core finds
 * no WCAG 2.1 A/AA violation. Screenshots results/web/track-*.png.
 */
import { randomUUID } from 'node:crypto';
import { readFile, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../server/built.js';
import { SHOTS } from './browser.js';
import { apiCall, launchChromium, screenshot, signIn, startWebService, type WebService } from './browser.js';
import { startMailbox, type Mailbox } from '../support/mailbox.js';
import type { DispatchListener } from '../../src/server/services/dispatch/events.js';

declare const document: any;
declare const axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> };

const KEY = 'track-test-key-0123456789';
const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');

let browser: Browser;
let service: WebService;
let smtp: Mailbox;
let listener: DispatchListener;
let dataDir: string;
let projectId: string;
let project: any;
let dispatch: any;
let plan: any;
const breakage: string[] = [];

function place(name: string, lat: number, lng: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, location: { address: `${name}, 12 rue de la République, Lyon`, coords: { lat, lng } }, duration: 10, load: 1, ...extra };
}

const DOCUMENT = {
  name: 'Tuesday rounds',
  date: '2026-11-24',
  drivers: [
    { name: 'Camille', start_location: { coords: { lat: 45.76, lng: 4.83 } }, shift_start: '07:00', shift_end: '12:00', capacity: 6 },
  ],
  stops: [
    place('Boulangerie Nord', 45.79, 4.83, { phone_number: '+33 4 72 00 00 01', notes: 'Side door' }),
    place('Café du Parc', 45.78, 4.85, { email: 'parc@example.com' }),
    place('Hôtel Royal', 45.8, 4.84, { email: 'reception@royal.example' }),
    place('Épicerie Sud', 45.73, 4.83),
  ],
  settings: {},
};

const clock = (seconds: number): string =>
  `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor(seconds / 60) % 60).padStart(2, '0')}`;
const quarterWindow = (arrivalS: number): [number, number] => [
  Math.floor((arrivalS - 1800) / 900) * 900,
  Math.ceil((arrivalS + 1800) / 900) * 900,
];

function royal(): { stop: any; visit: any; index: number } {
  const stopId = project.stops.find((stop: any) => stop.name === 'Hôtel Royal').id;
  const visits = plan.routes[0].visits.filter((visit: any) => visit.kind === 'stop');
  const index = visits.findIndex((visit: any) => visit.stop === 'Hôtel Royal');
  return { stop: dispatch.stops.find((stop: any) => stop.stop_id === stopId), visit: visits[index], index };
}

/** The live day's re-timing as it lands in the dispatch record (the live branch's `eta_s`), then its event. */
async function retime(stopId: string, etaS: number): Promise<void> {
  const file = join(dataDir, 'dispatches', `${projectId}.json`);
  const record = JSON.parse(await readFile(file, 'utf8'));
  const stop = record.stops.find((entry: any) => entry.stop_id === stopId);
  stop.eta_s = etaS;
  await writeFile(file, JSON.stringify(record));
  const { email, name, address, promised, tracking_token, status } = stop;
  await listener.etaChanged({
    notice: { id: randomUUID(), at: new Date().toISOString() },
    owner: record.owner,
    project: record.project,
    stops: [
      {
        stop: { stop_id: stopId, name, address, email, start_s: null, finish_s: null, changed: false, promised, tracking_token, status },
        eta_s: etaS,
        late: false,
      },
    ],
  });
}

async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
  });
}

async function phonePage(): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    bypassCSP: true,
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => breakage.push(error.message));
  return page;
}

beforeAll(async () => {
  browser = await launchChromium();
  smtp = await startMailbox();
  dataDir = await mkdtemp(join(tmpdir(), 'routeplan-track-'));
  service = await startWebService([KEY], 1_000, {
    dataDir,
    smtp: { url: smtp.url, from: 'deliveries@bakery.example' },
    tapDispatchListener: (tapped) => (listener = tapped),
  });
  project = (await apiCall(service, KEY, 'POST', '/v1.0/project', DOCUMENT)).json;
  projectId = project.id;
  const started = await apiCall(service, KEY, 'POST', `/v1.0/project/${projectId}/optimize`);
  for (;;) {
    const action = await apiCall(service, KEY, 'GET', `/v2/schedules/${started.json.actionUuid}`);
    if (action.json.status !== 'pending') {
      plan = action.json.solution;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  dispatch = (await apiCall(service, KEY, 'POST', `/v1.0/project/${projectId}/dispatch`, {})).json;
  await smtp.waitFor(2);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await smtp?.close();
});

describe('a customer follows their delivery', () => {
  let page: Page;
  let link: string;

  it('gets a quarter-hour window and a tracking link by e-mail, and the link opens their own stop on a phone', async () => {
    expect(plan.summary.served).toBe(4);
    const { visit, index } = royal();
    const [start, end] = quarterWindow(visit.arrival_s);
    const mail = smtp.received.find((entry) => (entry.to as any).value[0].address === 'reception@royal.example')!;
    expect(mail.subject).toBe(`Your delivery on 2026-11-24: between ${clock(start)} and ${clock(end)}`);
    expect(mail.subject).toMatch(/between \d\d:(00|15|30|45) and \d\d:(00|15|30|45)$/);
    link = /Follow your delivery on the day: (\S+)/.exec(mail.text ?? '')![1]!;
    expect(link).toMatch(new RegExp(`^${service.url}/track/[A-Za-z0-9_-]{32}$`));

    page = await phonePage();
    await page.clock.install();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Hôtel Royal', level: 1 }).waitFor();
    expect(await page.locator('#track-from').innerText()).toBe('Delivery from Tuesday rounds');
    const card = page.getByRole('region', {
      name: index === 0 ? 'You are the next stop' : `${index} stop${index > 1 ? 's' : ''} before yours`,
    });
    await card.waitFor();
    expect(await card.locator('dd').allInnerTexts()).toEqual([`${clock(start)} – ${clock(end)}`, visit.arrival, String(index)]);
    const text = await page.locator('body').innerText();
    for (const other of ['Boulangerie Nord', 'Café du Parc', 'Épicerie Sud', 'Camille', 'République', '+33'])
      expect(text).not.toContain(other);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'track-phone-planned');
  });

  it('shows the live estimate running late within a minute, then the revised window the e-mail brings (one e-mail)', async () => {
    const { stop } = royal();
    const late = stop.promised.end_s + 40 * 60;
    await retime(stop.stop_id, late);
    await smtp.waitFor(3);
    const revised = smtp.received[2]!;
    const [start, end] = quarterWindow(late);
    expect((revised.to as any).value[0].address).toBe('reception@royal.example');
    expect(revised.subject).toBe(`New time for your delivery on 2026-11-24: between ${clock(start)} and ${clock(end)}`);
    expect(revised.text).toContain(`Follow your delivery: ${link}`);
    await page.clock.fastForward(61_000);
    await expect.poll(() => page.locator('.track-facts dd').first().innerText()).toBe(`${clock(start)} – ${clock(end)}`);
    expect(await page.locator('.track-facts dd').nth(1).innerText()).toBe(clock(late));
    expect(await page.locator('.track-line').innerText()).toBe(`On time: expected between ${clock(start)} and ${clock(end)}.`);
    await screenshot(page, 'track-phone-revised');

    // The estimate moves again, within the hour: the page follows, no second e-mail.
    await retime(stop.stop_id, late + 3600);
    await page.clock.fastForward(61_000);
    await page.getByText(`Running later than we said: now expected around ${clock(late + 3600)}.`).waitFor();
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'track-phone-late');
    // The part worth showing, for the README (docs/images/track-phone.png).
    await page.screenshot({ path: join(SHOTS, 'track-phone-card.png'), clip: { x: 0, y: 0, width: 390, height: 470 } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received).toHaveLength(3);

    // Without network the page keeps what it showed and says it is not fresh.
    await page.context().setOffline(true);
    await page.clock.fastForward(61_000);
    await page.getByText('Cannot reach the service: check your connection.', { exact: false }).waitFor();
    expect(await page.locator('.track-facts dd').nth(1).innerText()).toBe(clock(late + 3600));
    await page.context().setOffline(false);
  });

  it('shows the delivery once the driver marks it done, and the desktop layout stays readable', async () => {
    const { stop } = royal();
    const driver = dispatch.drivers[0];
    const reply = await fetch(`${driver.url}/stops/${stop.stop_id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'done' }),
    });
    expect(reply.status).toBe(200);
    await page.clock.fastForward(61_000);
    await page.getByRole('heading', { name: 'Delivered', level: 2 }).waitFor();
    expect(await page.getByText(/^Your order was delivered at \d\d:\d\d\.$/).count()).toBe(1);
    await screenshot(page, 'track-phone-done');

    const desktop = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true })).newPage();
    desktop.on('pageerror', (error) => breakage.push(error.message));
    const other = cafeLink();
    await desktop.goto(other);
    await desktop.getByRole('heading', { name: 'Café du Parc', level: 1 }).waitFor();
    expect(await violations(desktop)).toEqual([]);
    await screenshot(desktop, 'track-desktop');
    const unknown = await desktop.goto(`${service.url}/track/${'Z'.repeat(32)}`);
    expect(unknown!.status()).toBe(404);
    await desktop.getByText('This tracking link is not valid.', { exact: false }).waitFor();
    expect(breakage).toEqual([]);
  });

  it('shows the dispatcher what each customer was promised, with their tracking page, and the revised e-mail in the outbox', async () => {
    const desk = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true })).newPage();
    desk.on('pageerror', (error) => breakage.push(error.message));
    await signIn(desk, service.url, KEY);
    await desk.goto(`${service.url}/projects/${projectId}`);
    const row = desk.locator('#dispatch-stops-table tbody tr', { hasText: 'Hôtel Royal' });
    await row.waitFor({ timeout: 15_000 });
    const promised = (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}/dispatch`)).json.stops.find(
      (stop: any) => stop.stop_id === royal().stop.stop_id,
    ).promised;
    expect(await row.locator('td.customer-promise').innerText()).toBe(
      `${clock(promised.start_s)}–${clock(promised.end_s)} · Tracking page`,
    );
    expect(await row.getByRole('link', { name: 'Tracking page: Hôtel Royal' }).getAttribute('href')).toBe(link);
    // Hôtel Royal's revision, and (the live re-timing of the rest after its Done, two days after the project's date) Café du Parc's.
    await desk.locator('#emails').getByText('Revised window: New time for your delivery', { exact: false }).first().waitFor();
    expect(await violations(desk)).toEqual([]);
    await desk.locator('#dispatch-stops').screenshot({ path: join(SHOTS, 'track-dispatcher-promises.png') });
    expect(breakage).toEqual([]);
  });
});

/** Café du Parc's link, from its own e-mail. */
function cafeLink(): string {
  const mail = smtp.received.find((entry) => (entry.to as any).value[0].address === 'parc@example.com')!;
  return /Follow your delivery on the day: (\S+)/.exec(mail.text ?? '')![1]!;
}
