/**
 * The live day from end to end, each branch's part joined in the real service: a driver's Done
 * 40 minutes after the first stop's planned finish re-times the rest (the live estimates), the next
 * customer's estimate leaves the window their e-mail promised, one revised e-mail reaches a real SMTP
 * server, and the tracking link of the first e-mail opens, in real Chromium on a phone, that stop's
 * page with the new estimate and the revised window.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailbox, type Mailbox } from '../support/mailbox.js';
import { apiCall, launchChromium, screenshot, startWebService, type WebService } from './browser.js';
import { clock, liveDay } from './live-clock.js';

const KEY = 'live-day-test-key-0123456789';
const DEPOT = { lat: 45.7578, lng: 4.832 };
/** The shift started 50 minutes ago: the first stop (at the depot, 10 min) was due to end 40 minutes ago. */
const DAY = liveDay(50);
/** ± 15 min widened to quarter hours ends at most 30 min after the planned arrival: 40 min late leaves it. */
const MARGIN_MIN = 15;

function stop(name: string, sequence: number, lat: number, lng: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, location: { coords: { lat, lng } }, duration: 10, driver: 'Camille', sequence, ...extra };
}

const DOCUMENT = {
  name: 'Live rounds',
  date: DAY.date,
  settings: { time_zone: DAY.timeZone, strict_start: true },
  drivers: [{ name: 'Camille', start_location: { coords: DEPOT }, shift_start: clock(DAY.shiftStartS), shift_end: '23:59' }],
  stops: [
    stop('Halles depot counter', 1, DEPOT.lat, DEPOT.lng),
    stop('Café Bellecour', 2, 45.7578, 4.842, { email: 'bellecour@example.com' }),
    stop('Boulangerie Ainay', 3, 45.7518, 4.828),
  ],
};

let browser: Browser;
let service: WebService;
let smtp: Mailbox;
let dispatch: any;

async function dispatchView(projectId: string): Promise<any> {
  return (await apiCall(service, KEY, 'GET', `/v1.0/project/${projectId}/dispatch`)).json;
}

beforeAll(async () => {
  expect(DAY.shiftStartS).toBeGreaterThan(0);
  browser = await launchChromium();
  smtp = await startMailbox();
  service = await startWebService([KEY], 1_000, {
    smtp: { url: smtp.url, from: 'deliveries@bakery.example' },
    etaMarginMinutes: MARGIN_MIN,
  });
  const created = await apiCall(service, KEY, 'POST', '/v1.0/project', DOCUMENT);
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const started = await apiCall(service, KEY, 'POST', `/v1.0/project/${created.json.id}/optimize`);
  for (;;) {
    const action = await apiCall(service, KEY, 'GET', `/v2/schedules/${started.json.actionUuid}`);
    if (action.json.status !== 'pending') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  dispatch = (await apiCall(service, KEY, 'POST', `/v1.0/project/${created.json.id}/dispatch`, {})).json;
  dispatch.projectId = created.json.id;
  await smtp.waitFor(1);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await smtp?.close();
});

describe('the live day, end to end', () => {
  it('a Done 40 min late re-times the rest, sends one revised e-mail, and the tracking link shows the new estimate', async () => {
    const [first, second] = dispatch.stops;
    const promised = second.promised;
    expect(promised.end_s - second.arrival_s).toBeLessThanOrEqual(30 * 60);
    const planned = smtp.received[0]!;
    expect(planned.subject).toBe(`Your delivery on ${DAY.date}: between ${clock(promised.start_s)} and ${clock(promised.end_s)}`);
    const link = /Follow your delivery on the day: (\S+)/.exec(planned.text ?? '')![1]!;

    const token = new URL(dispatch.drivers[0].url).pathname.split('/').pop();
    const done = await apiCall(service, KEY, 'POST', `/drivers/${token}/stops/${first.stop_id}`, { status: 'done' });
    expect(done.status).toBe(200);

    const after = await dispatchView(dispatch.projectId);
    const delay = after.stops[1].eta_s - second.arrival_s;
    // 40 min, and the seconds this test took to get here on a busy machine.
    expect(delay).toBeGreaterThanOrEqual(2400);
    expect(delay).toBeLessThan(2400 + 300);
    expect(after.stops[1].eta_s).toBeGreaterThan(promised.end_s);

    await smtp.waitFor(2);
    const revised = smtp.received[1]!;
    expect((revised.to as any).value[0].address).toBe('bellecour@example.com');
    const eta = after.stops[1].eta_s;
    const start = Math.floor((eta - MARGIN_MIN * 60) / 900) * 900;
    const end = Math.ceil((eta + MARGIN_MIN * 60) / 900) * 900;
    expect(revised.subject).toBe(`New time for your delivery on ${DAY.date}: between ${clock(start)} and ${clock(end)}`);
    expect(revised.text).toContain(link);

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Café Bellecour', level: 1 }).waitFor();
    const facts = await page.locator('.track-facts dd').allInnerTexts();
    expect(facts.slice(0, 2)).toEqual([`${clock(start)} – ${clock(end)}`, clock(eta)]);
    await screenshot(page, 'live-day-tracking-phone');
    await context.close();
    // One revised message for the stop: the estimate does not move again, nothing more is sent.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received).toHaveLength(2);
  });
});
