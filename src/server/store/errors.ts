/** The errors the ports (ports.ts) promise, thrown by either store and answered by the HTTP layer. */

/**
 * A record could not be written (a full disk, a read-only or vanished data directory, a database
 * that refuses connections): the service answers 503 with Retry-After, never 500, and /healthz
 * reports the store unhealthy.
 */
export class StoreUnavailableError extends Error {
  /** Seconds after which a retry may find the store writable again. */
  readonly retryAfterSeconds = 30;
  constructor(
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`the service cannot save data (${reason}); retry later`, options);
    this.name = 'StoreUnavailableError';
  }
}

/** The solve queue has no place for one more solve of this owner now (429 with Retry-After). */
export class QueueFullError extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    /** `queue`: no place is left at all; `key`: this owner already has its share waiting. */
    readonly scope: 'queue' | 'key' = 'queue',
    readonly perKey?: number,
  ) {
    super(scope === 'key' ? `this key already has ${perKey} solves waiting` : 'the solve queue is full');
    this.name = 'QueueFullError';
  }
}

/**
 * Another process stored a record with the same owner and key first (the store's unique key on
 * them): the caller looks that record up and answers with it.
 */
export class IdempotencyKeyTakenError extends Error {
  constructor(options?: ErrorOptions) {
    super('another request with this Idempotency-Key was stored first', options);
    this.name = 'IdempotencyKeyTakenError';
  }
}
