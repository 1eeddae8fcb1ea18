/**
 * Signing in to the web application, its session cookie and the CSRF rules of cookie-authenticated
 * API calls (web-contract §2), against the real service and store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { makeDataDir, removeDir, smallProject, servicesStoppedAfterEach } from './harness.js';
import { call, makeWebRoot, sessionCookieOf, signIn } from './web-harness.js';
import { localPath } from '../../src/server/http/routes/session.js';
import { DataDirSessionStore } from '../../src/server/store/data-dir/session-store.js';
import { SessionService } from '../../src/server/services/sessions.js';
import { JsonStore } from '../../src/server/store/data-dir/json-store.js';

let webRoot: string;
beforeAll(async () => {
  webRoot = await makeWebRoot();
});
afterAll(async () => {
  await rm(webRoot, { recursive: true, force: true });
});

const service = servicesStoppedAfterEach(() => ({ webRoot }));

function cookieLine(reply: { headers: Headers }): string {
  return reply.headers.getSetCookie().find((line) => line.startsWith('routeplan_session=')) ?? '';
}

function expectCsrfFailed(reply: { status: number; body: any }): void {
  expect(reply.status).toBe(403);
  expect(reply.body.error).toMatchObject({ code: 'csrf_failed', details: [] });
  expect(typeof reply.body.error.message).toBe('string');
}

describe('POST /login', () => {
  it('a valid key → 303 to / with an HttpOnly, SameSite=Strict session cookie for the whole site, lasting the session TTL', async () => {
    const svc = await service();
    const login = await call(svc.url, 'POST', '/login', { form: { key: 'key-alpha' } });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/');
    const line = cookieLine(login);
    expect(line).toMatch(/^routeplan_session=[A-Za-z0-9_-]{43};/);
    expect(line).toContain('HttpOnly');
    expect(line).toContain('SameSite=Strict');
    expect(line).toContain('Path=/');
    expect(line).toContain('Max-Age=43200');
    expect(line).not.toContain('Secure');
  });

  it('the cookie is Secure when the public URL is https', async () => {
    const svc = await service({ publicUrl: 'https://routes.example.com' });
    const login = await call(svc.url, 'POST', '/login', { form: { key: 'key-alpha' } });
    expect(cookieLine(login)).toContain('Secure');
  });

  it('--session-ttl sets the cookie lifetime', async () => {
    const svc = await service({ sessionTtlMs: 2 * 3_600_000 });
    expect(cookieLine(await call(svc.url, 'POST', '/login', { form: { key: 'key-alpha' } }))).toContain('Max-Age=7200');
  });

  it('a local `next` is where the sign-in goes', async () => {
    const svc = await service();
    const login = await call(svc.url, 'POST', '/login', { form: { key: 'key-alpha', next: '/projects/abc/print?plan=x&driver=1' } });
    expect(login.headers.get('location')).toBe('/projects/abc/print?plan=x&driver=1');
  });

  it('open redirects are refused: a `next` that is not a local path goes to / instead', async () => {
    const svc = await service();
    for (const next of [
      '//evil.example/x',
      'https://evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
      'projects/x',
      '/\t/evil.example',
    ]) {
      const login = await call(svc.url, 'POST', '/login', { form: { key: 'key-alpha', next } });
      expect(login.status, next).toBe(303);
      expect(login.headers.get('location'), next).toBe('/');
    }
    expect(localPath('/projects/a?b=c')).toBe('/projects/a?b=c');
    expect(localPath(null)).toBeNull();
  });

  it('a wrong key → 303 to /?signin=failed keeping `next`; no cookie; the key is never logged', async () => {
    const svc = await service();
    const login = await call(svc.url, 'POST', '/login', { form: { key: 'not-our-key', next: '/projects/abc' } });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/?signin=failed&next=%2Fprojects%2Fabc');
    expect(login.headers.getSetCookie()).toEqual([]);
    const empty = await call(svc.url, 'POST', '/login', { form: { key: '' } });
    expect(empty.headers.get('location')).toBe('/?signin=failed');
    expect(svc.logs.join('\n')).not.toContain('not-our-key');
    expect(svc.logs.some((line) => line.includes('"error":"signin_failed"'))).toBe(true);
    expect(await readdir(join(svc.dataDir, 'sessions'))).toEqual([]);
  });

  it('a sign-in form posted from another origin is refused (403 csrf_failed), nothing set', async () => {
    const svc = await service();
    const login = await call(svc.url, 'POST', '/login', { form: { key: 'key-alpha' }, origin: 'https://evil.example' });
    expectCsrfFailed(login);
    expect(login.headers.getSetCookie()).toEqual([]);
  });

  it('a sign-in that is not a form → 415', async () => {
    const svc = await service();
    const reply = await call(svc.url, 'POST', '/login', { json: { key: 'key-alpha' } });
    expect(reply.status).toBe(415);
    expect(reply.body.error.code).toBe('unsupported_media_type');
  });
});

describe('GET /session and the stored session', () => {
  it("answers the session's owner, CSRF token, expiry, tiles and time limit", async () => {
    const tiles = {
      kind: 'raster' as const,
      url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      attribution: '© OpenStreetMap contributors',
    };
    const svc = await service({ tiles, timeLimitMs: 1500 });
    const { cookie } = await signIn(svc.url, 'key-alpha');
    const reply = await call(svc.url, 'GET', '/session', { cookie });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.body).toEqual({
      owner: expect.stringMatching(/^key-[0-9a-f]{16}$/),
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expiresAt: expect.any(String),
      openAccess: false,
      tiles,
      timeLimitSeconds: 1.5,
    });
    const hoursLeft = (Date.parse(reply.body.expiresAt) - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(11.9);
    expect(hoursLeft).toBeLessThanOrEqual(12);
  });

  it('without a session → 401 in the error shape; tiles are null when not configured', async () => {
    const svc = await service();
    const reply = await call(svc.url, 'GET', '/session');
    expect(reply.status).toBe(401);
    expect(reply.body.error).toMatchObject({ code: 'unauthorized', details: [] });
    const forged = await call(svc.url, 'GET', '/session', { cookie: `routeplan_session=${'A'.repeat(43)}` });
    expect(forged.status).toBe(401);
    const { cookie } = await signIn(svc.url, 'key-alpha');
    expect((await call(svc.url, 'GET', '/session', { cookie })).body.tiles).toBeNull();
  });

  it('is stored under the SHA-256 of its token, holding neither the token nor the key, and survives a restart', async () => {
    const svc = await service();
    const { cookie, csrf } = await signIn(svc.url, 'key-alpha');
    const token = cookie.split('=')[1]!;
    const id = createHash('sha256').update(token).digest('hex');
    expect(await readdir(join(svc.dataDir, 'sessions'))).toEqual([`${id}.json`]);
    const stored = await readFile(join(svc.dataDir, 'sessions', `${id}.json`), 'utf8');
    expect(JSON.parse(stored)).toMatchObject({ owner: expect.any(String), csrf_token: csrf, created_at: expect.any(String) });
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('key-alpha');
    await svc.running.close();
    const again = await service({ dataDir: svc.dataDir });
    expect((await call(again.url, 'GET', '/session', { cookie })).body.csrfToken).toBe(csrf);
  });

  it('an expired session is 401 for /session, the API and pages, and is swept from the store', async () => {
    const svc = await service({ sessionTtlMs: 300 });
    const { cookie } = await signIn(svc.url, 'key-alpha');
    expect((await call(svc.url, 'GET', '/v1.0/projects', { cookie })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const session = await call(svc.url, 'GET', '/session', { cookie });
    expect(session.status).toBe(401);
    expect(session.body.error.code).toBe('unauthorized');
    expect((await call(svc.url, 'GET', '/v1.0/projects', { cookie })).status).toBe(401);
    expect((await call(svc.url, 'GET', '/projects/abc', { cookie })).status).toBe(303);
    await svc.running.close();
    expect(await readdir(join(svc.dataDir, 'sessions'))).toEqual([]);
  });

  it('the sweep removes expired sessions nobody asks for, and a restart does not bring them back', async () => {
    const dataDir = await makeDataDir();
    try {
      const json = new JsonStore(dataDir);
      await json.init();
      const store = new DataDirSessionStore(json, () => undefined);
      const shortLived = new SessionService(store, 50, () => undefined);
      await shortLived.create('owner-a');
      await shortLived.create('owner-b');
      expect(await readdir(join(dataDir, 'sessions'))).toHaveLength(2);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await shortLived.sweep()).toBe(2);
      expect(await readdir(join(dataDir, 'sessions'))).toEqual([]);

      const expiring = new SessionService(store, 50, () => undefined);
      const { token } = await expiring.create('owner-c');
      await new Promise((resolve) => setTimeout(resolve, 80));
      const reread = new DataDirSessionStore(json, () => undefined);
      const restarted = new SessionService(reread, 50, () => undefined);
      expect(await reread.recover()).toBe(1);
      await restarted.start();
      restarted.stop();
      expect(await restarted.find(token)).toBeNull();
      expect(await readdir(join(dataDir, 'sessions'))).toEqual([]);
    } finally {
      await removeDir(dataDir);
    }
  });

  it('open access: GET /session without a cookie signs the browser in as the open-access owner', async () => {
    const svc = await service({ keys: [] });
    const reply = await call(svc.url, 'GET', '/session');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ owner: 'open-access', openAccess: true });
    const cookie = sessionCookieOf(reply);
    expect(cookie).not.toBeNull();
    const again = await call(svc.url, 'GET', '/session', { cookie: cookie! });
    expect(again.body.csrfToken).toBe(reply.body.csrfToken);
    expect(again.headers.getSetCookie()).toEqual([]);
  });
});

describe('POST /logout', () => {
  it('ends the session: the store forgets it, the cookie is cleared, 303 to /', async () => {
    const svc = await service();
    const { cookie, csrf } = await signIn(svc.url, 'key-alpha');
    const logout = await call(svc.url, 'POST', '/logout', { cookie, form: { csrf } });
    expect(logout.status).toBe(303);
    expect(logout.headers.get('location')).toBe('/');
    expect(cookieLine(logout)).toMatch(/^routeplan_session=;.*Max-Age=0/);
    expect((await call(svc.url, 'GET', '/session', { cookie })).status).toBe(401);
    expect((await call(svc.url, 'GET', '/v1.0/projects', { cookie })).status).toBe(401);
    expect(await readdir(join(svc.dataDir, 'sessions'))).toEqual([]);
  });

  it('takes the CSRF token as a header too', async () => {
    const svc = await service();
    const { cookie, csrf } = await signIn(svc.url, 'key-alpha');
    expect((await call(svc.url, 'POST', '/logout', { cookie, csrf })).status).toBe(303);
    expect((await call(svc.url, 'GET', '/session', { cookie })).status).toBe(401);
  });

  it('without the CSRF token, or with a wrong one → 403 csrf_failed, and the session lives on', async () => {
    const svc = await service();
    const { cookie } = await signIn(svc.url, 'key-alpha');
    expectCsrfFailed(await call(svc.url, 'POST', '/logout', { cookie }));
    expectCsrfFailed(await call(svc.url, 'POST', '/logout', { cookie, form: { csrf: 'guess' } }));
    expect((await call(svc.url, 'GET', '/session', { cookie })).status).toBe(200);
  });
});

describe('the JSON API with the session cookie', () => {
  it('GETs need only the cookie', async () => {
    const svc = await service();
    const { cookie } = await signIn(svc.url, 'key-alpha');
    const list = await call(svc.url, 'GET', '/v1.0/projects', { cookie });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ projects: [] });
  });

  it('a POST without X-CSRF-Token, or with a wrong one → 403 csrf_failed, nothing created', async () => {
    const svc = await service();
    const { cookie, csrf } = await signIn(svc.url, 'key-alpha');
    expectCsrfFailed(await call(svc.url, 'POST', '/v1.0/project', { cookie, json: smallProject() }));
    expectCsrfFailed(await call(svc.url, 'POST', '/v1.0/project', { cookie, csrf: `${csrf.slice(1)}x`, json: smallProject() }));
    expectCsrfFailed(await call(svc.url, 'POST', '/schedules', { cookie, csrf: '', json: {} }));
    expect(await readdir(join(svc.dataDir, 'projects'))).toEqual([]);
    const created = await call(svc.url, 'POST', '/v1.0/project', { cookie, csrf, json: smallProject() });
    expect(created.status).toBe(201);
  });

  it('an Origin other than our own → 403 csrf_failed even with the right token; our own origin is fine', async () => {
    const svc = await service();
    const { cookie, csrf } = await signIn(svc.url, 'key-alpha');
    for (const origin of ['https://evil.example', 'null', `${svc.url}.evil.example`]) {
      expectCsrfFailed(await call(svc.url, 'POST', '/v1.0/project', { cookie, csrf, origin, json: smallProject() }));
    }
    expect(await readdir(join(svc.dataDir, 'projects'))).toEqual([]);
    expect((await call(svc.url, 'POST', '/v1.0/project', { cookie, csrf, origin: svc.url, json: smallProject() })).status).toBe(201);
  });

  it('the configured public URL is our origin too', async () => {
    const svc = await service({ publicUrl: 'https://routes.example.com' });
    const { cookie, csrf } = await signIn(svc.url, 'key-alpha');
    const reply = await call(svc.url, 'POST', '/v1.0/project', {
      cookie,
      csrf,
      origin: 'https://routes.example.com',
      json: smallProject(),
    });
    expect(reply.status).toBe(201);
  });

  it('Bearer still works without any CSRF token, and wins over a cookie of another owner', async () => {
    const svc = await service();
    const { cookie } = await signIn(svc.url, 'key-alpha');
    const created = await call(svc.url, 'POST', '/v1.0/project', {
      cookie,
      authorization: 'Bearer key-beta',
      origin: 'https://evil.example',
      json: smallProject({ name: 'beta project' }),
    });
    expect(created.status).toBe(201);
    const alphaList = await call(svc.url, 'GET', '/v1.0/projects', { cookie });
    expect(alphaList.body.projects).toEqual([]);
    const betaList = await call(svc.url, 'GET', '/v1.0/projects', { authorization: 'Bearer key-beta' });
    expect(betaList.body.projects.map((project: { name: string }) => project.name)).toEqual(['beta project']);
    const wrongBearer = await call(svc.url, 'GET', '/v1.0/projects', { cookie, authorization: 'Bearer nope' });
    expect(wrongBearer.status).toBe(401);
  });

  it('cancelling an optimization through the cookie needs the CSRF token too', async () => {
    const svc = await service();
    const { cookie, csrf } = await signIn(svc.url, 'key-alpha');
    const project = await call(svc.url, 'POST', '/v1.0/project', { cookie, csrf, json: smallProject() });
    const started = await call(svc.url, 'POST', `/v1.0/project/${project.body.id}/optimize`, { cookie, csrf });
    expect(started.status).toBe(202);
    const path = `/v2/schedules/${started.body.actionUuid}/cancel`;
    expectCsrfFailed(await call(svc.url, 'POST', path, { cookie }));
    expect((await call(svc.url, 'GET', `/v2/schedules/${started.body.actionUuid}`, { cookie })).body.status).toBe('pending');
    const cancelled = await call(svc.url, 'POST', path, { cookie, csrf });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
  });

  it("another owner's project is 404 through the cookie too", async () => {
    const svc = await service();
    const theirs = await call(svc.url, 'POST', '/v1.0/project', { authorization: 'Bearer key-beta', json: smallProject() });
    const { cookie, csrf } = await signIn(svc.url, 'key-alpha');
    expect((await call(svc.url, 'GET', `/v1.0/project/${theirs.body.id}`, { cookie })).status).toBe(404);
    expect((await call(svc.url, 'POST', `/v1.0/project/${theirs.body.id}/optimize`, { cookie, csrf })).status).toBe(404);
  });

  it('without any credential the API is 401 as before', async () => {
    const svc = await service();
    const reply = await call(svc.url, 'GET', '/v1.0/projects');
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toBe('Bearer');
  });
});
