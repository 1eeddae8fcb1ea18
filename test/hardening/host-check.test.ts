/**
 * Issue 27 (7, 10): open access (no keys, loopback only) answers only requests addressed to a
 * loopback name or address, or to its public URL: a web page whose DNS name rebinds to 127.0.0.1
 * sends its own name as Host and gets 421. A state-changing request from another site's page
 * (its Origin) is 403 in open access too. An https public URL adds Strict-Transport-Security.
 */
import { describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { servicesStoppedAfterEach, smallProject } from '../server/harness.js';

const service = servicesStoppedAfterEach();
const openAccess = { keys: [] };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request with the Host header exactly as given (fetch would set its own). */
function send(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, method, path, headers, agent: false, setHost: false }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('open access answers loopback Hosts only (issue 27, 7)', () => {
  it('a rebinding page (Host: its own name) can neither read projects nor create one: 421 in the error shape', async () => {
    const svc = await service(openAccess);
    const port = new URL(svc.url).port;
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.nip.io:${port}`, `localhost.evil.example:${port}`, '10.0.0.5']) {
      const read = await send(svc.url, 'GET', '/v1.0/projects', { host });
      expect(read.status, host).toBe(421);
      expect(read.body).toEqual({
        error: {
          code: 'misdirected_request',
          message: expect.any(String),
          details: [{ path: 'Host', message: expect.stringContaining('not a loopback') }],
        },
      });
      const body = JSON.stringify(smallProject());
      const create = await send(svc.url, 'POST', '/v1.0/project', { host, 'content-type': 'application/json' }, body);
      expect(create.status, host).toBe(421);
    }
    expect((await send(svc.url, 'GET', '/v1.0/projects', { host: `127.0.0.1:${port}` })).body.projects).toEqual([]);
  });

  it('loopback names and addresses, with or without a port, are answered', async () => {
    const svc = await service(openAccess);
    const port = new URL(svc.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `LOCALHOST:${port}`, `[::1]:${port}`, `127.0.0.2:${port}`]) {
      expect((await send(svc.url, 'GET', '/v1.0/projects', { host })).status, host).toBe(200);
    }
  });

  it("the public URL's host is answered too (a loopback service behind a local proxy)", async () => {
    const svc = await service({ ...openAccess, publicUrl: 'http://routes.internal:8443' });
    expect((await send(svc.url, 'GET', '/v1.0/projects', { host: 'routes.internal:8443' })).status).toBe(200);
    expect((await send(svc.url, 'GET', '/v1.0/projects', { host: 'routes.internal' })).status).toBe(421);
  });

  it('with keys, any Host is answered as before (the key is the protection)', async () => {
    const svc = await service();
    expect((await send(svc.url, 'GET', '/v1.0/projects', { host: 'evil.example', authorization: 'Bearer key-alpha' })).status).toBe(200);
    expect((await send(svc.url, 'GET', '/v1.0/projects', { host: 'evil.example' })).status).toBe(401);
  });
});

describe('Origin is checked on state-changing requests without a Bearer key (issue 27, 7)', () => {
  it("in open access, another site's page cannot post (403 csrf_failed); our own page and origin-less clients can", async () => {
    const svc = await service(openAccess);
    const host = new URL(svc.url).host;
    const body = JSON.stringify(smallProject());
    const json = { host, 'content-type': 'application/json' };
    const foreign = await send(svc.url, 'POST', '/v1.0/project', { ...json, origin: 'https://evil.example' }, body);
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('csrf_failed');
    const upload = await send(svc.url, 'POST', '/v1.0/imports/stops', { host, 'content-type': 'text/plain', origin: 'null' }, 'name\nA\n');
    expect(upload.status).toBe(403);
    expect((await send(svc.url, 'POST', '/v1.0/project', { ...json, origin: svc.url }, body)).status).toBe(201);
    expect((await send(svc.url, 'POST', '/v1.0/project', json, body)).status).toBe(201);
  });
});

describe('HSTS with an https public URL (issue 27, 10)', () => {
  it('every answer carries Strict-Transport-Security when the public URL is https, none otherwise', async () => {
    const secure = await service({ publicUrl: 'https://routes.example.com' });
    for (const path of ['/healthz', '/v1.0/projects', '/no-such-page']) {
      expect((await send(secure.url, 'GET', path, { host: 'routes.example.com' })).headers['strict-transport-security'], path).toBe(
        'max-age=31536000',
      );
    }
    const plain = await service();
    expect((await send(plain.url, 'GET', '/healthz', { host: '127.0.0.1' })).headers['strict-transport-security']).toBeUndefined();
  });
});

describe('a request without Host (issue 27, 4: every error in the service shape)', () => {
  it('HTTP/1.1 without Host is 400 in the error shape, with or without keys; HTTP/1.0 without Host is answered', async () => {
    for (const options of [openAccess, {}]) {
      const svc = await service(options);
      const { port } = new URL(svc.url);
      const http11 = await rawExchange(Number(port), 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
      expect(http11).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(http11.slice(http11.indexOf('\r\n\r\n') + 4))).toEqual({
        error: { code: 'bad_request', message: 'the request has no Host header', details: [{ path: 'Host', message: 'required' }] },
      });
      expect(await rawExchange(Number(port), 'GET /healthz HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
    }
  });
});

/** Sends `raw` on a new connection; resolves with all the server wrote before it closed. */
function rawExchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(data));
    socket.write(raw);
  });
}
