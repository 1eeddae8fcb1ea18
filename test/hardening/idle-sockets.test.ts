/**
 * Issue 27 (9, 10): connections that send nothing are closed within the headers timeout whether or
 * not a byte arrived (Node's own timeout starts with a request's first byte, so 50 silent sockets
 * were still open after 75 s), answered 408 in the service's error shape; each 408 and each
 * refusal at the connection cap is logged, one JSON line each, at most ten a minute per kind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connect, createServer, type Socket } from 'node:net';
import { removeDir, startTestService, type TestService } from '../server/harness.js';
import { CONNECTION_LIMITS } from '../../src/server/http/app.js';
import { answerClientError } from '../../src/server/http/connections.js';
import { RateLimitedLog } from '../../src/server/rate-limited-log.js';

const services: TestService[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const svc of services.splice(0)) {
    await svc.stop();
    await removeDir(svc.dataDir);
  }
});

async function service(connectionLimits: Record<string, number>): Promise<TestService> {
  const svc = await startTestService({ connectionLimits });
  services.push(svc);
  return svc;
}

interface Closed {
  afterMs: number;
  data: string;
}

/** A raw TCP connection that sends `send` (nothing by default); resolves when the server closes it. */
function rawConnection(url: string, send = ''): { closed: Promise<Closed>; socket: Socket } {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  let data = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
  if (send) socket.write(send);
  const closed = new Promise<Closed>((resolve) => {
    socket.on('close', () => resolve({ afterMs: Date.now() - started, data }));
    socket.on('error', () => undefined);
  });
  return { closed, socket };
}

function logEvents(svc: TestService, event: string): Record<string, unknown>[] {
  return svc.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.event === event);
}

/** The body of a raw HTTP answer, parsed. */
function bodyOf(data: string): unknown {
  return JSON.parse(data.slice(data.indexOf('\r\n\r\n') + 4));
}

describe('idle sockets are closed (issue 27, 9)', () => {
  it('50 connections that send nothing are all answered 408 in the error shape and closed within the headers timeout', async () => {
    const timeoutMs = 1_000;
    const svc = await service({ headersTimeoutMs: timeoutMs });
    const connections = Array.from({ length: 50 }, () => rawConnection(svc.url));
    const closed = await Promise.all(connections.map((connection) => connection.closed));
    const times = closed.map((entry) => entry.afterMs).sort((a, b) => a - b);
    console.log(`50 idle sockets closed after ${times[0]}–${times.at(-1)} ms (headers timeout ${timeoutMs} ms)`);
    expect(times.at(-1)).toBeLessThan(timeoutMs + 1_000);
    expect(times[0]).toBeGreaterThanOrEqual(timeoutMs - 50);
    for (const { data } of closed) {
      expect(data).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(bodyOf(data)).toEqual({ error: { code: 'request_timeout', message: expect.any(String), details: [] } });
    }
    expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
  });

  it('50 connections that send one byte, or half the headers, are closed within the headers timeout too', async () => {
    const timeoutMs = 1_000;
    const svc = await service({ headersTimeoutMs: timeoutMs });
    const connections = Array.from({ length: 50 }, (_, index) =>
      rawConnection(svc.url, index % 2 ? 'G' : 'GET /healthz HTTP/1.1\r\nHost: x\r\n'),
    );
    const closed = await Promise.all(connections.map((connection) => connection.closed));
    const slowest = Math.max(...closed.map((entry) => entry.afterMs));
    console.log(`50 sockets with a partial request closed within ${slowest} ms`);
    expect(slowest).toBeLessThan(timeoutMs + 1_500);
    for (const { data } of closed) expect(bodyOf(data)).toMatchObject({ error: { code: 'request_timeout' } });
  });

  it('a connection that made a request and then idles is closed by the keep-alive timeout, never held', async () => {
    const svc = await service({ headersTimeoutMs: 1_000 });
    const connection = rawConnection(svc.url, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const { afterMs, data } = await connection.closed;
    expect(data).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(data).not.toContain('408');
    expect(afterMs).toBeLessThan(5_000 + 1_500);
  }, 10_000);

  it('the defaults close a silent connection within seconds, not minutes', () => {
    expect(CONNECTION_LIMITS.headersTimeoutMs).toBeLessThanOrEqual(10_000);
    expect(CONNECTION_LIMITS.requestTimeoutMs).toBeLessThanOrEqual(60_000);
  });
});

describe('408s and connection-cap refusals are logged, rate-limited (issue 27, 10)', () => {
  it('each 408 is one JSON line, at most ten a minute; the rest are counted in one line', async () => {
    const svc = await service({ headersTimeoutMs: 500 });
    await Promise.all(Array.from({ length: 30 }, () => rawConnection(svc.url).closed));
    const timeouts = logEvents(svc, 'request_timeout');
    expect(timeouts).toHaveLength(10);
    expect(timeouts[0]).toMatchObject({ status: 408, reason: 'no_request' });
    await svc.stop();
    expect(logEvents(svc, 'log_suppressed')).toEqual([expect.objectContaining({ kind: 'request_timeout', suppressed: 20, window_s: 60 })]);
  });

  it('a connection refused at the cap is logged as connection_refused', async () => {
    const svc = await service({ maxConnections: 2, headersTimeoutMs: 5_000 });
    const held = [rawConnection(svc.url), rawConnection(svc.url)];
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await Promise.all([rawConnection(svc.url).closed, rawConnection(svc.url).closed]);
    for (const { afterMs } of refused) expect(afterMs).toBeLessThan(1_000);
    expect(logEvents(svc, 'connection_refused')).toEqual([
      expect.objectContaining({ reason: 'max_connections', max_connections: 2 }),
      expect.objectContaining({ reason: 'max_connections', max_connections: 2 }),
    ]);
    for (const { socket } of held) socket.destroy();
  });

  it('a request Node cannot parse is answered 400 in the service error shape and logged', async () => {
    const svc = await service({});
    const { data } = await rawConnection(svc.url, 'NOT HTTP AT ALL\r\n\r\n').closed;
    expect(data).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(data)).toEqual({ error: { code: 'bad_request', message: expect.any(String), details: [] } });
    expect(logEvents(svc, 'client_error')).toEqual([expect.objectContaining({ status: 400 })]);
  });

  it('a connection both timers fire on before the client has closed is answered and logged once', async () => {
    const events: unknown[] = [];
    const log = new RateLimitedLog((event) => events.push(event));
    const timeout = () => Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    // Under load the second timer fires while the client has yet to close: here in the same tick.
    const server = createServer((socket) => {
      answerClientError(timeout(), socket, log);
      answerClientError(timeout(), socket, log);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { data } = await rawConnection(`http://127.0.0.1:${(server.address() as { port: number }).port}`).closed;
    await new Promise((resolve) => server.close(resolve));
    expect(data.match(/HTTP\/1\.1 408 /g)).toHaveLength(1);
    expect(events).toEqual([expect.objectContaining({ event: 'request_timeout', reason: 'no_request' })]);
  });

  it('a 408 names what the client sent (no_request or request_incomplete), whichever timer fires first', async () => {
    const reasons: unknown[] = [];
    const log = new RateLimitedLog((event) => reasons.push(event.reason));
    const server = createServer((socket) =>
      // Node's own request timeout, fired before the service's timer for a silent connection.
      setTimeout(() => answerClientError(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket, log), 100),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await rawConnection(url).closed;
    await rawConnection(url, 'GET /healthz HTTP/1.1\r\n').closed;
    await new Promise((resolve) => server.close(resolve));
    expect(reasons).toEqual(['no_request', 'request_incomplete']);
  });
});
