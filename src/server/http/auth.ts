/**
 * API keys: `Authorization: Bearer <key>` (scheme word in any letter case). Keys are kept only as
 * SHA-256 digests so that comparison is constant-time and a key never sits in a record or a log;
 * the digest prefix doubles as the owner id of what a key creates.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { InputError } from '../../errors.js';
import { HttpError } from './replies.js';

/** Owner id used for everything created while the service runs without keys (loopback only). */
export const OPEN_ACCESS_OWNER = 'open-access';

export interface KeyRing {
  /** Returns the owner id of the key in the header; throws a 401 HttpError. Open access returns OPEN_ACCESS_OWNER. */
  authenticate(authorization: string | undefined): string;
  readonly size: number;
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function ownerIdOf(keyDigest: Buffer): string {
  return `key-${keyDigest.subarray(0, 8).toString('hex')}`;
}

/** A keys file holds one key per line; blank lines and `#` comments are ignored. */
export async function readKeysFile(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(
      `cannot read the keys file: ${(error as Error).message}`,
      [{ path: '--keys-file', message: (error as NodeJS.ErrnoException).code ?? 'unreadable' }],
      undefined,
      { cause: error },
    );
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** Extracts the credential from an Authorization header, or null when it is not a Bearer one. */
export function bearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
  return match ? match[1]! : null;
}

export function createKeyRing(keys: string[]): KeyRing {
  const digests = [...new Set(keys)].map(digest);
  if (digests.length === 0) {
    return { size: 0, authenticate: () => OPEN_ACCESS_OWNER };
  }
  return {
    size: digests.length,
    authenticate(authorization) {
      const token = bearerToken(authorization);
      if (token === null) {
        throw new HttpError(401, 'unauthorized', 'missing API key: send the header "Authorization: Bearer <key>"', [], {
          'www-authenticate': 'Bearer',
        });
      }
      const candidate = digest(token);
      // Compare against every key without stopping early, so timing says nothing about which matched.
      let matched: Buffer | null = null;
      for (const known of digests) {
        if (timingSafeEqual(candidate, known)) matched = known;
      }
      if (matched === null) {
        throw new HttpError(401, 'unauthorized', 'the API key is not valid', [], { 'www-authenticate': 'Bearer' });
      }
      return ownerIdOf(matched);
    },
  };
}

/** A host name or address (`[::1]` in brackets too) that only this machine can reach: `localhost` or a loopback address. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || isLoopbackAddress(bare);
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (a dual-stack socket's view of 127.0.0.1). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address);
}
