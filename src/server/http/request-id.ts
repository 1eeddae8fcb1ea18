/**
 * Each request's id: the client's `X-Request-Id` when it is a sane one (a proxy or a client that
 * numbers its requests can then find them in our log), otherwise a new UUID. The answer echoes it
 * in `X-Request-Id`, and every log line written while the request is handled carries it (log-context.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Long enough for any UUID, ULID or trace id; short enough that a log line stays a log line. */
const MAX_LENGTH = 128;
/** Visible ASCII only: no spaces, no control characters that could forge a line or hide in a terminal. */
const SANE = new RegExp(`^[\\x21-\\x7e]{1,${MAX_LENGTH}}$`);

export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE.test(given) ? given : randomUUID();
}
