import { describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpError } from '../../src/server/http/replies.js';
import {
  OPEN_ACCESS_OWNER,
  bearerToken,
  createKeyRing,
  isLoopbackAddress,
  isLoopbackHost,
  readKeysFile,
} from '../../src/server/http/auth.js';
import { parseKeyList } from '../../src/config/parse.js';

function statusOf(action: () => unknown): number | null {
  try {
    action();
    return null;
  } catch (error) {
    return error instanceof HttpError ? error.status : -1;
  }
}

describe('API keys', () => {
  it('the Bearer scheme word is accepted in any letter case', () => {
    expect(bearerToken('Bearer k1')).toBe('k1');
    expect(bearerToken('bearer k1')).toBe('k1');
    expect(bearerToken('BEARER k1')).toBe('k1');
    expect(bearerToken('Basic k1')).toBeNull();
    expect(bearerToken('Bearer')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });

  it('a known key authenticates; missing or wrong keys are 401', () => {
    const ring = createKeyRing(['alpha', 'beta']);
    expect(typeof ring.authenticate('Bearer alpha')).toBe('string');
    expect(statusOf(() => ring.authenticate(undefined))).toBe(401);
    expect(statusOf(() => ring.authenticate('Bearer gamma'))).toBe(401);
    expect(statusOf(() => ring.authenticate('Bearer alph'))).toBe(401);
  });

  it('each key has its own owner id, which does not contain the key', () => {
    const ring = createKeyRing(['alpha-secret', 'beta-secret']);
    const alpha = ring.authenticate('Bearer alpha-secret');
    const beta = ring.authenticate('bearer beta-secret');
    expect(alpha).not.toBe(beta);
    expect(alpha).not.toContain('alpha');
    expect(ring.authenticate('BEARER alpha-secret')).toBe(alpha);
  });

  it('with no key configured every request is the open-access owner', () => {
    const ring = createKeyRing([]);
    expect(ring.size).toBe(0);
    expect(ring.authenticate(undefined)).toBe(OPEN_ACCESS_OWNER);
  });

  it('ROUTEPLAN_SERVER_KEYS is comma-separated; a keys file has one key per line with comments', async () => {
    expect(parseKeyList(' a, b ,,c ')).toEqual({ ok: true, value: ['a', 'b', 'c'] });
    expect(parseKeyList('')).toEqual({ ok: true, value: [] });
    const file = join(await mkdtemp(join(tmpdir(), 'routeplan-keys-')), 'keys');
    await writeFile(file, '# team keys\nk1\n\n  k2  \r\n');
    expect(await readKeysFile(file)).toEqual(['k1', 'k2']);
    await expect(readKeysFile(join(file, 'missing'))).rejects.toThrow(/keys file/);
  });

  it('loopback hosts are recognised (open access is allowed only there)', () => {
    for (const host of ['127.0.0.1', 'localhost', 'LocalHost', '::1', '[::1]', '127.1.2.3', '::ffff:127.0.0.1', '[::ffff:127.0.0.2]']) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'example.com', '::ffff:10.0.0.1', '127.0.0.1.example.com'])
      expect(isLoopbackHost(host)).toBe(false);
  });

  it('loopback addresses of a socket are the host rule without names: /metrics and open access agree', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.255.0.9']) expect(isLoopbackAddress(address)).toBe(true);
    for (const address of [undefined, 'localhost', '::ffff:192.168.1.5', '10.0.0.1', '::']) expect(isLoopbackAddress(address)).toBe(false);
  });
});
