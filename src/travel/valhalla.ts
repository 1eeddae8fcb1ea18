/**
 * Valhalla's matrix service: POST {url}/sources_to_targets with sources, targets, a costing
 * (default `auto`) and, to avoid tolls or ferries, costing_options use_tolls / use_ferry 0. Times in
 * seconds, distances in kilometres (turned into metres); a null cell is a pair with no route. The
 * server's default limit is 2,500 pairs per request, so blocks are at most 50 × 50.
 *
 * Facts relied on (https://valhalla.github.io/valhalla/api/matrix/api-reference/ and the costing
 * options of https://valhalla.github.io/valhalla/api/turn-by-turn/api-reference/#costing-options):
 * locations are `{lat, lon}`; `units` is `kilometers` by default; the verbose answer is
 * `sources_to_targets`, one row per source of `{from_index, to_index, time, distance}` with `null`
 * time and distance where no route exists, the concise one `{durations, distances}`; `use_tolls` and
 * `use_ferry` range 0–1 (0 avoids them); errors come with an HTTP 4xx status, `error_code` and
 * `error` (e.g. 154, too many pairs for `max_matrix_location_pairs`, 2,500 by default).
 */
import { RoutingError } from '../errors.js';
import { fetchInBlocks, squareBlocks, type BlockAnswer, type BlockProvider } from './blocks.js';
import { callProvider } from './remote.js';
import type { TravelProvider, TravelRequest, TravelSettings } from './types.js';

export const VALHALLA_DEFAULTS = { profile: 'auto', maxPairsPerRequest: 2_500 } as const;

const blocks: BlockProvider = {
  name: 'valhalla',
  blocksOf(size, settings) {
    const pairs = Math.max(1, settings.maxLocationsPerRequest ?? VALHALLA_DEFAULTS.maxPairsPerRequest);
    return squareBlocks(size, Math.max(1, Math.floor(Math.sqrt(pairs))));
  },
  async fetchBlock(locations, block, request, settings, signal) {
    const point = (i: number): { lat: number; lon: number } => ({ lat: locations[i]!.lat, lon: locations[i]!.lng });
    const body = {
      sources: block.sources.map(point),
      targets: block.targets.map(point),
      ...costingOf(request, settings),
      units: 'kilometers',
    };
    const reply = await callProvider({
      provider: 'Valhalla',
      url: `${(settings.url ?? '').replace(/\/+$/, '')}/sources_to_targets`,
      init: { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
      timeoutMs: settings.timeoutMs ?? 30_000,
      retries: settings.retries ?? 4,
      retryDelayMs: settings.retryDelayMs ?? 500,
      ...(signal ? { signal } : {}),
    });
    return answerOf(reply.status, reply.body, block.sources.length, block.targets.length);
  },
};

export const valhalla: TravelProvider = {
  name: 'valhalla',
  fetchTable: (request, settings, hooks) => fetchInBlocks(blocks, request, settings, hooks),
};

export function costingOf(
  request: TravelRequest,
  settings: TravelSettings,
): { costing: string; costing_options?: Record<string, Record<string, number>> } {
  const costing = settings.profile ?? VALHALLA_DEFAULTS.profile;
  const options = { ...(request.excludeTolls ? { use_tolls: 0 } : {}), ...(request.excludeFerry ? { use_ferry: 0 } : {}) };
  return Object.keys(options).length > 0 ? { costing, costing_options: { [costing]: options } } : { costing };
}

/** Both of Valhalla's answers: the verbose rows of {time, distance} and the concise {durations, distances}. */
function answerOf(status: number, body: unknown, rows: number, columns: number): BlockAnswer {
  const reply = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (status !== 200) {
    const detail = typeof reply.error === 'string' ? `: ${reply.error}` : '';
    const code = typeof reply.error_code === 'number' ? ` (error_code ${reply.error_code})` : '';
    throw new RoutingError(`Valhalla refused the matrix request: HTTP ${status}${detail}${code}`, 'routing_failed', [
      { path: 'travel', message: `HTTP ${status}` },
    ]);
  }
  const matrix = reply.sources_to_targets;
  const answer = Array.isArray(matrix) ? fromVerbose(matrix) : fromConcise(matrix);
  if (answer === null || !fits(answer.durations, rows, columns) || !fits(answer.distances, rows, columns)) {
    throw new RoutingError(`Valhalla answered without a ${rows}×${columns} sources_to_targets table`, 'routing_failed', [
      { path: 'travel', message: 'no table' },
    ]);
  }
  return {
    durations: answer.durations,
    distances: answer.distances.map((row) => row.map((km) => (km === null ? null : Math.round(km * 1000)))),
  };
}

function fromVerbose(matrix: unknown[]): BlockAnswer | null {
  const cell = (entry: unknown, key: 'time' | 'distance'): number | null | undefined => {
    const value = (entry as Record<string, unknown> | null)?.[key];
    return value === null || value === undefined ? null : typeof value === 'number' ? value : undefined;
  };
  if (!matrix.every(Array.isArray)) return null;
  const rows = matrix as unknown[][];
  return {
    durations: rows.map((row) => row.map((entry) => cell(entry, 'time') as number | null)),
    distances: rows.map((row) => row.map((entry) => cell(entry, 'distance') as number | null)),
  };
}

function fromConcise(matrix: unknown): BlockAnswer | null {
  const record = (typeof matrix === 'object' && matrix !== null ? matrix : {}) as Record<string, unknown>;
  return Array.isArray(record.durations) && Array.isArray(record.distances)
    ? { durations: record.durations as (number | null)[][], distances: record.distances as (number | null)[][] }
    : null;
}

function fits(grid: (number | null)[][], rows: number, columns: number): boolean {
  return (
    grid.length === rows &&
    grid.every(
      (row) =>
        Array.isArray(row) &&
        row.length === columns &&
        row.every((cell) => cell === null || (typeof cell === 'number' && Number.isFinite(cell) && cell >= 0)),
    )
  );
}
