/**
 * The live day on the project page (decisions.md, "The live day"): each stop's planned time with
 * the estimate the reports give now, a Late flag in words and an icon (never colour alone), and
 * per driver the late count and their last shared position with its age.
 */
import { h, type Child } from './dom.js';
import { ageText, clockOf, etaText } from './eta-text.js';
import type { DispatchStopView, DriverLinkView } from './types.js';

/** The "Planned" cell: the dispatched arrival. */
export function plannedCell(stop: DispatchStopView): string {
  return clockOf(stop.arrival_s);
}

/** The "Expected" cell: the estimate when it moved, a Late flag when it passes the stop's window or the shift. */
export function expectedCell(stop: DispatchStopView): Child[] {
  if (stop.status !== 'planned') return ['—'];
  const text = etaText({ arrival_s: stop.arrival_s ?? null, eta_s: stop.eta_s, late: stop.late });
  const shown = text ?? unmovedText(stop.eta_s);
  return stop.late === true ? [shown, ' ', lateFlag()] : [shown];
}

/** A stop without times (no duration: no ETAs, as in the plan), or one whose estimate is the plan's (or not made yet). */
function unmovedText(eta: number | null | undefined): string {
  return eta === null ? '—' : 'as planned';
}

export function lateFlag(): HTMLElement {
  return h('span', { class: 'badge badge-late' }, h('span', { 'aria-hidden': 'true' }, '⚠ '), 'Late');
}

/** The driver's stops flagged late, as a count beside their name (nothing when none). */
export function lateCount(stops: DispatchStopView[], driverId: string): HTMLElement | null {
  const late = stops.filter((stop) => stop.driver_id === driverId && stop.status === 'planned' && stop.late === true).length;
  if (late === 0) return null;
  return h('span', { class: 'late-count' }, h('span', { 'aria-hidden': 'true' }, ' ⚠ '), `${late} late`);
}

/** Where the driver was last and how long ago, or that they do not share it. */
export function positionLine(link: DriverLinkView, nowMs: number): HTMLElement {
  const position = link.position;
  if (!position) return h('p', { class: 'hint' }, 'Location not shared.');
  const where = `${position.lat.toFixed(5)}, ${position.lng.toFixed(5)}`;
  const accuracy = position.accuracy_m !== undefined ? ` (±${Math.round(position.accuracy_m)} m)` : '';
  return h(
    'p',
    { class: 'driver-position' },
    'Last seen ',
    h('time', { datetime: position.at, title: new Date(position.at).toLocaleString() }, ageText(position.at, nowMs)),
    ' at ',
    h('a', { href: osmUrl(position.lat, position.lng), target: '_blank', rel: 'noopener noreferrer' }, where),
    accuracy,
  );
}

function osmUrl(lat: number, lng: number): string {
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`;
}
