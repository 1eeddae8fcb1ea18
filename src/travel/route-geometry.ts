/**
 * A route's shape along the roads, from the provider's route service (decisions.md, "The live
 * day"): through the same request layer as the matrix (callProvider: time limit, retries) and the
 * same disk cache. A route with more places than one request may carry is asked in pieces that
 * share their joining place, and the pieces are joined.
 *
 * Facts relied on: OSRM `GET /route/v1/{profile}/{lng,lat;…}?overview=full&geometries=geojson`
 * answers `{code: 'Ok', routes: [{geometry: {type: 'LineString', coordinates: [[lng, lat], …]}}]}`
 * and refuses more coordinates than its --max-viaroute-size (http://project-osrm.org/docs/v5.24.0/api/#route-service);
 * Valhalla `POST /route` with `{locations: [{lat, lon}], costing}` answers `{trip: {legs: [{shape}]}}`,
 * each shape a polyline with 6 decimals, and allows 20 locations per route with its default
 * service limits (https://valhalla.github.io/valhalla/api/turn-by-turn/api-reference/).
 */
import { DiskCache } from '../cache/disk-cache.js';
import { RoutingError } from '../errors.js';
import type { Point } from '../model/problem.js';
import { OSRM_DEFAULTS } from './osrm.js';
import { decodePolyline } from './polyline.js';
import { callProvider } from './remote.js';
import type { TravelSettings } from './types.js';
import { costingOf } from './valhalla.js';

/** GeoJSON positions, [lng, lat]. */
export type Position = [number, number];

export interface ShapeRequest {
  /** The places the route passes, in order (at least two). */
  points: Point[];
  excludeTolls: boolean;
  excludeFerry: boolean;
  signal?: AbortSignal;
}

/** Valhalla's default `max_locations` for a route. */
export const VALHALLA_ROUTE_MAX_LOCATIONS = 20;

type RoadSource = 'osrm' | 'valhalla';

/** The route's shape from the provider; throws RoutingError when the provider cannot give it. */
export async function roadShape(request: ShapeRequest, settings: TravelSettings & { source: RoadSource }): Promise<Position[]> {
  const cache = settings.cache === false ? null : new DiskCache<Position[]>('route-geometry', settings.cacheDir);
  const pieces = splitPoints(request.points, piecePlaces(settings));
  const shapes: Position[][] = [];
  for (const piece of pieces) {
    const key = DiskCache.keyOf([
      settings.source,
      settings.url ?? '',
      settings.profile ?? '',
      request.excludeTolls,
      request.excludeFerry,
      piece,
    ]);
    let shape = cache ? await cache.get(key) : undefined;
    if (!isShape(shape)) {
      shape = settings.source === 'osrm' ? await osrmShape(piece, request, settings) : await valhallaShape(piece, request, settings);
      await cache?.set(key, shape);
    }
    shapes.push(shape);
  }
  return joinShapes(shapes);
}

/** How many places one request may carry: OSRM's (as configured for its table), Valhalla's route limit. */
function piecePlaces(settings: TravelSettings & { source: RoadSource }): number {
  const limit =
    settings.source === 'osrm' ? (settings.maxLocationsPerRequest ?? OSRM_DEFAULTS.maxLocationsPerRequest) : VALHALLA_ROUTE_MAX_LOCATIONS;
  return Math.max(2, limit);
}

/** Consecutive pieces of at most `size` places, each starting where the one before ended. */
export function splitPoints<T>(points: readonly T[], size: number): T[][] {
  if (points.length <= size) return [[...points]];
  const pieces: T[][] = [];
  for (let start = 0; start < points.length - 1; start += size - 1) pieces.push(points.slice(start, start + size));
  return pieces;
}

/** One line from pieces that share their joining place: each piece after the first loses its first position. */
export function joinShapes(shapes: Position[][]): Position[] {
  const line: Position[] = [];
  shapes.forEach((shape, index) => line.push(...(index === 0 || line.length === 0 ? shape : shape.slice(1))));
  return line;
}

async function osrmShape(points: Point[], request: ShapeRequest, settings: TravelSettings): Promise<Position[]> {
  const path = points.map((p) => `${p.lng.toFixed(6)},${p.lat.toFixed(6)}`).join(';');
  const profile = encodeURIComponent(settings.profile ?? OSRM_DEFAULTS.profile);
  const exclude = [...(request.excludeTolls ? ['toll'] : []), ...(request.excludeFerry ? ['ferry'] : [])];
  const query = `overview=full&geometries=geojson${exclude.length > 0 ? `&exclude=${exclude.join(',')}` : ''}`;
  const reply = await callProvider({
    provider: 'OSRM',
    url: `${(settings.url ?? '').replace(/\/+$/, '')}/route/v1/${profile}/${path}?${query}`,
    ...callLimits(settings, request.signal),
  });
  const body = recordOf(reply.body);
  const routes = body.routes;
  const geometry = Array.isArray(routes) ? recordOf(routes[0]).geometry : undefined;
  const coordinates = recordOf(geometry).coordinates;
  if (reply.status !== 200 || body.code !== 'Ok' || !isShape(coordinates)) {
    const code = typeof body.code === 'string' ? body.code : `HTTP ${reply.status}`;
    throw new RoutingError(`OSRM gave no route geometry: ${code}`, 'routing_failed', [{ path: 'travel', message: code }]);
  }
  return coordinates;
}

async function valhallaShape(points: Point[], request: ShapeRequest, settings: TravelSettings): Promise<Position[]> {
  const body = {
    locations: points.map((p) => ({ lat: p.lat, lon: p.lng })),
    ...costingOf({ locations: [], excludeTolls: request.excludeTolls, excludeFerry: request.excludeFerry }, settings),
  };
  const reply = await callProvider({
    provider: 'Valhalla',
    url: `${(settings.url ?? '').replace(/\/+$/, '')}/route`,
    init: { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
    ...callLimits(settings, request.signal),
  });
  const legs = recordOf(recordOf(reply.body).trip).legs;
  const shapes = Array.isArray(legs) ? legs.map((leg) => recordOf(leg).shape) : [];
  if (reply.status !== 200 || shapes.length === 0 || !shapes.every((shape) => typeof shape === 'string')) {
    throw new RoutingError(`Valhalla gave no route shape: HTTP ${reply.status}`, 'routing_failed', [
      { path: 'travel', message: `HTTP ${reply.status}` },
    ]);
  }
  try {
    return joinShapes(shapes.map((shape) => decodePolyline(shape)));
  } catch (error) {
    throw new RoutingError(
      `Valhalla gave an unreadable route shape: ${(error as Error).message}`,
      'routing_failed',
      [{ path: 'travel', message: 'unreadable shape' }],
      { cause: error },
    );
  }
}

function callLimits(
  settings: TravelSettings,
  signal?: AbortSignal,
): { timeoutMs: number; retries: number; retryDelayMs: number; signal?: AbortSignal } {
  return {
    timeoutMs: settings.timeoutMs ?? 30_000,
    retries: settings.retries ?? 4,
    retryDelayMs: settings.retryDelayMs ?? 500,
    ...(signal ? { signal } : {}),
  };
}

function recordOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function isShape(value: unknown): value is Position[] {
  return (
    Array.isArray(value) &&
    value.length >= 2 &&
    value.every(
      (position) =>
        Array.isArray(position) &&
        position.length >= 2 &&
        typeof position[0] === 'number' &&
        typeof position[1] === 'number' &&
        Number.isFinite(position[0]) &&
        Number.isFinite(position[1]),
    )
  );
}
