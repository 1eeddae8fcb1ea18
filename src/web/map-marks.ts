/**
 * What the project map draws for a stop of a plan and for a driver's position: the markers (their
 * shape and glyph say planned, done, failed or late, not their colour alone) and a stop's details
 * in a popup. Everything from the project goes in as text, never as HTML.
 */
import L from 'leaflet';
import type { PlanRoute, PlanStopVisit } from '../output/plan-types.js';
import { clockOf } from './driver-view.js';
import { h } from './dom.js';
import type { DispatchStopView, DriverPosition, ProjectStop } from './types.js';

export type StopState = 'planned' | 'done' | 'failed';

/** How a stop stands on the live day: its report, and whether its estimate passes its window. */
export interface StopLive {
  status: StopState;
  late: boolean;
  eta_s: number | null;
}

export function liveOf(report: DispatchStopView | undefined): StopLive {
  return { status: report?.status ?? 'planned', late: report?.late === true, eta_s: report?.eta_s ?? null };
}

const GLYPH: Record<Exclude<StopState, 'planned'>, string> = { done: '✓', failed: '✗' };
const WORD: Record<StopState, string> = { planned: 'Planned', done: 'Done', failed: 'Failed' };

/**
 * A planned stop is its number on a disc of the route's colour; a done one a ✓ in a hollow disc, a
 * failed one a ✗ in a hollow square, both ringed in the route's colour; a late one carries a "!".
 */
export function stopIcon(order: number, color: string, live: StopLive): L.DivIcon {
  const late = live.late && live.status === 'planned' ? '<span class="pin-late" aria-hidden="true">!</span>' : '';
  const html =
    live.status === 'planned'
      ? `<span class="pin" style="--route:${color}">${order}${late}</span>`
      : `<span class="pin pin-${live.status}" style="--route:${color}">${GLYPH[live.status]}</span>`;
  return L.divIcon({
    html,
    className: 'pin-icon',
    iconSize: [24, 24],
    iconAnchor: [12, 12],
    tooltipAnchor: [12, 0],
    popupAnchor: [0, -12],
  });
}

/** The words a marker's title and tooltip carry: the same facts as its shape. */
export function stopWords(route: PlanRoute, visit: PlanStopVisit, order: number, live: StopLive): string {
  const time = visit.arrival_s === null ? 'no ETA' : `arrival ${clockOf(visit.arrival_s)}`;
  const state = live.status === 'planned' ? (live.late ? ', running late' : '') : `, ${WORD[live.status].toLowerCase()}`;
  return `${route.vehicle} #${order}: ${visit.stop} (${time}${state})`;
}

/** The popup a marker opens: name, address, window, planned time, current estimate, status, driver. */
export function stopDetails(route: PlanRoute, visit: PlanStopVisit, stop: ProjectStop | undefined, live: StopLive): HTMLElement {
  const rows: [string, string][] = [
    ['Address', stop?.location?.address ?? `${visit.location.lat.toFixed(5)}, ${visit.location.lng.toFixed(5)}`],
    ['Window', windowText(stop)],
    ['Planned', clockOf(visit.arrival_s)],
    ...(live.eta_s !== null ? ([['Estimate', `${clockOf(live.eta_s)}${live.late ? ' (late)' : ''}`]] as [string, string][]) : []),
    ['Status', WORD[live.status] + (live.late && live.status === 'planned' ? ', running late' : '')],
    ['Driver', route.vehicle],
  ];
  return h(
    'div',
    { class: 'stop-popup' },
    h('p', { class: 'stop-popup-name' }, visit.stop),
    h('dl', {}, ...rows.map(([name, value]) => h('div', {}, h('dt', {}, name), h('dd', {}, value)))),
  );
}

function windowText(stop: ProjectStop | undefined): string {
  const windows = stop?.time_windows?.length
    ? stop.time_windows
    : stop && (stop.start || stop.end)
      ? [{ start: stop.start, end: stop.end }]
      : [];
  return windows.map((entry) => `${entry.start ?? '…'}–${entry.end ?? '…'}`).join(', ') || 'any time';
}

/** A driver's last shared place: a dot in their route's colour with their name and how old it is. */
export function positionIcon(driver: string, color: string, position: DriverPosition, now: number): L.DivIcon {
  const label = document.createElement('span');
  label.className = 'driver-position';
  label.style.setProperty('--route', color);
  label.append(
    h('span', { class: 'driver-dot', 'aria-hidden': 'true' }),
    h('span', { class: 'driver-label' }, `${driver} · ${ageText(position.at, now)}`),
  );
  return L.divIcon({ html: label, className: 'pin-icon', iconSize: [18, 18], iconAnchor: [9, 9], tooltipAnchor: [9, 0] });
}

/** "just now", "3 min ago", "2 h ago": how long since the phone took the position. */
export function ageText(at: string, now: number): string {
  const minutes = Math.floor(Math.max(0, now - Date.parse(at)) / 60_000);
  if (!Number.isFinite(minutes)) return 'time unknown';
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ago`;
}
