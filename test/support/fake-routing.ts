/**
 * Stand-in routing servers for tests, speaking OSRM's /table and /route and Valhalla's
 * /sources_to_targets and /route as their documentation describes: straight-line metres and
 * metres ÷ 10 seconds, `null` to and from any point on an "island", the servers' own size limits,
 * and scripted failures. A route's shape is `roadShape`: between two places it turns a corner (goes
 * along the latitude first, then the longitude), so a map that follows it is told from straight lines.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { haversineMetres } from '../../src/model/travel.js';
import { encodePolyline } from '../../src/travel/polyline.js';

export interface FakeRouting {
  url: string;
  /** Every request's path and query (OSRM) or body (Valhalla), in order. */
  requests: { url: string; body: any }[];
  /** The next answers are these statuses (with a Retry-After of 0 for 429), before the real one. */
  failNext(statuses: number[]): void;
  close(): Promise<void>;
}

export interface FakeOptions {
  /** OSRM's --max-table-size (coordinates per request) or Valhalla's pairs per request. */
  limit?: number;
  /** Points with no road to or from anywhere else (lat within 1e-6). */
  islands?: { lat: number; lng: number }[];
  /** The route service answers "no route" (HTTP 400, not worth a retry) while the table works. */
  noRoute?: boolean;
}

interface Place {
  lat: number;
  lng: number;
}

function legOf(a: Place, b: Place, islands: Place[]): { duration: number; distance: number } | null {
  const onIsland = (p: Place): boolean =>
    islands.some((island) => Math.abs(island.lat - p.lat) < 1e-6 && Math.abs(island.lng - p.lng) < 1e-6);
  if (a.lat === b.lat && a.lng === b.lng) return { duration: 0, distance: 0 };
  if (onIsland(a) || onIsland(b)) return null;
  const distance = Math.round(haversineMetres(a, b) * 1.2);
  return { duration: Math.round(distance / 10), distance };
}

/** The fake's road between places, [lng, lat]: a corner point between each two (north-south first, then east-west). */
export function roadShape(places: Place[]): [number, number][] {
  const line: [number, number][] = [];
  places.forEach((place, i) => {
    if (i > 0) line.push([places[i - 1]!.lng, place.lat]);
    line.push([place.lng, place.lat]);
  });
  return line;
}

function osrmRoute(url: URL, options: FakeOptions, reply: (status: number, json: unknown) => void): void {
  if (options.noRoute) return reply(400, { code: 'NoRoute', message: 'Impossible route between points' });
  const match = /^\/route\/v1\/([^/]+)\/(.+)$/.exec(url.pathname);
  const coords = decodeURIComponent(match![2]!)
    .split(';')
    .map((pair) => pair.split(',').map(Number) as [number, number])
    .map(([lng, lat]) => ({ lat, lng }));
  if (coords.length > (options.limit ?? 100)) return reply(400, { code: 'TooBig', message: 'Too many coordinates' });
  if (url.searchParams.get('overview') !== 'full' || url.searchParams.get('geometries') !== 'geojson') {
    return reply(400, { code: 'InvalidOptions', message: 'this fake answers overview=full&geometries=geojson only' });
  }
  reply(200, { code: 'Ok', routes: [{ geometry: { type: 'LineString', coordinates: roadShape(coords) } }] });
}

export function fakeOsrm(options: FakeOptions = {}): Promise<FakeRouting> {
  return serve((request, body, reply) => {
    const url = new URL(request.url!, 'http://x');
    if (url.pathname.startsWith('/route/v1/')) return osrmRoute(url, options, reply);
    const match = /^\/table\/v1\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (!match) return reply(400, { code: 'InvalidUrl', message: 'URL string malformed' });
    const coords = decodeURIComponent(match[2]!)
      .split(';')
      .map((pair) => pair.split(',').map(Number) as [number, number])
      .map(([lng, lat]) => ({ lat, lng }));
    if (coords.length > (options.limit ?? 100)) return reply(400, { code: 'TooBig', message: 'Too many table coordinates' });
    const indices = (name: string): number[] =>
      url.searchParams.has(name) ? url.searchParams.get(name)!.split(';').map(Number) : coords.map((_, i) => i);
    const sources = indices('sources');
    const destinations = indices('destinations');
    const legs = sources.map((s) => destinations.map((d) => legOf(coords[s]!, coords[d]!, options.islands ?? [])));
    void body;
    return reply(200, {
      code: 'Ok',
      durations: legs.map((row) => row.map((leg) => leg?.duration ?? null)),
      distances: legs.map((row) => row.map((leg) => leg?.distance ?? null)),
    });
  });
}

/** Valhalla's /route: one leg per pair of consecutive locations, each shape a polyline6 of roadShape. */
function valhallaRoute(body: any, options: FakeOptions, reply: (status: number, json: unknown) => void): void {
  if (options.noRoute) return reply(400, { error_code: 442, error: 'No path could be found for input', status_code: 400 });
  const places = (body.locations as { lat: number; lon: number }[]).map((p) => ({ lat: p.lat, lng: p.lon }));
  if (places.length > 20) return reply(400, { error_code: 150, error: 'Exceeded max locations', status_code: 400 });
  const legs = places.slice(1).map((place, i) => ({ shape: encodePolyline(roadShape([places[i]!, place])) }));
  reply(200, { trip: { legs, status: 0 } });
}

export function fakeValhalla(options: FakeOptions = {}): Promise<FakeRouting> {
  return serve((request, body, reply) => {
    if (request.method === 'POST' && new URL(request.url!, 'http://x').pathname === '/route') return valhallaRoute(body, options, reply);
    if (request.method !== 'POST' || new URL(request.url!, 'http://x').pathname !== '/sources_to_targets')
      return reply(404, { error: 'no such action' });
    const point = (p: { lat: number; lon: number }): Place => ({ lat: p.lat, lng: p.lon });
    const sources = (body.sources as { lat: number; lon: number }[]).map(point);
    const targets = (body.targets as { lat: number; lon: number }[]).map(point);
    if (sources.length * targets.length > (options.limit ?? 2_500)) {
      return reply(400, { error_code: 154, error: 'Exceeded max locations', status_code: 400 });
    }
    return reply(200, {
      units: 'kilometers',
      sources_to_targets: sources.map((source, from_index) =>
        targets.map((target, to_index) => {
          const leg = legOf(source, target, options.islands ?? []);
          return { from_index, to_index, time: leg?.duration ?? null, distance: leg === null ? null : leg.distance / 1000 };
        }),
      ),
    });
  });
}

type Handler = (request: IncomingMessage, body: any, reply: (status: number, json: unknown) => void) => void;

async function serve(handle: Handler): Promise<FakeRouting> {
  const requests: FakeRouting['requests'] = [];
  const failures: number[] = [];
  const server: Server = createServer((request, response: ServerResponse) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const body = text ? JSON.parse(text) : null;
      requests.push({ url: request.url!, body });
      const reply = (status: number, json: unknown): void => {
        response.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '0' } : {}) });
        response.end(JSON.stringify(json));
      };
      const failure = failures.shift();
      if (failure !== undefined) return reply(failure, { code: 'Busy', message: `scripted ${failure}` });
      handle(request, body, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    failNext: (statuses) => failures.push(...statuses),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
