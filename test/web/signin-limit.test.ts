/**
 * Issue 27 (6), in the browser: past the limit on wrong keys per address, the sign-in form says so
 * (a clear message, not the API's JSON), and a right key typed meanwhile is refused the same way;
 * a driver page opened from a limited network says why its route does not load yet.
 * Real Chromium against the real service; screenshots at desktop and phone sizes; axe-core finds
 * no WCAG 2.1 A/AA violation on the page with the message.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../server/built.js';
import { apiCall, launchChromium, screenshot, startWebService, type WebService } from './browser.js';

const KEY = 'signin-limit-key-0123456789';
const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');
/** A small limit keeps the test short; the rule is the same at 20. */
const MAX_FAILURES = 3;

let browser: Browser;
let service: WebService;

declare const axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
declare const document: unknown;

beforeAll(async () => {
  browser = await launchChromium();
  service = await startWebService([KEY], 1_000, { guessLimits: { maxFailures: MAX_FAILURES } });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

async function signInWith(page: Page, key: string): Promise<void> {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState('load');
}

/** The one visible alert's text, spaces collapsed. */
async function alertText(page: Page): Promise<string> {
  const alert = page.getByRole('alert');
  await alert.waitFor();
  return ((await alert.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

async function wcagViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((violation) => `${violation.id} on ${violation.nodes.length} element(s)`);
  });
}

describe('the sign-in page past the limit on wrong keys (issue 27, 6)', () => {
  it('says that too many wrong keys were tried, refuses even the right key for now, and has no WCAG violation', async () => {
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 800 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const page = await (await browser.newContext({ viewport, bypassCSP: true })).newPage();
      await page.goto(`${service.url}/`);
      if (name === 'desktop') {
        for (let attempt = 1; attempt <= MAX_FAILURES; attempt++) {
          await signInWith(page, `wrong-key-${attempt}`);
          expect(await alertText(page)).toBe('That API key was not accepted. Check it and try again.');
        }
        await signInWith(page, 'wrong-key-again');
      }
      await signInWith(page, KEY);
      expect(new URL(page.url()).searchParams.get('signin')).toBe('limited');
      expect(await alertText(page)).toBe('Too many wrong API keys were tried from this network. Wait a minute, then sign in again.');
      expect(await page.getByText('That API key was not accepted').isVisible()).toBe(false);
      expect(await page.getByLabel('API key').evaluate((input) => input === (input.ownerDocument as any).activeElement)).toBe(true);
      await screenshot(page, `edge-signin-limited-${name}`);
      expect(await wcagViolations(page)).toEqual([]);
      await page.context().close();
    }
  });
});

describe('the driver page on a network past the limit (issue 27, 6)', () => {
  it('says that too many wrong links were opened from this network, instead of "no network"', async () => {
    const drivers = await startWebService([KEY], 1_000, { guessLimits: { maxFailures: MAX_FAILURES } });
    try {
      const project = {
        name: 'Limited round',
        date: '2026-11-26',
        drivers: [{ name: 'Camille', start_location: { coords: { lat: 45.7578, lng: 4.832 } }, shift_start: '07:00', shift_end: '12:00' }],
        stops: [{ name: 'Stop 1', location: { coords: { lat: 45.76, lng: 4.84 } }, duration: 5 }],
      };
      const id = (await apiCall(drivers, KEY, 'POST', '/v1.0/project', project)).json.id;
      const started = await apiCall(drivers, KEY, 'POST', `/v1.0/project/${id}/optimize`);
      while ((await apiCall(drivers, KEY, 'GET', `/v2/schedules/${started.json.actionUuid}`)).json.status === 'pending') {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const driverUrl: string = (await apiCall(drivers, KEY, 'POST', `/v1.0/project/${id}/dispatch`, {})).json.drivers[0].url;
      // Someone on this network (127.0.0.1, as the browser) guesses links.
      for (let guess = 0; guess <= MAX_FAILURES; guess++) await fetch(`${drivers.url}/drivers/guess${guess}/route`);
      const page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true })).newPage();
      await page.goto(driverUrl);
      expect(await alertText(page)).toBe(
        'Too many wrong links were opened from this network. Your route will load by itself in a minute or two.',
      );
      await screenshot(page, 'edge-driver-limited-phone');
      expect(await wcagViolations(page)).toEqual([]);
      await page.context().close();
    } finally {
      await drivers.stop();
    }
  }, 60_000);
});
