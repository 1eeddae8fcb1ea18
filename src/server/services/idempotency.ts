/**
 * `Idempotency-Key` on the POSTs that create something (POST /schedules, POST …/optimize and
 * POST /v1.0/project), as
 * Stripe has it: the same key with the same request (method, path and body, the body compared as
 * JSON, so key order and spacing do not matter) gets the first action's 202 again; the same key with
 * another request is a 409 `idempotency_conflict`. Keys are per API key (owner): two keys may use
 * the same value. A key is kept in the record it created, so it lasts exactly as long as that
 * action or project (across restarts; an action's goes with it, by DELETE or by the retention
 * sweep). Requests with one key are handled one at a time, so two sent at once still create one
 * action; between processes sharing PostgreSQL, its unique key on (owner, key) does the same.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../http/replies.js';
import { KeyedTurns } from '../turns.js';
import { IdempotencyKeyTakenError } from '../store/errors.js';
import type { IdempotencyClaim } from '../store/ports.js';
import { isValidIdempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH as MAX_KEY_LENGTH } from '../../idempotency-key.js';

export type { IdempotencyClaim } from '../store/ports.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** A key used before with another request (ActionService.accept); the service answers 409. */
export class IdempotencyConflictError extends Error {
  constructor(
    /** What the key created first: an action or a project, and its id. */
    readonly created: { kind: 'action' | 'project'; id: string },
  ) {
    super('this Idempotency-Key was already used with a different request; use a new key for a new request');
    this.name = 'IdempotencyConflictError';
  }
}

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

/** How a request with a key creates its record, or finds the one the key already created. */
export interface CreateOnce<T> {
  /** The record the key created, or null; throws IdempotencyConflictError when it was another request. */
  earlier(): Promise<T | null>;
  /** Creates the record; IdempotencyKeyTakenError when another process stored one with the key first. */
  create(): Promise<T>;
}

/** Requests with one owner's key are handled one at a time in this process. */
export class IdempotencyTurns {
  private readonly turns = new KeyedTurns();

  /** The record the key created before (`replayed`), or a new one; of two processes racing, the first to store wins. */
  once<T>(owner: string, key: string, how: CreateOnce<T>): Promise<{ record: T; replayed: boolean }> {
    return this.turns.run(`${owner}\n${key}`, async () => {
      const earlier = await how.earlier();
      if (earlier) return { record: earlier, replayed: true };
      try {
        return { record: await how.create(), replayed: false };
      } catch (error) {
        const created = error instanceof IdempotencyKeyTakenError ? await how.earlier() : null;
        if (created) return { record: created, replayed: true };
        throw error;
      }
    });
  }
}
