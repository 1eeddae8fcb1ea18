/** The project page lists the addresses the service could not place well (real Chromium, real service with a gazetteer). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, launchChromium, signIn, startWebService, type WebService } from './browser.js';

const KEY = 'geocoding-web-key-0123456789';
let browser: Browser;
let service: WebService;
let dir: string;

beforeAll(async () => {
  browser = await launchChromium();
  dir = await mkdtemp(join(tmpdir(), 'routeplan-web-geocode-'));
  const file = join(dir, 'places.csv');
  await writeFile(
    file,
    ['address,lat,lng', '"Dépôt, 12 quai Rambaud, Lyon",45.742,4.818', '"3 rue Saint-Jean, Lyon",45.7622,4.8271'].join('\n'),
  );
  service = await startWebService([KEY], 1_000, { geocoder: { name: 'gazetteer', file } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('geocoding on the project page', () => {
  it('lists each address not found, saying its stop is left out of optimization', async () => {
    const created = await apiCall(service, KEY, 'POST', '/v1.0/project', {
      name: 'Addresses',
      date: '2026-11-24',
      drivers: [{ name: 'Ana', start_location: { address: 'Dépôt, 12 quai Rambaud, Lyon' } }],
      stops: [
        { name: 'Saint-Jean', location: { address: '3 rue Saint-Jean, Lyon' } },
        { name: 'Nowhere', location: { address: '1 impasse Inconnue, Lyon' } },
      ],
    });
    expect(created.status).toBe(201);
    const page = await browser.newPage();
    await signIn(page, service.url, KEY);
    await page.goto(`${service.url}/projects/${created.json.id}`);
    await page.getByText('1 address to check:').waitFor({ timeout: 10_000 });
    const row = page.locator('#geocoding-body tbody tr');
    expect(await row.innerText()).toMatch(/^Nowhere\s+1 impasse Inconnue, Lyon\s+Not found: left out of optimization until fixed/);
    await page.close();
  });
});
