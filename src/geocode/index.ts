/**
 * Geocoding (decisions.md, "Geocoding"): the configured geocoder behind a disk cache keyed by the
 * normalized address, each address asked once, and the results reviewed.
 */
import { DiskCache } from '../cache/disk-cache.js';
import type { Point } from '../model/problem.js';
import { gazetteerGeocoder } from './gazetteer.js';
import { nominatimGeocoder } from './nominatim.js';
import { normalizeAddress } from './normalize.js';
import { reviewResults } from './review.js';
import type { GeocodeResult, Geocoder, GeocoderSettings } from './types.js';

export type { GeocodeResult, Geocoder, GeocoderSettings } from './types.js';
export { normalizeAddress } from './normalize.js';

export async function createGeocoder(settings: GeocoderSettings): Promise<Geocoder> {
  if (settings.name === 'gazetteer') return gazetteerGeocoder(settings.file ?? '');
  return nominatimGeocoder({
    url: settings.url ?? '',
    version: settings.version ?? 'unknown',
    ...(settings.email ? { email: settings.email } : {}),
  });
}

/**
 * One result per distinct address (in the order first given), from the cache where it has one;
 * a remote geocoder's answers are cached, a gazetteer (a local file) needs no cache.
 */
export async function geocodeAddresses(
  geocoder: Geocoder,
  settings: GeocoderSettings,
  addresses: string[],
  known: Point[],
  onEach?: (done: number, total: number) => void,
): Promise<Map<string, GeocodeResult>> {
  const distinct = [...new Map(addresses.map((address) => [normalizeAddress(address), address])).values()];
  const cache =
    geocoder.name === 'nominatim' && settings.cache !== false ? new DiskCache<GeocodeResult>('geocode', settings.cacheDir) : null;
  const keyOf = (address: string): string => DiskCache.keyOf([geocoder.name, settings.url ?? '', normalizeAddress(address)]);
  const found = new Map<string, GeocodeResult>();
  const missing: string[] = [];
  for (const address of distinct) {
    const cached = await cache?.get(keyOf(address));
    if (cached && Array.isArray(cached.candidates)) found.set(normalizeAddress(address), { ...cached, address });
    else missing.push(address);
  }
  let done = found.size;
  onEach?.(done, distinct.length);
  const fresh = await geocoder.geocode(missing, () => onEach?.(++done, distinct.length));
  for (const result of fresh) {
    // The geocoder's own answer is cached; the review depends on the other places, so it is done each time.
    if (result.problem !== 'failed') await cache?.set(keyOf(result.address), result);
    found.set(normalizeAddress(result.address), result);
  }
  const reviewed = reviewResults([...found.values()], known);
  return new Map(reviewed.map((result) => [normalizeAddress(result.address), result]));
}
