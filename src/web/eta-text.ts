/**
 * The live estimates as both pages word them (decisions.md, "The live day"): the planned time
 * stays, and the new one is shown beside it once a report moved it by a minute or more.
 */
import { formatClock } from '../model/time.js';

/** What a stop carries of its times: planned arrival and, after a report, its estimate. */
export interface StopTimes {
  arrival_s: number | null;
  eta_s?: number | null;
  late?: boolean;
}

/** "08:15", or "00:30 (+1 day)" past midnight of the route's date; "—" without a time. */
export function clockOf(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  const days = Math.floor(seconds / 86_400);
  return `${formatClock(seconds - days * 86_400)}${days > 0 ? ` (+${days} day${days > 1 ? 's' : ''})` : ''}`;
}

/** The estimate's shift against the plan in whole minutes, or null when there is none worth showing. */
export function etaShiftMinutes(stop: StopTimes): number | null {
  if (stop.eta_s === undefined || stop.eta_s === null || stop.arrival_s === null) return null;
  const minutes = Math.round((stop.eta_s - stop.arrival_s) / 60);
  return minutes === 0 ? null : minutes;
}

/** "09:52 (40 min late)" / "07:50 (10 min early)", or null when the stop is on plan. */
export function etaText(stop: StopTimes): string | null {
  const shift = etaShiftMinutes(stop);
  if (shift === null) return null;
  return `${clockOf(stop.eta_s)} (${Math.abs(shift)} min ${shift > 0 ? 'later' : 'earlier'})`;
}

/** "just now", "3 min ago", "2 h 5 min ago": how old a shared position is. */
export function ageText(atIso: string, nowMs: number): string {
  const minutes = Math.floor((nowMs - Date.parse(atIso)) / 60_000);
  if (!Number.isFinite(minutes) || minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h${minutes % 60 > 0 ? ` ${minutes % 60} min` : ''} ago`;
}
