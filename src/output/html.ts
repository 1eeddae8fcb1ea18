/**
 * The plan as one self-contained HTML page: an inline SVG map of the routes (distinct colours,
 * along the roads when the plan has their shapes, stop markers with tooltips), a legend and the
 * route tables. No scripts, fonts, tiles or any other network resource, so the file renders offline
 * and can be mailed as is. A street basemap is the service's pages' business: a file opened from
 * disk sends tile servers no referrer, which OpenStreetMap's tile usage policy asks for, and a
 * mailed plan would ask a third party for tiles each time it is opened.
 */
import type { Plan, PlanLocation, PlanRoute, PlanStopVisit, PlanUnserved } from './plan-types.js';
import {
  LATE_COLUMN,
  breakCells,
  formatDistance,
  formatDuration,
  formatLoad,
  formatTime,
  isOverloaded,
  stopCells,
  summaryLines,
} from './format.js';
import type { UnitDisplay } from './format.js';
import { routeColor } from './palette.js';
import { routeLocations, stopVisits } from './visits.js';

export interface HtmlOptions {
  /** Page title; default "routeplan plan". */
  title?: string;
  /** Benchmark plans: times and distances in instance units, shown as plain numbers. */
  rawUnits?: boolean;
  /** Coordinates are planar x/y (benchmarks), not latitude/longitude: no longitude shrinking. */
  planar?: boolean;
}

const MAP_WIDTH = 960;
const MAP_HEIGHT = 600;
const MAP_PADDING = 30;
/** Past this many stops, order numbers on the map would only add clutter; tooltips remain. */
const MAX_LABELLED_STOPS = 150;

