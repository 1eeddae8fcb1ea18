/**
 * `Idempotency-Key` on the POSTs that create something (POST /schedules, POST …/optimize and
 * POST /v1.0/project), as
 * Stripe has it: the same key with the same request (method, path and body, the body compared as
 * JSON, so key order and spacing do not matter) gets the first action's 202 again; the same key with
 * another request is a 409 `idempotency_conflict`. Keys are per API key (owner): two keys may use
 * the same value. A key is kept in the record it created, so it lasts exactly as long as that
 * action or project (across restarts; an action's goes with it, by DELETE or by the retention
 * sweep). Requests with one key are handled one at a time, so two sent at once still create one
 * action; between processes sharing PostgreSQL, its unique key on (owner, key) does the same. The
 * header itself is read in http/idempotency-header.ts.
 */
import { KeyedTurns } from '../turns.js';
import { IdempotencyKeyTakenError } from '../store/errors.js';

export type { IdempotencyClaim } from '../store/ports.js';

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
