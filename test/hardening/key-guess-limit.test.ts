/**
 * Issue 27 (6): wrong keys are limited per client address. Past 20 failed key checks a minute from
 * one address (`/login`, Bearer keys, driver links), that address gets 429 with `Retry-After` in
 * the service's error shape, even for a right key, until its oldest failure is a minute old; a
 * right key from another address is never held back. Real HTTP through the real server, from
 * real distinct loopback addresses (127.0.0.1, 127.0.0.2, …).
 */
import { describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { servicesStoppedAfterEach } from '../server/harness.js';
import { GuessLimiter, clientOf } from '../../src/server/http/guess-limit.js';

const service = servicesStoppedAfterEach();

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request from the local address `from` (any 127.x.y.z reaches the loopback service). */
function send(
  url: string,
  method: string,
  path: string,
  options: { from?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: hostname, port, method, path, localAddress: options.from ?? '127.0.0.1', headers: options.headers ?? {}, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        });
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

function bearer(url: string, key: string, from?: string, extra: Record<string, string> = {}): Promise<Answer> {
  return send(url, 'GET', '/v1.0/projects', { ...(from ? { from } : {}), headers: { authorization: `Bearer ${key}`, ...extra } });
}

function login(url: string, key: string, from?: string): Promise<Answer> {
  const body = new URLSearchParams({ key }).toString();
  return send(url, 'POST', '/login', { ...(from ? { from } : {}), headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
}

function counts(answers: Answer[]): Record<number, number> {
  const tally: Record<number, number> = {};
  for (const { status } of answers) tally[status] = (tally[status] ?? 0) + 1;
  return tally;
}

function expectLimited(answer: Answer): void {
  expect(answer.status).toBe(429);
  expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(answer.headers['retry-after'])).toBeLessThanOrEqual(60);
  expect(answer.body).toEqual({ error: { code: 'too_many_failed_attempts', message: expect.any(String), details: [] } });
}

describe('key-guess rate limit (issue 27, 6)', () => {
  it('300 wrong Bearer keys from one address: 20 are 401, the other 280 are 429 with Retry-After', async () => {
    const svc = await service();
    const answers: Answer[] = [];
    for (let i = 0; i < 300; i++) answers.push(await bearer(svc.url, `wrong-${i}`));
    console.log('300 wrong Bearer keys →', JSON.stringify(counts(answers)));
    expect(counts(answers)).toEqual({ 401: 20, 429: 280 });
    expect(answers.slice(0, 20).every((answer) => answer.status === 401)).toBe(true);
    expectLimited(answers[20]!);
  });

  it('a limited address is refused even with the right key; the right key from another address is answered', async () => {
    const svc = await service();
    for (let i = 0; i < 21; i++) await bearer(svc.url, `wrong-${i}`, '127.0.0.2');
    expectLimited(await bearer(svc.url, 'key-alpha', '127.0.0.2'));
    expect((await bearer(svc.url, 'key-alpha', '127.0.0.3')).status).toBe(200);
    expect((await bearer(svc.url, 'key-alpha')).status).toBe(200);
  });

  it('300 wrong keys on /login: 20 go back to the sign-in, 280 are 429; the right key from another address signs in', async () => {
    const svc = await service();
    const answers: Answer[] = [];
    for (let i = 0; i < 300; i++) answers.push(await login(svc.url, `wrong-${i}`, '127.0.0.4'));
    console.log('300 wrong keys on /login →', JSON.stringify(counts(answers)));
    expect(counts(answers)).toEqual({ 303: 20, 429: 280 });
    expect(answers[0]!.headers.location).toBe('/?signin=failed');
    expectLimited(answers[299]!);
    expectLimited(await login(svc.url, 'key-alpha', '127.0.0.4'));
    const elsewhere = await login(svc.url, 'key-alpha', '127.0.0.5');
    expect(elsewhere.status).toBe(303);
    expect(String(elsewhere.headers['set-cookie'])).toContain('routeplan_session=');
  });

  it("a browser's sign-in form past the limit goes back to the sign-in page, which says why (303 /?signin=limited, Retry-After)", async () => {
    const svc = await service();
    for (let i = 0; i < 20; i++) await login(svc.url, `wrong-${i}`, '127.0.0.13');
    const body = new URLSearchParams({ key: 'key-alpha', next: '/projects/p1' }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-mode': 'navigate', accept: 'text/html' };
    const browser = await send(svc.url, 'POST', '/login', { from: '127.0.0.13', headers, body });
    expect(browser.status).toBe(303);
    expect(browser.headers.location).toBe(`/?signin=limited&next=${encodeURIComponent('/projects/p1')}`);
    expect(Number(browser.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(browser.headers['set-cookie']).toBeUndefined();
  });

  it('wrong keys count together whether they come by /login or by Bearer', async () => {
    const svc = await service();
    for (let i = 0; i < 10; i++) await login(svc.url, `wrong-${i}`, '127.0.0.6');
    for (let i = 0; i < 10; i++) expect((await bearer(svc.url, `wrong-${i}`, '127.0.0.6')).status).toBe(401);
    expectLimited(await login(svc.url, 'wrong', '127.0.0.6'));
  });

  it('unknown driver links count as guesses too: past 20, 429; another address still gets its 404', async () => {
    const svc = await service();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await send(svc.url, 'GET', `/drivers/guess${i}/route`, { from: '127.0.0.7' })).status);
    expect(statuses).toEqual([...Array<number>(20).fill(404), ...Array<number>(5).fill(429)]);
    expectLimited(await send(svc.url, 'GET', '/drivers/guess99/route', { from: '127.0.0.7' }));
    expect((await send(svc.url, 'GET', '/drivers/guess99', { from: '127.0.0.7' })).status).toBe(429);
    expect((await send(svc.url, 'GET', '/drivers/guess99/route', { from: '127.0.0.8' })).status).toBe(404);
  });

  it('a missing key is no guess: it is 401 and never counts', async () => {
    const svc = await service();
    for (let i = 0; i < 30; i++) expect((await send(svc.url, 'GET', '/v1.0/projects', { from: '127.0.0.9' })).status).toBe(401);
    expect((await bearer(svc.url, 'key-alpha', '127.0.0.9')).status).toBe(200);
  });

  it('once the oldest failure leaves the window, the address may try again', async () => {
    const svc = await service({ guessLimits: { windowMs: 1_000 } });
    for (let i = 0; i < 20; i++) await bearer(svc.url, `wrong-${i}`, '127.0.0.10');
    const limited = await bearer(svc.url, 'key-alpha', '127.0.0.10');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await bearer(svc.url, 'key-alpha', '127.0.0.10')).status).toBe(200);
  });

  it('X-Forwarded-For is ignored without --trust-proxy (a client cannot pose as many addresses)', async () => {
    const svc = await service();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await bearer(svc.url, 'wrong', '127.0.0.11', { 'x-forwarded-for': `203.0.113.${i}` })).status);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
  });

  it('with --trust-proxy 1, the address the proxy saw is the client: one proxy, two clients counted apart', async () => {
    const svc = await service({ trustProxyHops: 1 });
    for (let i = 0; i < 21; i++) await bearer(svc.url, 'wrong', '127.0.0.12', { 'x-forwarded-for': '203.0.113.1' });
    expectLimited(await bearer(svc.url, 'key-alpha', '127.0.0.12', { 'x-forwarded-for': '203.0.113.1' }));
    expect((await bearer(svc.url, 'key-alpha', '127.0.0.12', { 'x-forwarded-for': '203.0.113.2' })).status).toBe(200);
    // A client's own X-Forwarded-For entry is to the left of the proxy's: never believed.
    expectLimited(await bearer(svc.url, 'key-alpha', '127.0.0.12', { 'x-forwarded-for': '198.51.100.9, 203.0.113.1' }));
  });
});

describe('the limiter keeps its memory bounded', () => {
  it('it remembers at most maxAddresses clients, forgetting the one that failed least recently', () => {
    const limiter = new GuessLimiter({ maxAddresses: 100 });
    for (let i = 0; i < 10_000; i++) limiter.fail(`10.0.${i >> 8}.${i & 255}`);
    expect(limiter.size).toBe(100);
    expect(() => limiter.refuseIfLimited('10.0.39.15')).not.toThrow();
  });

  it('forgets a client whose failures left the window', () => {
    let now = 0;
    const limiter = new GuessLimiter({ windowMs: 1_000 }, () => now);
    for (let i = 0; i < 20; i++) limiter.fail('10.1.1.1');
    expect(() => limiter.refuseIfLimited('10.1.1.1')).toThrow(/wrong keys/);
    now = 1_001;
    expect(() => limiter.refuseIfLimited('10.1.1.1')).not.toThrow();
    expect(limiter.size).toBe(0);
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 one', () => {
    expect(clientOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
    expect(clientOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientOf('192.0.2.7')).toBe('192.0.2.7');
  });
});
