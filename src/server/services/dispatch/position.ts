/**
 * A driver's shared position (POST /drivers/{token}/position), checked before it is kept: every
 * problem at once, each with its field's path.
 */
import type { DriverPosition } from '../../api-types.js';
import type { ErrorDetail } from '../../../errors.js';
import { HttpError } from '../../http/replies.js';
import { CLOCK_SKEW_MS } from './status-update.js';

/** Positions closer together than this (per driver) are kept, but only the first re-times the route. */
export const RETIME_EVERY_MS = 30_000;

/** A device reports its accuracy in metres; beyond this it is no position worth keeping. */
const MAX_ACCURACY_M = 100_000;

/** The position as kept: `at` is the device's time, replaced by the server's when it lies further ahead than a clock may run. */
export function checkPosition(body: unknown, now: Date): DriverPosition {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid([{ path: 'body', message: 'expected a JSON object' }]);
  const { lat, lng, at, accuracy_m } = body as Record<string, unknown>;
  const problems: ErrorDetail[] = [];
  const need = (ok: boolean, path: string, message: string): void => void (ok || problems.push({ path, message }));
  need(isNumberIn(lat, -90, 90), 'lat', 'expected a latitude, a number from -90 to 90');
  need(isNumberIn(lng, -180, 180), 'lng', 'expected a longitude, a number from -180 to 180');
  const taken = typeof at === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(at) ? Date.parse(at) : NaN;
  need(Number.isFinite(taken), 'at', 'expected an ISO 8601 date and time, e.g. 2026-11-23T09:41:00Z');
  need(accuracy_m === undefined || isNumberIn(accuracy_m, 0, MAX_ACCURACY_M), 'accuracy_m', `expected metres, from 0 to ${MAX_ACCURACY_M}`);
  if (problems.length > 0) throw invalid(problems);
  const time = taken > now.getTime() + CLOCK_SKEW_MS ? now : new Date(taken);
  return {
    lat: lat as number,
    lng: lng as number,
    at: time.toISOString(),
    ...(accuracy_m !== undefined ? { accuracy_m: accuracy_m as number } : {}),
  };
}

/** Whether `position` is newer than the one kept: an older one (a late delivery of the network) changes nothing. */
export function isNewer(position: DriverPosition, kept: DriverPosition | undefined): boolean {
  return kept === undefined || Date.parse(position.at) > Date.parse(kept.at);
}

/** Whether a position re-times the route: the estimates come from a report at least RETIME_EVERY_MS older, or from none. */
export function retimesRoute(position: DriverPosition, retimedAt: string | undefined): boolean {
  return retimedAt === undefined || Date.parse(position.at) - Date.parse(retimedAt) >= RETIME_EVERY_MS;
}

function isNumberIn(value: unknown, low: number, high: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= low && value <= high;
}

function invalid(problems: ErrorDetail[]): HttpError {
  const summary = problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ');
  return new HttpError(400, 'invalid_position', `invalid position: ${summary}`, problems);
}
