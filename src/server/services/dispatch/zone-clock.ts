/**
 * "Now" for a project's day (decisions.md: re-optimizing reads the server clock in the project's
 * `settings.time_zone`, an IANA name, default the server's zone): seconds since midnight of the
 * project's date on the wall clocks of that zone, the unit of every plan time.
 */

/** The zone a project's times are read in: its `settings.time_zone`, or the server's own. */
export function projectZone(settings: Record<string, unknown>): string {
  const zone = settings.time_zone;
  return typeof zone === 'string' && zone !== '' ? zone : Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * The wall-clock time of `instant` in `zone` as seconds since midnight of `date` (YYYY-MM-DD):
 * negative before that day, past 86,400 on the next. Wall clock, as plan times are: across a
 * daylight-saving change the hour the clocks skipped is not counted.
 */
export function secondsIntoDay(date: string, instant: Date, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return Math.round((wall - Date.parse(`${date}T00:00:00Z`)) / 1000);
}

/** Seconds since midnight as the clock text the input reads (H:mm:ss, past 24:00 on the next day). */
export function clockText(seconds: number): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${Math.floor(seconds / 3600)}:${two(Math.floor((seconds % 3600) / 60))}:${two(seconds % 60)}`;
}