export function renderPlanHtml(plan: Plan, options: HtmlOptions = {}): string {
  const title = options.title ?? 'routeplan plan';
  const display: UnitDisplay = { raw: options.rawUnits === true };
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<section class="summary">${summaryLines(plan.summary, display)
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('')}</section>`,
    '<section class="map">',
    renderMap(plan, options.planar === true, display),
    renderLegend(plan, display),
    '</section>',
    ...plan.routes.map((route, position) => renderRouteTable(route, position, display)),
    renderUnserved(plan),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

const STYLE = [
  'body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5rem;color:#222;background:#fff}',
  'h1{font-size:1.4rem;margin:0 0 .5rem}',
  'h2{font-size:1.1rem;margin:1.5rem 0 .3rem}',
  '.summary p{margin:.1rem 0;color:#444}',
  '.map{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start;margin-top:1rem}',
  'svg{border:1px solid #ccc;background:#f8f9fa;max-width:100%;height:auto}',
  '.legend{list-style:none;padding:0;margin:0;font-size:.9rem}',
  '.legend li{margin:.2rem 0}',
  '.swatch{display:inline-block;width:1.4rem;height:.35rem;margin-right:.4rem;vertical-align:middle;border-radius:2px}',
  'table{border-collapse:collapse;font-size:.9rem;margin-top:.3rem}',
  'th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:left}',
  'th{background:#f0f0f0}',
  'tr.break td{color:#777;font-style:italic}',
  'td.late{color:#b00020}',
  '.facts{color:#555;font-size:.9rem;margin:0}',
  'text.order{font-size:10px;font-weight:600;pointer-events:none}',
].join('');

interface Projection {
  x(location: PlanLocation): number;
  y(location: PlanLocation): number;
}

function renderMap(plan: Plan, planar: boolean, display: UnitDisplay): string {
  const open = `<svg role="img" aria-label="Map of the routes" viewBox="0 0 ${MAP_WIDTH} ${MAP_HEIGHT}" width="${MAP_WIDTH}" height="${MAP_HEIGHT}">`;
  const locations = [...plan.routes.flatMap(routePath), ...unservedLocated(plan).map((entry) => entry.location)];
  if (locations.length === 0) {
    return `${open}<text x="${MAP_WIDTH / 2}" y="${MAP_HEIGHT / 2}" text-anchor="middle" fill="#777">No routes to draw</text></svg>`;
  }
  const projection = fitProjection(locations, planar);
  const labelled = plan.summary.served <= MAX_LABELLED_STOPS;
  const layers = plan.routes.map((route, position) => renderRouteLayer(route, position, projection, labelled, display));
  layers.push(renderUnservedLayer(plan, projection));
  return `${open}\n${layers.join('\n')}\n</svg>`;
}

/** Unserved stops as grey crosses, so a dispatcher sees where the plan falls short. */
function renderUnservedLayer(plan: Plan, projection: Projection): string {
  const marks = unservedLocated(plan).map(({ entry, location }) => {
    const x = projection.x(location);
    const y = projection.y(location);
    const title = escapeHtml(`Unserved: ${entry.stop} (${entry.reason})`);
    return `<path d="M${round1(x - 5)},${round1(y - 5)}L${round1(x + 5)},${round1(y + 5)}M${round1(x - 5)},${round1(y + 5)}L${round1(x + 5)},${round1(y - 5)}" stroke="#555" stroke-width="2.5"><title>${title}</title></path>`;
  });
  return `<g class="unserved">${marks.join('')}</g>`;
}

function unservedLocated(plan: Plan): Array<{ entry: PlanUnserved; location: PlanLocation }> {
  return plan.unserved.flatMap((entry) => (entry.location ? [{ entry, location: entry.location }] : []));
}

/** Equirectangular projection fitted to the bounding box, keeping the aspect ratio. */
function fitProjection(locations: PlanLocation[], planar: boolean): Projection {
  const lats = locations.map((point) => point.lat);
  const minLat = Math.min(...lats);
  const maxLat = Math.max(...lats);
  // Longitude degrees shrink with latitude; planar benchmark coordinates do not.
  const shrink = planar ? 1 : Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const xs = locations.map((point) => point.lng * shrink);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const spanX = Math.max(maxX - minX, 1e-9);
  const spanY = Math.max(maxLat - minLat, 1e-9);
  const scale = Math.min((MAP_WIDTH - 2 * MAP_PADDING) / spanX, (MAP_HEIGHT - 2 * MAP_PADDING) / spanY);
  const offsetX = (MAP_WIDTH - spanX * scale) / 2;
  const offsetY = (MAP_HEIGHT - spanY * scale) / 2;
  return {
    x: (point) => round1(offsetX + (point.lng * shrink - minX) * scale),
    y: (point) => round1(MAP_HEIGHT - offsetY - (point.lat - minLat) * scale),
  };
}

function renderRouteLayer(route: PlanRoute, position: number, projection: Projection, labelled: boolean, display: UnitDisplay): string {
  const color = routeColor(position);
  const points = routePath(route)
    .map((point) => `${projection.x(point)},${projection.y(point)}`)
    .join(' ');
  const parts = [`<g class="route" data-route="${position + 1}">`];
  parts.push(
    `<polyline points="${points}" fill="none" stroke="${color}" stroke-width="2.5" stroke-opacity="0.85" stroke-linejoin="round"><title>${escapeHtml(`Route ${position + 1}: ${route.vehicle}`)}</title></polyline>`,
  );
  if (route.start.location) {
    const x = projection.x(route.start.location);
    const y = projection.y(route.start.location);
    parts.push(
      `<rect x="${round1(x - 6)}" y="${round1(y - 6)}" width="12" height="12" fill="#fff" stroke="${color}" stroke-width="3"><title>${escapeHtml(`${route.vehicle}: start ${formatTime(route.start.time, route.start.time_s, display)}`)}</title></rect>`,
    );
  }
  stopVisits(route).forEach((visit, order) => {
    const x = projection.x(visit.location);
    const y = projection.y(visit.location);
    parts.push(
      `<circle cx="${x}" cy="${y}" r="5" fill="${color}" stroke="#fff" stroke-width="1.5"><title>${escapeHtml(stopTooltip(route, visit, order + 1, display))}</title></circle>`,
    );
    if (labelled) {
      parts.push(`<text class="order" x="${round1(x + 7)}" y="${round1(y - 6)}" fill="${color}">${order + 1}</text>`);
    }
  });
  parts.push('</g>');
  return parts.join('\n');
}

/** The line a route is drawn along: the roads' shape when the provider gave it (routes[].geometry), straight from place to place otherwise. */
function routePath(route: PlanRoute): PlanLocation[] {
  return route.geometry ? route.geometry.coordinates.map(([lng, lat]) => ({ lat, lng })) : routeLocations(route);
}

function stopTooltip(route: PlanRoute, visit: PlanStopVisit, order: number, display: UnitDisplay): string {
  const time = (clock: string | null, seconds: number | null): string => formatTime(clock, seconds, display);
  const times =
    visit.arrival_s === null
      ? 'no ETA (no duration)'
      : `arrival ${time(visit.arrival, visit.arrival_s)}, service ${time(visit.start, visit.start_s)}–${time(visit.finish, visit.finish_s)}`;
  const late = visit.late_s > 0 ? `, late ${formatDuration(visit.late_s, display)}` : '';
  return `${visit.stop} — ${route.vehicle} #${order}: ${times}${late}`;
}

