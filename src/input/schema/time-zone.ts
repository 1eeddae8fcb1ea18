/** `settings.time_zone`: an IANA zone name, checked against the zones this runtime knows. */
import { z } from 'zod';
import { allowed } from './fields.js';

const ZONE_ALLOWED = 'an IANA time zone name (e.g. Europe/Paris, America/New_York, UTC)';

/** Whether `name` is a zone Intl can format dates in (its list of IANA names and their aliases). */
export function isTimeZone(name: string): boolean {
  if (name.trim() === '' || name !== name.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const timeZone = z.string(allowed(ZONE_ALLOWED)).refine(isTimeZone, allowed(ZONE_ALLOWED));
