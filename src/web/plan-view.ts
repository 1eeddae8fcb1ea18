/** A finished plan as the page shows it: the summary, each driver's itinerary and the unserved stops. */
import type { Plan, PlanRoute, PlanStopVisit } from '../output/plan-types.js';
import {
  LATE_COLUMN,
  breakCells,
  formatDistance,
  formatDuration,
  formatLoad,
  formatNumber,
  formatTime,
  plural,
  stopCells,
} from '../output/format.js';
import { routeColor } from '../output/palette.js';
import { h, hiddenText, type Attributes, type Child } from './dom.js';
import { stopVisits } from '../output/visits.js';
import { hintList } from './unserved-hints.js';

const DISPLAY = { raw: false };

export function summaryView(plan: Plan): HTMLElement {
  const s = plan.summary;
  const figures: Array<[string, string]> = [
    ['Routes', String(s.routes_used)],
    ['Served', String(s.served)],
    ['Unserved', String(s.unserved)],
    ['Distance', formatDistance(s.distance_m)],
    ['Driving', formatDuration(s.driving_s)],
    ['Working', formatDuration(s.working_s)],
    ['Waiting', formatDuration(s.waiting_s)],
    ['Lateness', formatDuration(s.lateness_s)],
    ['Overtime', formatDuration(s.overtime_s)],
    ['Priority served', formatNumber(s.priority_served)],
  ];
  return h(
    'dl',
    { class: 'figures' },
    ...figures.map(([name, value]) => h('div', { class: 'figure' }, h('dt', {}, name), h('dd', {}, value))),
  );
}

/** Per-route buttons the exports add to each itinerary's header (CSV, print). */
export type RouteTools = (route: PlanRoute, position: number) => Child[];

/**
 * What the page adds to an itinerary when the plan can be adjusted by hand (plan-edit.ts): a
 * column of per-stop controls, a note under a stop or a route (its violations, its lock), and
 * the attributes that make rows and routes draggable and drop targets.
 */
export interface StopExtras {
  column: string;
  cell(visit: PlanStopVisit, route: PlanRoute): Child;
  note(visit: PlanStopVisit, route: PlanRoute): Child;
  row(visit: PlanStopVisit, route: PlanRoute): Attributes;
  routeNote(route: PlanRoute): Child;
  routeAttributes(route: PlanRoute): Attributes;
}

export function itinerariesView(plan: Plan, tools: RouteTools, extras?: StopExtras): HTMLElement[] {
  if (plan.routes.length === 0) return [h('p', { class: 'muted' }, 'No driver has a route in this plan.')];
  return plan.routes.map((route, position) => itinerary(route, position, tools, extras));
}

function itinerary(route: PlanRoute, position: number, tools: RouteTools, extras?: StopExtras): HTMLElement {
  const headingId = `route-${position + 1}-title`;
  const facts =
    `${formatTime(route.start.time, route.start.time_s, DISPLAY)} → ${formatTime(route.end.time, route.end.time_s, DISPLAY)}` +
    `${route.end.location === null ? ' (open end)' : ''} · ${plural(stopVisits(route).length, 'stop')} · ${formatDistance(route.distance_m)} · ` +
    `working ${formatDuration(route.working_s)} · load ${formatLoad(route.load)}` +
    (route.overtime_s > 0 ? ` · overtime ${formatDuration(route.overtime_s)}` : '');
  return h(
    'article',
    { class: 'itinerary', 'aria-labelledby': headingId, style: `--route:${routeColor(position)}`, ...extras?.routeAttributes(route) },
    h(
      'header',
      { class: 'itinerary-head' },
      h(
        'h4',
        { id: headingId },
        h('span', { class: 'key key-route', 'aria-hidden': 'true' }, position + 1),
        `Route ${position + 1}: ${route.vehicle}`,
      ),
      h('div', { class: 'tools' }, ...tools(route, position)),
    ),
    h('p', { class: 'facts' }, facts),
    extras?.routeNote(route),
    h('div', { class: 'table-wrap' }, itineraryTable(route, extras)),
  );
}

function itineraryTable(route: PlanRoute, extras?: StopExtras): HTMLTableElement {
  const rows: HTMLTableRowElement[] = [];
  let order = 0;
  for (const visit of route.visits) {
    if (visit.kind === 'stop') {
      order += 1;
      const cells = stopCells(visit, order, DISPLAY);
      rows.push(
        h(
          'tr',
          extras?.row(visit, route) ?? {},
          ...cells.map((cell, column) =>
            h(
              'td',
              column === LATE_COLUMN && cell ? { class: 'late' } : {},
              column === 1 ? reportedText(cell, visit) : lateText(cell, column),
              column === 1 ? extras?.note(visit, route) : null,
            ),
          ),
          extras ? h('td', { class: 'stop-tools' }, extras.cell(visit, route)) : null,
        ),
      );
    } else {
      const cells = breakCells(visit, DISPLAY);
      cells[1] = 'Break';
      if (extras) cells.push('');
      rows.push(h('tr', { class: 'break-row' }, ...cells.map((cell) => h('td', {}, cell))));
    }
  }
  const columns = ['#', 'Stop', 'Arrival', 'Start', 'Finish', 'Load after', 'Late', ...(extras ? [extras.column] : [])];
  return h(
    'table',
    { class: 'data compact' },
    h('caption', { class: 'visually-hidden' }, `Itinerary of ${route.vehicle}`),
    h('thead', {}, h('tr', {}, ...columns.map((name) => h('th', { scope: 'col' }, name)))),
    h('tbody', {}, ...rows),
  );
}

/** A re-optimized day's stops already done or failed say so (their times are those dispatched). */
function reportedText(cell: string, visit: PlanStopVisit): Child {
  if (visit.status !== 'done' && visit.status !== 'failed') return cell;
  const done = visit.status === 'done';
  return h('span', {}, cell, ' ', h('span', { class: `badge ${done ? 'badge-finished' : 'badge-failed'}` }, done ? 'Done' : 'Failed'));
}

/** Lateness is said in words too, not only in red. */
function lateText(cell: string, column: number): Child {
  return column === LATE_COLUMN && cell ? h('span', {}, hiddenText('late by '), cell) : cell;
}

/** With `tools`, a last column of what the user can do with an unserved stop (put it on a route). */
export function unservedView(plan: Plan, tools?: (entry: Plan['unserved'][number]) => Child): HTMLElement | null {
  if (plan.unserved.length === 0) return null;
  return h(
    'section',
    { class: 'unserved', 'aria-labelledby': 'unserved-title' },
    h('h3', { id: 'unserved-title' }, `Unserved stops (${plan.unserved.length})`),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'data' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['Stop', 'Reason', 'Message', 'Would fit if', ...(tools ? ['Adjust'] : [])].map((name) => h('th', { scope: 'col' }, name)),
          ),
        ),
        h(
          'tbody',
          {},
          ...plan.unserved.map((entry) =>
            h(
              'tr',
              {},
              h('td', { 'data-label': 'Stop' }, entry.stop),
              h('td', { 'data-label': 'Reason' }, h('code', {}, entry.reason)),
              h('td', { 'data-label': 'Message' }, entry.message),
              h('td', { class: 'hint-cell', 'data-label': 'Would fit if' }, hintList(entry)),
              tools ? h('td', { class: 'stop-tools' }, tools(entry)) : null,
            ),
          ),
        ),
      ),
    ),
  );
}
