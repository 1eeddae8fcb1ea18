/** What the tracking page shows of the customer's stop: a headline for its status, then the promise and the estimate. */
import { h } from './dom.js';
import { clockOf } from './driver-view.js';
import type { PromisedWindowView, TrackingView } from './types.js';

/** "between 09:00 and 10:15", "at 09:30" when both ends meet, the day only without planned times. */
export function windowWords(promised: PromisedWindowView | null): string {
  if (promised === null) return 'during the day';
  if (promised.start_s === promised.end_s) return `at ${clockOf(promised.start_s)}`;
  return `between ${clockOf(promised.start_s)} and ${clockOf(promised.end_s)}`;
}

/** "09:00 – 10:15", short enough for a phone's line; "during the day" without planned times. */
function rangeOf(promised: PromisedWindowView | null): string {
  if (promised === null) return 'during the day';
  return promised.start_s === promised.end_s ? clockOf(promised.start_s) : `${clockOf(promised.start_s)} – ${clockOf(promised.end_s)}`;
}

/** The status card: what happened or what comes next, in words a customer uses. */
export function trackingCard(view: TrackingView): HTMLElement {
  return h(
    'section',
    { class: `track-card track-${view.status}${driftOf(view) === 'late' ? ' track-late' : ''}`, 'aria-labelledby': 'track-status' },
    h('h2', { id: 'track-status' }, headline(view)),
    h('p', { class: 'track-line' }, subline(view)),
    view.status === 'planned' ? facts(view) : null,
  );
}

function headline(view: TrackingView): string {
  if (view.status === 'done') return 'Delivered';
  if (view.status === 'failed') return 'Not delivered';
  if (view.stops_before === 0) return 'You are the next stop';
  return `${view.stops_before} ${view.stops_before === 1 ? 'stop' : 'stops'} before yours`;
}

function subline(view: TrackingView): string {
  if (view.status === 'done') return view.at ? `Your order was delivered at ${momentOf(view.at)}.` : 'Your order was delivered.';
  if (view.status === 'failed') return view.failure ?? 'The delivery could not be made.';
  const drift = driftOf(view);
  if (drift === 'late') return `Running later than we said: now expected around ${clockOf(view.eta_s)}.`;
  if (drift === 'early') return `Running earlier than we said: now expected around ${clockOf(view.eta_s)}.`;
  return view.promised === null
    ? 'No time was planned for your delivery: it comes during the day.'
    : `On time: expected ${windowWords(view.promised)}.`;
}

/** Whether the estimate lies outside the promise (a revised message follows, at most once an hour). */
function driftOf(view: TrackingView): 'late' | 'early' | null {
  if (view.eta_s === null || view.promised === null) return null;
  if (view.eta_s > view.promised.end_s) return 'late';
  return view.eta_s < view.promised.start_s ? 'early' : null;
}

function facts(view: TrackingView): HTMLElement {
  return h(
    'dl',
    { class: 'track-facts' },
    h('div', {}, h('dt', {}, 'Promised'), h('dd', {}, rangeOf(view.promised))),
    h('div', {}, h('dt', {}, 'Current estimate'), h('dd', {}, view.eta_s === null ? '—' : clockOf(view.eta_s))),
    h('div', {}, h('dt', {}, 'Stops before yours'), h('dd', {}, String(view.stops_before))),
  );
}

/** "09:41" today, or the date too on another day, in this device's time. */
export function momentOf(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return date.toDateString() === new Date().toDateString() ? time : `${time} on ${date.toLocaleDateString()}`;
}
