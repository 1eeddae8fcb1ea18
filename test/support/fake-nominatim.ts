/** A stand-in Nominatim search API for tests: jsonv2 answers from a table of addresses, with each request recorded. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeNominatim {
  url: string;
  requests: { query: URLSearchParams; headers: IncomingHttpHeaders; at: number }[];
  failNext(statuses: number[]): void;
  close(): Promise<void>;
}

/** `places`: query text (lower case) → candidates [lat, lng, display name]. */
export async function fakeNominatim(places: Record<string, [number, number, string][]>): Promise<FakeNominatim> {
  const requests: FakeNominatim['requests'] = [];
  const failures: number[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url!, 'http://x');
    requests.push({ query: url.searchParams, headers: request.headers, at: Date.now() });
    const failure = failures.shift();
    if (failure !== undefined || url.pathname !== '/search') {
      response.writeHead(failure ?? 404, { 'content-type': 'application/json' }).end('{"error":"unavailable"}');
      return;
    }
    const found = places[(url.searchParams.get('q') ?? '').toLowerCase()] ?? [];
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const body = found.slice(0, limit).map(([lat, lng, name], i) => ({
      place_id: i + 1,
      lat: String(lat),
      lon: String(lng),
      display_name: name,
      importance: 0.5 - i / 10,
    }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    failNext: (statuses) => failures.push(...statuses),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
