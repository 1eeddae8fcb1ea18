/**
 * OSRM's table service: GET {url}/table/v1/{profile}/{lng,lat;…}?sources=…&destinations=…
 * &annotations=duration,distance[&exclude=toll,ferry]. Seconds and metres; a null cell is a pair
 * with no route. The server refuses more coordinates than its --max-table-size (default 100) with
 * the code TooBig, so a request holds at most that many sources and destinations together.
 *
 * Facts relied on (http://project-osrm.org/docs/v5.24.0/api/#table-service and #general-options):
 * coordinates are `lng,lat` separated by `;`; `sources`/`destinations` are `;`-separated indices
 * into them (all when absent); `annotations=duration,distance` adds `distances` (metres) beside
 * `durations` (seconds), rows per source, columns per destination, `null` where no route exists;
 * `exclude` takes the profile's classes joined by `,` (car: toll, motorway, ferry); every answer has
 * `code` (`Ok`, or an error such as `TooBig`, `NoTable`, `InvalidQuery`, `InvalidValue`) and, for
 * errors, `message`, with HTTP 400.
 */
import { RoutingError } from '../errors.js';
import { fetchInBlocks, squareBlocks, type BlockAnswer, type BlockProvider, type TableBlock } from './blocks.js';
import { callProvider } from './remote.js';
import type { TravelLocation, TravelProvider, TravelRequest, TravelSettings } from './types.js';

export const OSRM_DEFAULTS = { profile: 'driving', maxLocationsPerRequest: 100 } as const;

const blocks: BlockProvider = {
  name: 'osrm',
  blocksOf(size, settings) {
    const limit = Math.max(2, settings.maxLocationsPerRequest ?? OSRM_DEFAULTS.maxLocationsPerRequest);
    return size <= limit ? squareBlocks(size, size) : squareBlocks(size, Math.floor(limit / 2));
  },
  async fetchBlock(locations, block, request, settings, signal) {
    const { url, sources, destinations } = tableUrl(locations, block, request, settings);
    const reply = await callProvider({
      provider: 'OSRM',
      url,
      timeoutMs: settings.timeoutMs ?? 30_000,
      retries: settings.retries ?? 4,
      retryDelayMs: settings.retryDelayMs ?? 500,
      ...(signal ? { signal } : {}),
    });
    return answerOf(reply.status, reply.body, sources.length, destinations.length);
  },
};

export const osrm: TravelProvider = {
  name: 'osrm',
  fetchTable: (request, settings, hooks) => fetchInBlocks(blocks, request, settings, hooks),
};

/** The block's coordinates once each (a diagonal block lists them once), and where its sources and targets are among them. */
export function tableUrl(
  locations: TravelLocation[],
  block: TableBlock,
  request: TravelRequest,
  settings: TravelSettings,
): { url: string; sources: number[]; destinations: number[] } {
  const coordinates = [...new Set([...block.sources, ...block.targets])];
  const positionOf = new Map(coordinates.map((location, position) => [location, position]));
  const sources = block.sources.map((location) => positionOf.get(location)!);
  const destinations = block.targets.map((location) => positionOf.get(location)!);
  const path = coordinates.map((i) => `${locations[i]!.lng.toFixed(6)},${locations[i]!.lat.toFixed(6)}`).join(';');
  const profile = encodeURIComponent(settings.profile ?? OSRM_DEFAULTS.profile);
  const query = new URLSearchParams({ annotations: 'duration,distance' });
  if (coordinates.length !== sources.length || coordinates.length !== destinations.length) {
    query.set('sources', sources.join(';'));
    query.set('destinations', destinations.join(';'));
  }
  const exclude = [...(request.excludeTolls ? ['toll'] : []), ...(request.excludeFerry ? ['ferry'] : [])];
  if (exclude.length > 0) query.set('exclude', exclude.join(','));
  const base = (settings.url ?? '').replace(/\/+$/, '');
  return {
    url: `${base}/table/v1/${profile}/${path}?${query.toString().replace(/%3B/g, ';').replace(/%2C/g, ',')}`,
    sources,
    destinations,
  };
}

function answerOf(status: number, body: unknown, rows: number, columns: number): BlockAnswer {
  const reply = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (status !== 200 || reply.code !== 'Ok') {
    const code = typeof reply.code === 'string' ? reply.code : `HTTP ${status}`;
    const message = typeof reply.message === 'string' ? `: ${reply.message}` : '';
    const hint =
      code === 'TooBig'
        ? ' (lower `travelMaxLocations` to the server’s --max-table-size)'
        : code === 'InvalidValue' && message.includes('exclude')
          ? ' (the profile cannot exclude tolls or ferries)'
          : '';
    throw new RoutingError(`OSRM refused the table request: ${code}${message}${hint}`, 'routing_failed', [
      { path: 'travel', message: code },
    ]);
  }
  return { durations: grid(reply.durations, rows, columns, 'durations'), distances: grid(reply.distances, rows, columns, 'distances') };
}

function grid(value: unknown, rows: number, columns: number, name: string): (number | null)[][] {
  const valid =
    Array.isArray(value) &&
    value.length === rows &&
    value.every(
      (row) =>
        Array.isArray(row) &&
        row.length === columns &&
        row.every((cell) => cell === null || (typeof cell === 'number' && Number.isFinite(cell) && cell >= 0)),
    );
  if (!valid) {
    throw new RoutingError(
      `OSRM answered without a ${rows}×${columns} ${name} table (is it OSRM 5.x with annotations=duration,distance?)`,
      'routing_failed',
      [{ path: 'travel', message: `no ${name}` }],
    );
  }
  return value as (number | null)[][];
}
