/**
 * Issue 10, service: connections that send nothing (or too slowly) are closed with 408 instead of
 * being held for minutes, and beyond the connection cap new ones are refused at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { removeDir, startTestService, type TestService } from '../server/harness.js';
import { CONNECTION_LIMITS } from '../../src/server/http/app.js';

const services: TestService[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const svc of services.splice(0)) {
    await svc.stop();
    await removeDir(svc.dataDir);
  }
});

/** A raw connection; resolves when the server closes it, with what it sent. */
function idleConnection(url: string, send = ''): { closed: Promise<{ afterMs: number; data: string }>; socket: Socket } {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  let data = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
  if (send) socket.write(send);
  const closed = new Promise<{ afterMs: number; data: string }>((resolve) => {
    socket.on('close', () => resolve({ afterMs: Date.now() - started, data }));
    socket.on('error', () => undefined);
  });
  return { closed, socket };
}

describe('idle and slow connections', () => {
  it('a connection that sends nothing, or half a request, is answered 408 and closed after the headers timeout', async () => {
    const svc = await startTestService({ connectionLimits: { headersTimeoutMs: 500 } });
    services.push(svc);
    const silent = idleConnection(svc.url);
    const slow = idleConnection(svc.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n');
    for (const { closed } of [silent, slow]) {
      const { afterMs, data } = await closed;
      expect(afterMs).toBeLessThan(5_000);
      if (data !== '') expect(data).toMatch(/^HTTP\/1\.1 408/);
    }
  });

  it('beyond the connection cap, new connections are refused at once while the others are served', async () => {
    const svc = await startTestService({ connectionLimits: { maxConnections: 3, headersTimeoutMs: 5_000 } });
    services.push(svc);
    const held = [idleConnection(svc.url), idleConnection(svc.url), idleConnection(svc.url)];
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = idleConnection(svc.url);
    const { afterMs } = await refused.closed;
    expect(afterMs).toBeLessThan(1_000);
    for (const { socket } of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
  });

  it('the defaults close an idle connection within seconds, not minutes', () => {
    expect(CONNECTION_LIMITS.headersTimeoutMs).toBeLessThanOrEqual(10_000);
    expect(CONNECTION_LIMITS.requestTimeoutMs).toBeLessThanOrEqual(60_000);
  });
});
