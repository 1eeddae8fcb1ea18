/**
 * Geocoders: a Nominatim-compatible API used as its policy asks (one request a second, an
 * identifying User-Agent, an e-mail when given, answers cached), a gazetteer file matched on the
 * normalized address, and the review of what came back (not found, ambiguous, outliers).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { geocodeAddresses, normalizeAddress } from '../../src/geocode/index.js';
import { gazetteerGeocoder } from '../../src/geocode/gazetteer.js';
import { nominatimGeocoder } from '../../src/geocode/nominatim.js';
import { reviewResults } from '../../src/geocode/review.js';
import { InputError } from '../../src/errors.js';
import { fakeNominatim, type FakeNominatim } from '../support/fake-nominatim.js';

const opened: FakeNominatim[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of opened.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function dir(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), 'routeplan-geocode-'));
  dirs.push(made);
  return made;
}

const LYON: Record<string, [number, number, string][]> = {
  '20 place bellecour, lyon': [[45.7578, 4.832, 'Place Bellecour, Lyon']],
  '1 rue de la république, lyon': [[45.764, 4.8357, 'Rue de la République, Lyon']],
  'gare, lyon': [
    [45.7605, 4.8597, 'Gare Part-Dieu, Lyon'],
    [45.7494, 4.8259, 'Gare de Perrache, Lyon'],
  ],
  paris: [[48.8566, 2.3522, 'Paris']],
};

describe('normalizeAddress', () => {
  it('ignores case, punctuation between words and spacing', () => {
    expect(normalizeAddress(' 20, Place  BELLECOUR;\u00a0Lyon. ')).toBe(normalizeAddress('20 place bellecour lyon'));
    expect(normalizeAddress('20 place bellecour')).not.toBe(normalizeAddress('21 place bellecour'));
  });
});

describe('Nominatim', () => {
  it('asks jsonv2 with five candidates, names routeplan and its version, passes the e-mail, and waits a second between requests', async () => {
    const server = await fakeNominatim(LYON);
    opened.push(server);
    const geocoder = nominatimGeocoder({ url: server.url, version: '9.8.7', email: 'ops@bakery.example', intervalMs: 300 });
    const results = await geocoder.geocode(['20 place Bellecour, Lyon', 'nowhere at all', 'Paris']);
    expect(results.map((result) => [result.point?.lat, result.problem])).toEqual([
      [45.7578, undefined],
      [undefined, 'not_found'],
      [48.8566, undefined],
    ]);
    const first = server.requests[0]!;
    expect(Object.fromEntries(first.query)).toMatchObject({
      q: '20 place Bellecour, Lyon',
      format: 'jsonv2',
      limit: '5',
      email: 'ops@bakery.example',
    });
    expect(first.headers['user-agent']).toMatch(/^routeplan\/9\.8\.7 /);
    for (let i = 1; i < server.requests.length; i++)
      expect(server.requests[i]!.at - server.requests[i - 1]!.at).toBeGreaterThanOrEqual(290);
  });

  it('retries a busy server, and caches answers on disk by the normalized address: asked once', async () => {
    const server = await fakeNominatim(LYON);
    opened.push(server);
    server.failNext([503]);
    const settings = { name: 'nominatim' as const, url: server.url, cacheDir: await dir() };
    const geocoder = nominatimGeocoder({ url: server.url, version: '1', intervalMs: 1, retryDelayMs: 1 });
    const first = await geocodeAddresses(geocoder, settings, ['20 place Bellecour, Lyon', '1 rue de la République, Lyon'], []);
    expect(server.requests).toHaveLength(3);
    const again = await geocodeAddresses(
      geocoder,
      settings,
      ['20, Place Bellecour  Lyon', '1 rue de la République, Lyon', '20 place bellecour, lyon'],
      [],
    );
    expect(server.requests).toHaveLength(3);
    expect(again.get(normalizeAddress('20 place bellecour lyon'))!.point).toEqual(
      first.get(normalizeAddress('20 place Bellecour, Lyon'))!.point,
    );
    await geocodeAddresses(geocoder, { ...settings, cache: false }, ['Paris'], []);
    expect(server.requests).toHaveLength(4);
  });
});

describe('a gazetteer', () => {
  it('matches addresses on their normalized form, and says which are not in it', async () => {
    const file = join(await dir(), 'places.csv');
    await writeFile(file, 'address,lat,lng\n"20 place Bellecour, Lyon",45.7578,4.832\n"Halles Paul Bocuse, Lyon",45.7628,4.8503\n');
    const geocoder = await gazetteerGeocoder(file);
    const [bellecour, missing] = await geocoder.geocode(['20, PLACE BELLECOUR lyon', 'Quai Rambaud, Lyon']);
    expect(bellecour!.point).toMatchObject({ lat: 45.7578, lng: 4.832 });
    expect(missing).toMatchObject({ problem: 'not_found', message: `"Quai Rambaud, Lyon" is not in the gazetteer ${file}` });
  });

  it('refuses a file without the address,lat,lng header or with a bad row, naming it', async () => {
    const file = join(await dir(), 'places.csv');
    await writeFile(file, 'where,lat,lng\nx,1,2\n');
    expect(((await gazetteerGeocoder(file).catch((error: unknown) => error)) as Error).message).toMatch(
      /expected the header address,lat,lng/,
    );
    await writeFile(file, 'address,lat,lng\nx,95,2\n');
    const bad = await gazetteerGeocoder(file).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(InputError);
    expect((bad as Error).message).toMatch(/row 2: expected an address and coordinates/);
  });
});

describe('the review of geocoded addresses', () => {
  const known = [
    { lat: 45.76, lng: 4.83 },
    { lat: 45.75, lng: 4.85 },
    { lat: 45.77, lng: 4.84 },
  ];

  it('marks candidates more than 2 km apart as ambiguous, keeping the first', () => {
    const [gare] = reviewResults(
      [
        {
          address: 'Gare, Lyon',
          point: { lat: 45.7605, lng: 4.8597, label: 'Part-Dieu' },
          candidates: [
            { lat: 45.7605, lng: 4.8597, label: 'Part-Dieu' },
            { lat: 45.7494, lng: 4.8259, label: 'Perrache' },
          ],
        },
      ],
      known,
    );
    expect(gare!.problem).toBe('ambiguous');
    expect(gare!.point!.label).toBe('Part-Dieu');
    expect(gare!.message).toMatch(/matches places 2\.9 km apart \("Part-Dieu" and "Perrache"\)/);
  });

  it('marks a place far from all the others as an outlier, and says when lat/lng look swapped', () => {
    const results = reviewResults(
      [
        {
          address: 'Paris',
          point: { lat: 48.8566, lng: 2.3522, label: 'Paris' },
          candidates: [{ lat: 48.8566, lng: 2.3522, label: 'Paris' }],
        },
        { address: 'Swapped', point: { lat: 4.835, lng: 45.76, label: 'x' }, candidates: [{ lat: 4.835, lng: 45.76, label: 'x' }] },
        { address: 'Near', point: { lat: 45.765, lng: 4.845, label: 'y' }, candidates: [{ lat: 45.765, lng: 4.845, label: 'y' }] },
      ],
      known,
    );
    expect(results.map((result) => result.problem)).toEqual(['outlier', 'outlier', undefined]);
    expect(results[0]!.message).toMatch(/^"Paris" landed 39\d km from the other stops; check the address/);
    expect(results[1]!.message).toMatch(/its latitude and longitude look swapped$/);
  });
});
