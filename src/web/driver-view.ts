/** The driver page's markup: the day's stops in order, one card each, built for a phone in one hand. */
import { clockOf, etaText } from './eta-text.js';
import { h, type Child } from './dom.js';
import { failureText } from './failure-reasons.js';
import type { DriverRouteView, DriverStopView, StopProof } from './types.js';

export interface StopActions {
  /** Opens the Done step of a stop (its proof of delivery). */
  done(stop: DriverStopView): void;
  /** Opens the Failed step of a stop (its reason). */
  fail(stop: DriverStopView): void;
  undo(stop: DriverStopView): void;
  /** The step open on this stop (kept across renders, so a drawn signature survives a refresh), or null. */
  stepOf(stop: DriverStopView): HTMLElement | null;
}

export { clockOf } from './eta-text.js';

/** The time a report was made, as the driver's phone shows times. */
export function tapTime(iso: string | null): string {
  if (iso === null) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

export function progressLine(route: DriverRouteView): string {
  const done = route.stops.filter((stop) => stop.status === 'done').length;
  const failed = route.stops.filter((stop) => stop.status === 'failed').length;
  return `${done} of ${route.stops.length} stops done${failed > 0 ? ` · ${failed} failed` : ''}`;
}

export function routeView(route: DriverRouteView, actions: StopActions): HTMLElement {
  if (route.stops.length === 0) return h('p', { class: 'empty' }, 'No stops on your route today.');
  return h(
    'ol',
    { class: 'stop-list' },
    route.start ? endpointItem('Start', route.start) : null,
    ...route.stops.map((stop, index) => h('li', {}, stopCard(stop, index + 1, actions))),
    route.end ? endpointItem('End', route.end) : null,
  );
}

function endpointItem(label: 'Start' | 'End', end: { lat: number; lng: number; time_s: number }): HTMLLIElement {
  return h(
    'li',
    { class: 'endpoint' },
    h('span', { class: 'endpoint-label' }, `${label} ${clockOf(end.time_s)}`),
    ' ',
    h('a', { href: osmUrl(end.lat, end.lng) }, label === 'Start' ? 'Depot on the map' : 'End on the map'),
  );
}

function stopCard(stop: DriverStopView, number: number, actions: StopActions): HTMLElement {
  return h(
    'section',
    { class: `stop-card status-${stop.status}`, 'aria-label': `Stop ${number}: ${stop.name}`, 'data-stop-id': stop.stop_id },
    h(
      'div',
      { class: 'stop-head' },
      h('span', { class: 'stop-number', 'aria-hidden': 'true' }, String(number)),
      h('span', { class: 'stop-time' }, clockOf(stop.arrival_s)),
      stop.start_s !== null && stop.start_s !== stop.arrival_s
        ? h('span', { class: 'stop-serve' }, `serve ${clockOf(stop.start_s)}`)
        : null,
    ),
    stop.status === 'planned' ? expectedLine(stop) : null,
    h('h2', {}, stop.name),
    stop.address ? h('p', { class: 'address' }, stop.address) : null,
    stop.phone_number
      ? h('p', {}, h('a', { class: 'call', href: `tel:${stop.phone_number.replace(/[^\d+]/g, '')}` }, `Call ${stop.phone_number}`))
      : null,
    stop.notes ? h('p', { class: 'notes' }, stop.notes) : null,
    stop.custom_notes ? customNotes(stop.custom_notes) : null,
    h(
      'p',
      { class: 'navigate' },
      h('a', { href: geoUri(stop), class: 'nav-link' }, 'Navigate'),
      h('a', { href: osmUrl(stop.lat, stop.lng), class: 'nav-link', target: '_blank', rel: 'noopener noreferrer' }, 'OpenStreetMap'),
    ),
    statusArea(stop, actions),
  );
}

/** The arrival the day's reports now give, beside the planned one above it. */
function expectedLine(stop: DriverStopView): HTMLElement | null {
  const text = etaText(stop);
  return text === null ? null : h('p', { class: 'stop-eta' }, `Now expected ${text}`);
}

function customNotes(notes: Record<string, unknown>): HTMLTableElement {
  return h(
    'table',
    { class: 'custom-notes' },
    h('caption', { class: 'visually-hidden' }, 'Notes'),
    h(
      'tbody',
      {},
      ...Object.entries(notes).map(([key, value]) => h('tr', {}, h('th', { scope: 'row' }, key), h('td', {}, noteText(value)))),
    ),
  );
}

function noteText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function statusArea(stop: DriverStopView, actions: StopActions): HTMLElement {
  const step = actions.stepOf(stop);
  if (step) return step;
  if (stop.status === 'planned') {
    return h(
      'div',
      { class: 'stop-actions' },
      tap('Done', 'button primary big', () => actions.done(stop)),
      tap('Failed', 'button danger big', () => actions.fail(stop)),
    );
  }
  const when = tapTime(stop.at);
  const reason = failureText(stop.reason_code, stop.reason);
  const summary: Child[] =
    stop.status === 'done'
      ? [h('strong', {}, 'Done'), when ? ` at ${when}` : '', proofLine(stop.proof)]
      : [h('strong', {}, 'Failed'), when ? ` at ${when}` : '', reason ? `: ${reason}` : ''];
  return h(
    'div',
    { class: 'stop-actions reported' },
    h('p', { class: 'reported-line' }, ...summary),
    tap('Undo', 'button', () => actions.undo(stop)),
  );
}

/** " · photo, signature, received by Mme Durand": what proof went with the report. */
function proofLine(proof: StopProof | undefined): string {
  if (!proof) return '';
  const parts = [
    proof.photo_url ? 'photo' : '',
    proof.signature_url ? 'signature' : '',
    proof.recipient ? `received by ${proof.recipient}` : '',
  ];
  const given = parts.filter((part) => part !== '');
  return given.length > 0 ? ` · ${given.join(', ')}` : '';
}

function tap(label: string, className: string, onTap: () => void): HTMLButtonElement {
  const element = h('button', { type: 'button', class: className }, label);
  element.addEventListener('click', onTap);
  return element;
}

/** RFC 5870, with the name as the label most phone map apps show. */
export function geoUri(stop: DriverStopView): string {
  return `geo:${stop.lat},${stop.lng}?q=${stop.lat},${stop.lng}(${encodeURIComponent(stop.name)})`;
}

export function osmUrl(lat: number, lng: number): string {
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=17/${lat}/${lng}`;
}
