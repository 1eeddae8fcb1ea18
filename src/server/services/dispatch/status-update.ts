/** A driver's report on a stop (POST /drivers/{token}/stops/{stopId}), checked before it is applied. */
import type { FailureReasonCode, StopStatus, StopStatusUpdate } from '../../api-types.js';
import { HttpError } from '../../http/replies.js';

export const MAX_REASON_LENGTH = 500;

/** A device clock may run a little ahead; a time further ahead than this is replaced by the server's. */
export const CLOCK_SKEW_MS = 5 * 60_000;

export interface CheckedUpdate {
  status: StopStatus;
  reason?: string;
  /** A failure's reason from the list (decisions.md, "The live day"). */
  reason_code?: FailureReasonCode;
  at: string | null;
}

/** The driver page's list, in its order; the type keeps it whole. */
export const FAILURE_REASON_CODES = [
  'not_at_home',
  'refused',
  'address_not_found',
  'damaged',
  'other',
] as const satisfies readonly FailureReasonCode[];

/** The update as stored: `at` is the device's tap time unless absent or in the future; a failure needs its reason. */
export function checkStatusUpdate(body: unknown, now: Date): CheckedUpdate {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body', 'expected a JSON object');
  const update = body as Partial<Record<keyof StopStatusUpdate, unknown>>;
  const status = update.status;
  if (status !== 'done' && status !== 'failed' && status !== 'planned') {
    throw invalid('status', 'expected "done", "failed" or "planned"');
  }
  if (status === 'planned') return { status, at: null };
  const at = tapTime(update.at, now);
  if (status === 'done') return { status, at };
  return { status, ...failureReason(update.reason_code, update.reason), at };
}

/**
 * A code from the list with optional text; `other` needs the text. A bare text (a page from before
 * the list) is accepted as `other`, so a phone that kept an old page still reports.
 */
function failureReason(code: unknown, text: unknown): { reason_code: FailureReasonCode; reason?: string } {
  if (text !== undefined && text !== null && typeof text !== 'string') throw invalid('reason', 'expected a text');
  const reason = typeof text === 'string' ? text.trim() : '';
  if (reason.length > MAX_REASON_LENGTH) throw invalid('reason', `at most ${MAX_REASON_LENGTH} characters`);
  if (code === undefined || code === null) {
    if (reason === '') {
      throw invalid('reason', `a failed stop needs a reason: a reason_code (${FAILURE_REASON_CODES.join(', ')}) or a text`);
    }
    return { reason_code: 'other', reason };
  }
  if (!FAILURE_REASON_CODES.includes(code as FailureReasonCode)) {
    throw invalid('reason_code', `expected one of ${FAILURE_REASON_CODES.join(', ')}`);
  }
  if (code === 'other' && reason === '') throw invalid('reason', 'say what happened: "other" needs a text');
  return { reason_code: code as FailureReasonCode, ...(reason !== '' ? { reason } : {}) };
}

function tapTime(value: unknown, now: Date): string {
  if (value === undefined || value === null) return now.toISOString();
  const parsed = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(parsed)) throw invalid('at', 'expected an ISO 8601 date and time, e.g. 2026-11-23T09:41:00Z');
  return parsed > now.getTime() + CLOCK_SKEW_MS ? now.toISOString() : new Date(parsed).toISOString();
}

function invalid(path: string, message: string): HttpError {
  return new HttpError(400, 'invalid_status', `invalid stop status: ${path}: ${message}`, [{ path, message }]);
}

/** The same report again (an offline replay, a double tap): it changes nothing, and a Done keeps its first proof. */
export function isRepeated(stop: Readonly<CheckedUpdate>, update: CheckedUpdate): boolean {
  if (stop.status !== update.status) return false;
  if (update.status !== 'failed') return true;
  return stop.reason === update.reason && stop.reason_code === update.reason_code;
}

/** Writes the update's status, time and reason onto the stop (its proof is the caller's). */
export function applyStatus(stop: CheckedUpdate, update: CheckedUpdate): void {
  stop.status = update.status;
  stop.at = update.at;
  if (update.reason !== undefined) stop.reason = update.reason;
  else delete stop.reason;
  if (update.reason_code !== undefined) stop.reason_code = update.reason_code;
  else delete stop.reason_code;
}
