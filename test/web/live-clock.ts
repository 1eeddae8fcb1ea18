/**
 * A project day that is "now" for the live-day browser tests, whatever the hour the suite runs at:
 * the day's clock is UTC, or a fixed zone six hours away when UTC is near midnight, so that a shift
 * that started some minutes ago, and the hour after it, fall on one calendar date.
 */
export interface LiveDay {
  /** The project's date on the zone's clock. */
  date: string;
  /** The project's `settings.time_zone`. */
  timeZone: string;
  /** Midnight of `date` in the zone, as a UTC instant (ms). */
  midnightMs: number;
  /** Seconds since that midnight, `minutesAgo` minutes before now, whole minutes. */
  shiftStartS: number;
}

export function liveDay(minutesAgo: number, now = new Date()): LiveDay {
  const hour = now.getUTCHours();
  // Etc/GMT-6 is six hours ahead of UTC (the sign is POSIX's).
  const offsetHours = hour < 3 ? 6 : hour > 20 ? -6 : 0;
  const timeZone = offsetHours === 0 ? 'UTC' : `Etc/GMT${offsetHours > 0 ? '-' : '+'}${Math.abs(offsetHours)}`;
  const local = new Date(now.getTime() + offsetHours * 3_600_000);
  const date = local.toISOString().slice(0, 10);
  const midnightMs = Date.parse(`${date}T00:00:00Z`) - offsetHours * 3_600_000;
  const shiftStartS = Math.floor((now.getTime() - midnightMs) / 60_000) * 60 - minutesAgo * 60;
  return { date, timeZone, midnightMs, shiftStartS };
}

/** Seconds since midnight as the project's HH:MM. */
export function clock(seconds: number): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor((seconds % 3600) / 60))}`;
}
