/**
 * What a customer is promised (decisions.md, "The live day"): the planned arrival ± the margin,
 * widened to whole quarter hours so the message reads like a person's promise ("between 09:00 and
 * 10:15"), never the minutes of a service window. When the estimate leaves that window, one revised
 * promise at most every hour, so a driver running later and later does not flood the customer.
 */
import type { PromisedWindowView, StopStatus } from '../../api-types.js';

/** A window promised to a customer, seconds since midnight of the project's date (past 86,400 the next day). */
export type PromisedWindow = PromisedWindowView;

const QUARTER_HOUR_S = 900;
/** The least time between two revised messages to one customer. */
export const REVISION_GAP_MS = 3_600_000;

/** `arrival_s` ± `marginS`, its start floored and its end ceiled to :00, :15, :30 or :45; none without a planned time. */
export function promisedWindow(arrival_s: number | null, marginS: number): PromisedWindow | null {
  if (arrival_s === null) return null;
  const start = Math.max(0, arrival_s - marginS);
  return {
    start_s: Math.floor(start / QUARTER_HOUR_S) * QUARTER_HOUR_S,
    end_s: Math.ceil((arrival_s + marginS) / QUARTER_HOUR_S) * QUARTER_HOUR_S,
  };
}

/** Whether an estimated arrival lies outside what was promised (on either edge is still inside). */
export function leavesWindow(eta_s: number, promised: PromisedWindow): boolean {
  return eta_s < promised.start_s || eta_s > promised.end_s;
}

/** What a revision needs to know of a stop: its report, its promise and its last revision. */
export interface PromiseState {
  status: StopStatus;
  promised?: PromisedWindow;
  /** When the last revised promise was made (ISO 8601). */
  revised_at?: string;
}

/**
 * The new promise for a stop whose estimate moved to `eta_s`, or null when none is due: the stop is
 * already done or failed, had no promise (no planned time), is still inside it, or was revised less
 * than an hour ago.
 */
export function revisedPromise(stop: PromiseState, eta_s: number, now: Date, marginS: number): PromisedWindow | null {
  if (stop.status !== 'planned' || stop.promised === undefined || !leavesWindow(eta_s, stop.promised)) return null;
  if (stop.revised_at !== undefined && now.getTime() - Date.parse(stop.revised_at) < REVISION_GAP_MS) return null;
  return promisedWindow(eta_s, marginS);
}