function renderLegend(plan: Plan, display: UnitDisplay): string {
  const items = plan.routes.map((route, position) => {
    const stops = stopVisits(route).length;
    return (
      `<li><span class="swatch" style="background:${routeColor(position)}"></span>` +
      `${escapeHtml(`Route ${position + 1}: ${route.vehicle}`)} — ${stops} stop${stops === 1 ? '' : 's'}, ` +
      `${escapeHtml(formatDistance(route.distance_m, display))}</li>`
    );
  });
  return `<ul class="legend">${items.join('')}</ul>`;
}

function renderRouteTable(route: PlanRoute, position: number, display: UnitDisplay): string {
  const rows: string[] = [];
  let order = 0;
  for (const visit of route.visits) {
    if (visit.kind === 'stop') {
      order += 1;
      const cells = stopCells(visit, order, display);
      rows.push(tableRow('', cells, cells[LATE_COLUMN] ? LATE_COLUMN : undefined));
    } else {
      rows.push(tableRow('break', breakCells(visit, display)));
    }
  }
  const facts =
    `${formatTime(route.start.time, route.start.time_s, display)} → ${formatTime(route.end.time, route.end.time_s, display)}` +
    `${route.end.location === null ? ' (open end)' : ''} · distance ${formatDistance(route.distance_m, display)} · ` +
    `working ${formatDuration(route.working_s, display)} · load ${formatLoad(route.load)}` +
    (isOverloaded(route.overload) ? ` · overload ${formatLoad(route.overload!)}` : '');
  return [
    `<h2><span class="swatch" style="background:${routeColor(position)}"></span>${escapeHtml(`Route ${position + 1}: ${route.vehicle}`)}</h2>`,
    `<p class="facts">${escapeHtml(facts)}</p>`,
    '<table>',
    '<thead><tr><th>#</th><th>Stop</th><th>Arrival</th><th>Start</th><th>Finish</th><th>Load after</th><th>Late</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody>`,
    '</table>',
  ].join('\n');
}

function renderUnserved(plan: Plan): string {
  if (plan.unserved.length === 0) return '';
  // The fix hints, smallest first, in one cell: a map page keeps its tables plain.
  const hints = (entry: PlanUnserved): string => (entry.hints ?? []).map((hint) => hint.text).join('; ') || '—';
  const rows = plan.unserved.map((entry) => tableRow('', [entry.stop, entry.reason, entry.message, hints(entry)]));
  return [
    `<h2>Unserved: ${plan.unserved.length}</h2>`,
    '<table>',
    '<thead><tr><th>Stop</th><th>Reason</th><th>Message</th><th>Would fit if</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody>`,
    '</table>',
  ].join('\n');
}

function tableRow(rowClass: string, cells: string[], lateColumn?: number): string {
  const cellHtml = cells.map((cell, column) =>
    column === lateColumn ? `<td class="late">${escapeHtml(cell)}</td>` : `<td>${escapeHtml(cell)}</td>`,
  );
  return `<tr${rowClass ? ` class="${rowClass}"` : ''}>${cellHtml.join('')}</tr>`;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
