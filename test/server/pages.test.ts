/**
 * The web application's pages and assets as the service serves them (web-contract §3), from a web
 * root of stand-in pages: which page, which status, which headers, and nothing outside assets/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { smallProject, type TestService, servicesStoppedAfterEach } from './harness.js';
import { call, makeWebRoot, rawGet, signIn } from './web-harness.js';
import { pageHeaders, tilesOrigin } from '../../src/server/http/web.js';

let webRoot: string;
beforeAll(async () => {
  webRoot = await makeWebRoot();
});
afterAll(async () => {
  await rm(webRoot, { recursive: true, force: true });
});

const service = servicesStoppedAfterEach(() => ({ webRoot }));

const TILES = { kind: 'raster' as const, url: 'https://{s}.tile.example.org/{z}/{x}/{y}.png', attribution: '© Example' };

function expectPageHeaders(headers: Headers, tileSource: string | null = null): void {
  expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(headers.get('content-security-policy')).toBe(
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
      `img-src 'self' data: blob:${tileSource ? ` ${tileSource}` : ''}; connect-src 'self'; ` +
      "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  );
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('same-origin');
}

async function alphaProject(svc: TestService): Promise<string> {
  const reply = await call(svc.url, 'POST', '/v1.0/project', { authorization: 'Bearer key-alpha', json: smallProject() });
  return reply.body.id as string;
}

describe('GET /', () => {
  it('is the sign-in and project list page, with the security headers (CSP naming the tiles origin)', async () => {
    const svc = await service({ tiles: TILES });
    const reply = await call(svc.url, 'GET', '/');
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('<title>index page</title>');
    expectPageHeaders(reply.headers, 'https://*.tile.example.org');
  });

  it('HEAD answers like GET without a body; other methods are 405', async () => {
    const svc = await service();
    const head = await call(svc.url, 'HEAD', '/');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const post = await call(svc.url, 'POST', '/');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});

describe('project pages', () => {
  it('no session → 303 to the sign-in page, which brings the browser back (next=)', async () => {
    const svc = await service();
    const id = await alphaProject(svc);
    const page = await call(svc.url, 'GET', `/projects/${id}`);
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`/?next=${encodeURIComponent(`/projects/${id}`)}`);
    const print = await call(svc.url, 'GET', `/projects/${id}/print?plan=abc&driver=0`);
    expect(print.status).toBe(303);
    expect(print.headers.get('location')).toBe(`/?next=${encodeURIComponent(`/projects/${id}/print?plan=abc&driver=0`)}`);
    // A Bearer key is for the API; the pages go by the session only.
    expect((await call(svc.url, 'GET', `/projects/${id}`, { authorization: 'Bearer key-alpha' })).status).toBe(303);
  });

  it("the owner's project → 200 with the project page and its print page, with the security headers", async () => {
    const svc = await service();
    const id = await alphaProject(svc);
    const { cookie } = await signIn(svc.url, 'key-alpha');
    const page = await call(svc.url, 'GET', `/projects/${id}`, { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>project page</title>');
    expectPageHeaders(page.headers);
    const print = await call(svc.url, 'GET', `/projects/${id}/print?plan=x&driver=Ana`, { cookie });
    expect(print.status).toBe(200);
    expect(print.text).toContain('<title>print page</title>');
    expectPageHeaders(print.headers);
    const logged = svc.logs.map((line) => JSON.parse(line)).filter((entry) => entry.path === `/projects/${id}`);
    expect(logged[0]).toMatchObject({ method: 'GET', status: 200, project_id: id });
  });

  it("another owner's project, or an unknown one → 404 with the project page (which says so)", async () => {
    const svc = await service();
    const id = await alphaProject(svc);
    const { cookie } = await signIn(svc.url, 'key-beta');
    for (const path of [`/projects/${id}`, `/projects/${id}/print`, '/projects/00000000-0000-4000-8000-000000000000']) {
      const page = await call(svc.url, 'GET', path, { cookie });
      expect(page.status, path).toBe(404);
      expect(page.text, path).toContain(path.endsWith('/print') ? '<title>print page</title>' : '<title>project page</title>');
      expectPageHeaders(page.headers);
    }
  });

  it('open access: the page opens without signing in, for the open-access owner', async () => {
    const svc = await service({ keys: [] });
    const created = await call(svc.url, 'POST', '/v1.0/project', { json: smallProject() });
    expect((await call(svc.url, 'GET', `/projects/${created.body.id}`)).status).toBe(200);
  });

  it('a service without the built web application says so on its pages and in its log', async () => {
    const svc = await service({ webRoot: join(webRoot, 'no-such-dir') });
    const page = await call(svc.url, 'GET', '/');
    expect(page.status).toBe(500);
    expect(page.text).toContain('The web application is not built');
    expect(page.text).toContain('npm run build');
    expect(svc.logs.some((line) => line.includes('the web application is not built'))).toBe(true);
    expect((await call(svc.url, 'GET', '/v1.0/projects', { authorization: 'Bearer key-alpha' })).status).toBe(200);
  });
});

describe('GET /assets/*', () => {
  it('serves the files of assets/ with their content types, nosniff and no-cache', async () => {
    const svc = await service();
    const script = await call(svc.url, 'GET', '/assets/app.js');
    expect(script.status).toBe(200);
    expect(script.text).toBe('document.title = "app";\n');
    expect(script.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(script.headers.get('cache-control')).toBe('no-cache');
    expect((await call(svc.url, 'GET', '/assets/app.css')).headers.get('content-type')).toMatch(/^text\/css/);
    expect((await call(svc.url, 'GET', '/assets/images/marker.png')).headers.get('content-type')).toBe('image/png');
  });

  it('a missing file is 404; paths leaving assets/ are refused (404), encoded or not', async () => {
    const svc = await service();
    expect((await call(svc.url, 'GET', '/assets/nothing.js')).status).toBe(404);
    for (const path of [
      '/assets/../secret.txt',
      '/assets/%2e%2e/secret.txt',
      '/assets/images/../../secret.txt',
      '/assets/..%2fsecret.txt',
    ]) {
      const reply = await rawGet(svc.url, path);
      expect(reply.status, path).toBe(404);
      expect(reply.body, path).not.toContain('outside the assets directory');
    }
    expect((await rawGet(svc.url, '/assets/../index.html')).status).toBe(404);
  });
});

describe('requests fastify cannot route', () => {
  it('a malformed URL → 400 in the error shape, with its request log line', async () => {
    const svc = await service();
    const reply = await rawGet(svc.url, '/projects/%zz');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error).toMatchObject({ code: 'bad_request', details: [] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = svc.logs.map((line) => JSON.parse(line)).filter((entry) => entry.path === '/projects/%zz');
    expect(logged).toEqual([expect.objectContaining({ method: 'GET', status: 400, error: 'bad_request' })]);
  });
});

describe('page headers', () => {
  it('the CSP admits images from the tiles origin only, with {s} subdomains as a wildcard', () => {
    expect(tilesOrigin('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://tile.openstreetmap.org');
    expect(tilesOrigin('https://{s}.tile.example.org:8443/{z}/{x}/{y}.png')).toBe('https://*.tile.example.org:8443');
    expect(tilesOrigin('ftp://x/{z}/{x}/{y}')).toBeNull();
    expect(pageHeaders(null)['content-security-policy']).toContain("img-src 'self' data: blob:;");
    expect(
      pageHeaders({ kind: 'raster', url: 'http://localhost:8081/{z}/{x}/{y}.png', attribution: 'x' })['content-security-policy'],
    ).toContain("img-src 'self' data: blob: http://localhost:8081;");
    // A PMTiles extract is read from our own origin: nothing more is let in.
    const extract = pageHeaders({ kind: 'pmtiles', file: '/srv/lyon.pmtiles', attribution: 'x', maxZoom: 14 });
    expect(extract['content-security-policy']).toContain("img-src 'self' data: blob:; connect-src 'self';");
  });
});
