/**
 * The plan's exports: the plan JSON (contract v1 as the service answered it), GeoJSON (the same
 * writer as `routeplan solve -o plan.geojson`), a CSV per driver and the printable driver sheets.
 */
import type { Plan, PlanRoute } from '../output/plan-types.js';
import { buildGeoJson } from '../output/geojson.js';
import { routeCsv } from '../output/csv.js';
import { button, download, fileSlug, h, hiddenText, type Child } from './dom.js';
import { stopAddress } from './project-data.js';
import type { Project } from './types.js';

export interface ExportContext {
  project: Project;
  actionUuid: string;
  plan: Plan;
}

/** Spreadsheets (Excel above all) read a CSV as UTF-8 only when it starts with a byte order mark. */
const UTF8_BOM = '\uFEFF';

function fileBase(context: ExportContext): string {
  return fileSlug(`${context.project.name} ${context.project.date}`);
}

export function exportButtons(context: ExportContext): HTMLElement[] {
  const base = fileBase(context);
  return [
    button('Plan JSON', () => download(`${base}.plan.json`, 'application/json', `${JSON.stringify(context.plan, null, 2)}\n`), {
      class: 'button',
    }),
    button(
      'GeoJSON',
      () => download(`${base}.geojson`, 'application/geo+json', `${JSON.stringify(buildGeoJson(context.plan), null, 2)}\n`),
      {
        class: 'button',
      },
    ),
    h('a', { class: 'button', href: printUrl(context), target: '_blank', rel: 'noopener' }, 'Print sheets'),
    h('p', { class: 'hint' }, 'A CSV file per driver is next to each itinerary below.'),
  ];
}

/** The CSV and print controls of one itinerary. */
export function routeTools(context: ExportContext): (route: PlanRoute, position: number) => Child[] {
  const base = fileBase(context);
  return (route, position) => [
    button(
      ['CSV', hiddenText(` for ${route.vehicle}`)],
      () =>
        download(
          `${base}-${position + 1}-${fileSlug(route.vehicle)}.csv`,
          'text/csv;charset=utf-8',
          UTF8_BOM + routeCsv(route, (index) => stopAddress(context.project, index)),
        ),
      { class: 'button small' },
    ),
    h(
      'a',
      { class: 'button small', href: printUrl(context, position), target: '_blank', rel: 'noopener' },
      'Print',
      hiddenText(` sheet for ${route.vehicle}`),
    ),
  ];
}

function printUrl(context: ExportContext, routeIndex?: number): string {
  const query = new URLSearchParams({ plan: context.actionUuid });
  if (routeIndex !== undefined) query.set('driver', String(routeIndex));
  return `/projects/${encodeURIComponent(context.project.id)}/print?${query.toString()}`;
}
