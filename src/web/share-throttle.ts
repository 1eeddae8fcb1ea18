/**
 * How often the driver page sends the phone's position (decisions.md, "The live day": at most
 * every 30 s while open). A phone's Geolocation reports far more often when moving; all but the
 * first in each 30 s are dropped, as the dispatcher's view and the estimates need no more.
 */
export const SHARE_EVERY_MS = 30_000;

/** Whether a position taken at `nowMs` goes out, the last one having gone at `lastSentMs` (null: none yet). */
export function shouldSend(lastSentMs: number | null, nowMs: number, everyMs = SHARE_EVERY_MS): boolean {
  // A clock set back (the phone corrected its time) must not hold positions back for long.
  return lastSentMs === null || nowMs - lastSentMs >= everyMs || nowMs < lastSentMs;
}

/** Where the page remembers the driver's choice, per link: sharing stays on across reloads until they stop it. */
export function shareKey(token: string): string {
  return `routeplan.share.${token}`;
}
