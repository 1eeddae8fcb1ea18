/**
 * What each dispatched stop keeps for its customer: a tracking link's token and the window the
 * customer was promised. A re-dispatch keeps both for a stop that stays where it was, so the link in
 * an e-mail already sent goes on opening and later checks compare with what the customer was told.
 */
import { promisedWindow, type PromisedWindow } from './promise.js';

export interface CustomerLink {
  /** The tracking page's token: 192 random bits, base64url, like a driver link's. */
  tracking_token: string;
  /** The window the customer was last promised; absent for a stop without planned times. */
  promised?: PromisedWindow;
  /** When the last revised promise was made (ISO 8601). */
  revised_at?: string;
}

interface Previous {
  stops: ({ stop_id: string } & Partial<CustomerLink>)[];
  retired_tracking_tokens?: string[];
}

/**
 * A stop's link and promise: the previous dispatch's token when the stop was on it, its promise too
 * when the stop did not move (`changed` false), otherwise the planned arrival ± the margin.
 */
export function customerLinkOf(
  stop: { stop_id: string; arrival_s: number | null; changed: boolean },
  previous: Previous | null,
  frame: { newToken: () => string; etaMarginS: number },
): CustomerLink {
  const before = previous?.stops.find((candidate) => candidate.stop_id === stop.stop_id);
  const tracking_token = before?.tracking_token ?? frame.newToken();
  const planned = promisedWindow(stop.arrival_s, frame.etaMarginS);
  // A stop that moved within the same window keeps its promise and the time of its last revision too.
  if (before?.promised !== undefined && (!stop.changed || samePromise(before.promised, planned))) {
    return { tracking_token, promised: before.promised, ...(before.revised_at !== undefined ? { revised_at: before.revised_at } : {}) };
  }
  return { tracking_token, ...(planned !== null ? { promised: planned } : {}) };
}

function samePromise(a: PromisedWindow, b: PromisedWindow | null): boolean {
  return b !== null && a.start_s === b.start_s && a.end_s === b.end_s;
}

/** What the stop's customer was promised by the previous dispatch, for the re-dispatch's messages. */
export function previousPromiseOf(stop: { stop_id: string }, previous: Previous | null): { previous_promised?: PromisedWindow } {
  const promised = previous?.stops.find((candidate) => candidate.stop_id === stop.stop_id)?.promised;
  return promised !== undefined ? { previous_promised: promised } : {};
}

/** The tokens that no longer open a page (their stop left the routes): earlier ones and those of stops dropped now. */
export function retiredTrackingTokens(stops: Partial<CustomerLink>[], previous: Previous | null): string[] {
  const live = new Set(stops.map((stop) => stop.tracking_token));
  const dropped = (previous?.stops ?? []).map((stop) => stop.tracking_token).filter((token) => token !== undefined && !live.has(token));
  return [...new Set([...(previous?.retired_tracking_tokens ?? []), ...(dropped as string[])])];
}
