/**
 * A driver's shared position (POST /drivers/{token}/position), checked before it is kept: every
 * problem at once, each with its field's path.
 */
import type { DriverPosition } from '../../api-types.js';
import type { ErrorDetail } from '../../../errors.js';
import { HttpError } from '../../http/replies.js';
import { CLOCK_SKEW_MS } from './status-update.js';
import { MAX_ACCURACY_M, driverPositionSchema } from '../../api-schemas/dispatch.js';

/** Positions closer together than this (per driver) are kept, but only the first re-times the route. */
export const RETIME_EVERY_MS = 30_000;

/** What each field's problem says; the checks are the schema's (api-schemas/dispatch.ts), which the OpenAPI document shows. */
const PROBLEMS: Record<keyof DriverPosition, string> = {
  lat: 'expected a latitude, a number from -90 to 90',
  lng: 'expected a longitude, a number from -180 to 180',
  at: 'expected an ISO 8601 date and time, e.g. 2026-11-23T09:41:00Z',
  accuracy_m: `expected metres, from 0 to ${MAX_ACCURACY_M}`,
};

/** The position as kept: `at` is the device's time, replaced by the server's when it lies further ahead than a clock may run. */
export function checkPosition(body: unknown, now: Date): DriverPosition {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid([{ path: 'body', message: 'expected a JSON object' }]);
  const parsed = driverPositionSchema.safeParse(body);
  if (!parsed.success) {
    const paths = new Set(parsed.error.issues.map((issue) => String(issue.path[0]) as keyof DriverPosition));
    throw invalid([...paths].map((path) => ({ path, message: PROBLEMS[path] })));
  }
  const { lat, lng, at, accuracy_m } = parsed.data;
  const taken = Date.parse(at);
  const time = taken > now.getTime() + CLOCK_SKEW_MS ? now : new Date(taken);
  return { lat, lng, at: time.toISOString(), ...(accuracy_m !== undefined ? { accuracy_m } : {}) };
}

/** Whether `position` is newer than the one kept: an older one (a late delivery of the network) changes nothing. */
export function isNewer(position: DriverPosition, kept: DriverPosition | undefined): boolean {
  return kept === undefined || Date.parse(position.at) > Date.parse(kept.at);
}

/** Whether a position re-times the route: the estimates come from a report at least RETIME_EVERY_MS older, or from none. */
export function retimesRoute(position: DriverPosition, retimedAt: string | undefined): boolean {
  return retimedAt === undefined || Date.parse(position.at) - Date.parse(retimedAt) >= RETIME_EVERY_MS;
}

function invalid(problems: ErrorDetail[]): HttpError {
  const summary = problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ');
  return new HttpError(400, 'invalid_position', `invalid position: ${summary}`, problems);
}
