/** The webhook signature (Stripe's scheme) and the retry schedule's waits and window, on their own. */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { signatureOf, verifySignature } from '../../src/server/services/webhooks/signature.js';
import { RETRY_SCHEDULE, nextAttemptAt, waitAfter } from '../../src/server/services/webhooks/schedule.js';

const SECRET = 'whsec-unit-0123456789';
const BODY = '{"id":"e1","type":"stop.done","created_at":"2026-11-23T09:00:00.000Z","data":{}}';
const NOW = new Date('2026-11-23T09:00:10Z');
const T = Math.floor(NOW.getTime() / 1000);

describe('the webhook signature', () => {
  it('is t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">, as a receiver computes it with its own HMAC', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(signatureOf(SECRET, T, BODY)).toBe(`t=${T},v1=${expected}`);
    expect(verifySignature(SECRET, signatureOf(SECRET, T, BODY), BODY, NOW)).toBe(true);
  });

  it('fails for another body, another secret, another time in the header, or a time older than the tolerance', () => {
    const header = signatureOf(SECRET, T, BODY);
    expect(verifySignature(SECRET, header, BODY.replace('e1', 'e2'), NOW)).toBe(false);
    expect(verifySignature('another-secret-0123', header, BODY, NOW)).toBe(false);
    expect(verifySignature(SECRET, header.replace(`t=${T}`, `t=${T + 1}`), BODY, NOW)).toBe(false);
    expect(verifySignature(SECRET, header, BODY, new Date(NOW.getTime() + 301_000))).toBe(false);
    expect(verifySignature(SECRET, 'v1=00', BODY, NOW)).toBe(false);
  });
});

describe("the README's verification code", () => {
  it('accepts what the service signs, and refuses a changed body or an old time', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const code = /Verifying a request, in Node[^`]*```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(code).toContain('export function verified');
    const file = join(await mkdtemp(join(tmpdir(), 'routeplan-readme-')), 'verify.mjs');
    await writeFile(file, code!);
    const { verified } = (await import(pathToFileURL(file).href)) as { verified: (h: string, b: string, s: string) => boolean };
    const now = Math.floor(Date.now() / 1000);
    expect(verified(signatureOf(SECRET, now, BODY), BODY, SECRET)).toBe(true);
    expect(verified(signatureOf(SECRET, now, BODY), `${BODY} `, SECRET)).toBe(false);
    expect(verified(signatureOf(SECRET, now - 600, BODY), BODY, SECRET)).toBe(false);
  });
});

describe('the retry schedule', () => {
  it('waits grow from 5 s, doubling, to at most an hour, each within ±25 %', () => {
    const middle = [1, 2, 3, 4, 10, 11, 12, 40].map((attempts) => waitAfter(attempts, RETRY_SCHEDULE, 0.5));
    expect(middle).toEqual([5_000, 10_000, 20_000, 40_000, 2_560_000, 3_600_000, 3_600_000, 3_600_000]);
    expect(waitAfter(3, RETRY_SCHEDULE, 0)).toBe(15_000);
    expect(waitAfter(3, RETRY_SCHEDULE, 0.999999)).toBe(25_000);
  });

  it('tries again while the next attempt falls inside 24 h of the event, then gives up; about 30 tries in all', () => {
    const created = '2026-11-23T09:00:00.000Z';
    let now = new Date(created);
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const next = nextAttemptAt(created, attempts, now, RETRY_SCHEDULE, 0.5);
      if (next === null) break;
      now = next;
    }
    expect(now.getTime() - Date.parse(created)).toBeLessThanOrEqual(24 * 3_600_000);
    expect(now.getTime() - Date.parse(created)).toBeGreaterThan(23 * 3_600_000);
    expect(attempts).toBeGreaterThanOrEqual(28);
    expect(attempts).toBeLessThanOrEqual(34);
  });
});
