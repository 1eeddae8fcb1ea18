/** A driver's report on a stop (POST /drivers/{token}/stops/{stopId}), checked before it is applied. */
import type { StopStatus, StopStatusUpdate } from '../../api-types.js';
import { HttpError } from '../../http/replies.js';

export const MAX_REASON_LENGTH = 500;

/** A device clock may run a little ahead; a time further ahead than this is replaced by the server's. */
export const CLOCK_SKEW_MS = 5 * 60_000;

export interface CheckedUpdate {
  status: StopStatus;
  reason?: string;
  at: string | null;
}

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
  return { status, reason: failureReason(update.reason), at };
}

function failureReason(value: unknown): string {
  const reason = typeof value === 'string' ? value.trim() : '';
  if (reason === '') throw invalid('reason', 'a failed stop needs a reason');
  if (reason.length > MAX_REASON_LENGTH) throw invalid('reason', `at most ${MAX_REASON_LENGTH} characters`);
  return reason;
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
