/**
 * A Nominatim-compatible search API (`GET {url}/search?q=…&format=jsonv2&limit=5`), used as its
 * usage policy asks: at most one request per second, a User-Agent naming routeplan and its version,
 * an optional contact e-mail, and answers cached (the caller's DiskCache).
 *
 * Facts relied on (https://nominatim.org/release-docs/latest/api/Search/ and
 * https://operations.osmfoundation.org/policies/nominatim/): `q` is a free-form query; `format=jsonv2`
 * answers a JSON array of places with `lat` and `lon` as strings, `display_name` and `importance`,
 * best first, and `[]` when nothing matches; `limit` caps the candidates (default 10); `email`
 * identifies the caller; the public server allows one request per second, asks for an identifying
 * User-Agent and for results to be cached.
 */
import { callProvider } from '../travel/remote.js';
import { RoutingError } from '../errors.js';
import type { GeocodeCandidate, GeocodeResult, Geocoder } from './types.js';

export interface NominatimOptions {
  url: string;
  email?: string;
  /** routeplan's version, for the User-Agent. */
  version: string;
  /** The least time between two requests (default 1,000 ms, the public server's policy). */
  intervalMs?: number;
  retryDelayMs?: number;
}

const CANDIDATES = 5;

export function nominatimGeocoder(options: NominatimOptions): Geocoder {
  const interval = options.intervalMs ?? 1_000;
  let nextSlot = 0;
  /**
   * Requests go one after another, each `interval` after the previous one ended: however long a
   * connection takes, the server never sees two within the interval.
   */
  const waitTurn = async (): Promise<void> => {
    const wait = nextSlot - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  };
  const search = async (address: string): Promise<GeocodeResult> => {
    await waitTurn();
    const reply = await callProvider({
      provider: 'Nominatim',
      url: searchUrl(options, address),
      init: {
        method: 'GET',
        headers: { 'user-agent': `routeplan/${options.version} (route planner; https://www.npmjs.com/package/routeplan)` },
      },
      timeoutMs: 30_000,
      retries: 3,
      retryDelayMs: Math.max(options.retryDelayMs ?? 1_000, interval),
    }).finally(() => {
      nextSlot = Date.now() + interval;
    });
    if (reply.status !== 200 || !Array.isArray(reply.body)) {
      throw new RoutingError(`Nominatim at ${options.url} answered HTTP ${reply.status} for "${address}"`, 'geocoding_failed', [
        { path: 'geocoder', message: `HTTP ${reply.status}` },
      ]);
    }
    const candidates = reply.body.map(candidateOf).filter((candidate): candidate is GeocodeCandidate => candidate !== null);
    if (candidates.length === 0) return { address, candidates, problem: 'not_found', message: `"${address}" was not found` };
    return { address, point: candidates[0]!, candidates };
  };
  return {
    name: 'nominatim',
    async geocode(addresses, onEach) {
      const results: GeocodeResult[] = [];
      for (const address of addresses) {
        results.push(await search(address));
        onEach?.(results.at(-1)!, results.length, addresses.length);
      }
      return results;
    },
  };
}

function searchUrl(options: NominatimOptions, address: string): string {
  const query = new URLSearchParams({ q: address, format: 'jsonv2', limit: String(CANDIDATES), addressdetails: '0' });
  if (options.email) query.set('email', options.email);
  return `${options.url.replace(/\/+$/, '')}/search?${query.toString()}`;
}

/** jsonv2 gives coordinates as strings. */
function candidateOf(place: unknown): GeocodeCandidate | null {
  const record = (typeof place === 'object' && place !== null ? place : {}) as Record<string, unknown>;
  const lat = Number(record.lat);
  const lng = Number(record.lon);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng, label: typeof record.display_name === 'string' ? record.display_name : '' };
}
