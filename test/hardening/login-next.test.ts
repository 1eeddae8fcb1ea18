/**
 * Issue 27 (4): `/login` with a `next` that is not Latin-1 answered 500 in the framework's shape,
 * after storing a session. Now any `next` is a local path percent-encoded into the ASCII a Location
 * header carries, or ignored (`/`); nothing is stored for a refused sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { servicesStoppedAfterEach } from '../server/harness.js';
import { call, makeWebRoot, sessionCookieOf } from '../server/web-harness.js';

let webRoot: string;
beforeAll(async () => {
  webRoot = await makeWebRoot();
});
afterAll(async () => {
  await rm(webRoot, { recursive: true, force: true });
});
const service = servicesStoppedAfterEach(() => ({ webRoot }));

async function sessionFiles(dataDir: string): Promise<string[]> {
  return readdir(join(dataDir, 'sessions')).catch(() => []);
}

describe('/login with any `next` (issue 27, 4)', () => {
  it('a non-Latin-1 `next` goes to that local path, percent-encoded: 303 with an ASCII Location, one session', async () => {
    const svc = await service();
    const cases: [string, string][] = [
      ['/projets/é', '/projets/%C3%A9'],
      ['/日本?q=東京#地図', '/%E6%97%A5%E6%9C%AC?q=%E6%9D%B1%E4%BA%AC#%E5%9C%B0%E5%9B%B3'],
      ['/a b?c=€', '/a%20b?c=%E2%82%AC'],
      ['/\uD800', '/%EF%BF%BD'],
    ];
    for (const [next, location] of cases) {
      const login = await call(svc.url, 'POST', '/login', { form: { key: 'key-alpha', next } });
      expect(login.status, next).toBe(303);
      expect(login.headers.get('location'), next).toBe(location);
      expect(sessionCookieOf(login), next).not.toBeNull();
    }
    expect(await sessionFiles(svc.dataDir)).toHaveLength(cases.length);
    expect(svc.logs.join('\n')).not.toContain('internal_error');
  });

  it('a `next` that dot segments or encoding would turn into another site is ignored: 303 to /', async () => {
    const svc = await service();
    for (const next of ['/.//evil.example', '/a/..//evil.example/x', '/%2e//evil.example', '//évil.example', '/\\évil.example']) {
      const login = await call(svc.url, 'POST', '/login', { form: { key: 'key-alpha', next } });
      expect(login.status, next).toBe(303);
      expect(login.headers.get('location'), next).toBe('/');
    }
  });

  it('a wrong key with a non-Latin-1 `next`: 303 to /?signin=failed keeping it encoded, and no session stored', async () => {
    const svc = await service();
    const login = await call(svc.url, 'POST', '/login', { form: { key: 'not-our-key', next: '/projets/é' } });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe(`/?signin=failed&next=${encodeURIComponent('/projets/%C3%A9')}`);
    expect(login.headers.getSetCookie()).toEqual([]);
    expect(await sessionFiles(svc.dataDir)).toEqual([]);
  });

  it('a malformed form (not a form) is a 415 in the service error shape, and no session is stored', async () => {
    const svc = await service();
    const login = await call(svc.url, 'POST', '/login', { json: { key: 'key-alpha', next: '/é' } });
    expect(login.status).toBe(415);
    expect(login.body).toEqual({ error: { code: 'unsupported_media_type', message: expect.any(String), details: [] } });
    expect(await sessionFiles(svc.dataDir)).toEqual([]);
  });
});
