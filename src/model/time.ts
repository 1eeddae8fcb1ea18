/** Clock times: `HH:mm`, `H:mm` or `HH:mm:ss` → seconds since midnight, and back. */

const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

export const SECONDS_PER_DAY = 86_400;

/**
 * Times of the next day may be written past 24:00 (`25:30`, decisions.md "Night work"), as the
 * plan prints them; beyond the next day a time is a typing error.
 */
export const LATEST_CLOCK_HOUR = 47;

/** Seconds since midnight of the plan's day, or null when `text` is not a valid clock time. */
export function parseClock(text: string): number | null {
  const match = CLOCK.exec(text.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = match[3] === undefined ? 0 : Number(match[3]);
  if (hours > LATEST_CLOCK_HOUR || minutes > 59 || seconds > 59) return null;
  return hours * 3600 + minutes * 60 + seconds;
}

/**
 * An interval given as two clock times; an end earlier than the start ends on the next day
 * (overnight, e.g. 22:00–06:00 → [79200, 108000]).
 */
export function clockInterval(start: number, end: number): { start: number; end: number } {
  return { start, end: end < start ? end + SECONDS_PER_DAY : end };
}

/**
 * decisions.md "Night work": an interval that ends at or before `dayStart` (the plan's day starts
 * with its earliest shift, a break's with its driver's shift) lies on the next day — in a
 * 22:00–06:00 shift, 02:00–03:00 means the coming night.
 */
export function onTheWorkingDay(interval: { start: number; end: number }, dayStart: number): { start: number; end: number } {
  if (dayStart <= 0 || interval.end > dayStart) return interval;
  return { start: interval.start + SECONDS_PER_DAY, end: interval.end + SECONDS_PER_DAY };
}

/**
 * `HH:mm` for seconds since midnight of the plan's day. Times past midnight keep counting
 * hours (25:30 is 01:30 the next day) so that a plan stays ordered and unambiguous.
 * Seconds are rounded down: a service starting at 08:00:59 shows 08:00.
 */
export function formatClock(seconds: number): string {
  const total = Math.floor(seconds / 60);
  const hours = Math.floor(total / 60);
  const minutes = total - hours * 60;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** Minutes (fractions allowed) → whole seconds, rounded to the nearest second. */
export function minutesToSeconds(minutes: number): number {
  return Math.round(minutes * 60);
}
