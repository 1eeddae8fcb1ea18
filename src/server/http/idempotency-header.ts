/**
 * The `Idempotency-Key` header of a POST that creates something, read into the claim the services
 * keep with the record (services/idempotency.ts has the rules): the key, and the fingerprint of
 * the request (method, path and body, the body compared as JSON so key order and spacing do not matter).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isValidIdempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH as MAX_KEY_LENGTH } from '../../idempotency-key.js';
import type { IdempotencyClaim } from '../store/ports.js';
import { HttpError } from './replies.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The request's claim, or undefined without the header; 400 `invalid_idempotency_key` for a bad one. */
export function idempotencyClaimOf(req: IncomingMessage, body: unknown): IdempotencyClaim | undefined {
  const header = req.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (!isValidIdempotencyKey(key)) {
    throw new HttpError(
      400,
      'invalid_idempotency_key',
      `the Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters (a UUID is a good one)`,
      [{ path: 'Idempotency-Key', message: `expected 1 to ${MAX_KEY_LENGTH} visible ASCII characters` }],
    );
  }
  const request = `${req.method ?? 'POST'} ${(req.url ?? '').split('?')[0]}\n${canonicalJson(body)}`;
  return { key, fingerprint: createHash('sha256').update(request, 'utf8').digest('hex') };
}

/** JSON with every object's keys sorted, so that equal documents read the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, entry]) => `${JSON.stringify(name)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
