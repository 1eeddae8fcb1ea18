/**
 * `/projects/{id}/print?plan=<actionUuid>&driver=<route index or name>`: one printable sheet per
 * driver (one page each under `@media print`): the stops in order with times, address, phone
 * and notes. Without `plan`, the project's latest finished optimization.
 */
import type { Plan, PlanRoute } from '../output/plan-types.js';
import { formatDistance, formatDuration, formatLoad, formatTime, plural } from '../output/format.js';
import { stopVisits } from '../output/visits.js';
import { ApiError, getAction, getProject, loadSession } from './api.js';
import { formatDate, signInUrl } from './account.js';
import { byId, h } from './dom.js';
import { placeText, stopAddress } from './project-data.js';
import type { Project } from './types.js';

const DISPLAY = { raw: false };

async function main(): Promise<void> {
  if ((await loadSession()) === null) {
    location.assign(signInUrl());
    return;
  }
  const projectId = decodeURIComponent(/^\/projects\/([^/]+)/.exec(location.pathname)?.[1] ?? '');
  byId<HTMLAnchorElement>('back').href = `/projects/${encodeURIComponent(projectId)}`;
  const project = await getProject(projectId);
  const query = new URLSearchParams(location.search);
  const actionUuid = query.get('plan') ?? project.optimizations?.find((item) => item.status === 'finished')?.actionUuid;
  if (actionUuid === undefined) {
    byId('print-status').textContent = 'This project has no plan yet: optimize it first.';
    return;
  }
  const action = await getAction(actionUuid);
  if (action.status !== 'finished' || !action.solution) {
    byId('print-status').textContent = 'This optimization has no plan to print.';
    return;
  }
  const routes = chosenRoutes(action.solution, query.get('driver'));
  document.title = `Driver sheets — ${project.name} · routeplan`;
  byId('sheets').replaceChildren(...routes.map(({ route, position }) => sheet(project, route, position)));
  byId('print-status').textContent = `${plural(routes.length, 'driver sheet')}, one page each when printed.`;
  const print = byId<HTMLButtonElement>('print');
  print.disabled = false;
  print.addEventListener('click', () => window.print());
}

/** All routes, or the one named by `driver` (its index in the plan, or the driver's name). */
function chosenRoutes(plan: Plan, driver: string | null): Array<{ route: PlanRoute; position: number }> {
  const all = plan.routes.map((route, position) => ({ route, position }));
  if (driver === null || driver === '') return all;
  return all.filter(({ route, position }) => String(position) === driver || route.vehicle === driver);
}

function sheet(project: Project, route: PlanRoute, position: number): HTMLElement {
  const driver = project.drivers[route.vehicle_index];
  const phone = typeof route.phone_number === 'string' ? route.phone_number : driver?.phone_number;
  const stops = stopVisits(route).length;
  return h(
    'section',
    { class: 'sheet', 'aria-labelledby': `sheet-${position}` },
    h(
      'header',
      { class: 'sheet-head' },
      h('h1', { id: `sheet-${position}` }, route.vehicle),
      h('p', {}, `${project.name} · ${formatDate(project.date)}`),
    ),
    h(
      'p',
      { class: 'facts' },
      `Start ${formatTime(route.start.time, route.start.time_s, DISPLAY)} at ${placeText(driver?.start_location) || 'the depot'} · ` +
        `${plural(stops, 'stop')} · ${formatDistance(route.distance_m)} · ` +
        `end ${formatTime(route.end.time, route.end.time_s, DISPLAY)}${route.end.location ? ` at ${placeText(driver?.end_location) || 'the depot'}` : ' (open end)'}` +
        (phone ? ` · driver phone ${phone}` : ''),
    ),
    sheetTable(project, route),
    h('p', { class: 'sheet-foot' }, `Route ${position + 1} · load ${formatLoad(route.load)}`),
  );
}

function sheetTable(project: Project, route: PlanRoute): HTMLTableElement {
  const rows: HTMLTableRowElement[] = [];
  let order = 0;
  for (const visit of route.visits) {
    if (visit.kind === 'break') {
      rows.push(
        h(
          'tr',
          { class: 'break-row' },
          h('td', {}),
          h('td', {}, `${formatTime(visit.start, visit.start_s, DISPLAY)}–${formatTime(visit.finish, visit.finish_s, DISPLAY)}`),
          h('td', { colspan: 4 }, 'Break'),
        ),
      );
      continue;
    }
    order += 1;
    const late = visit.late_s > 0 ? ` (late ${formatDuration(visit.late_s)})` : '';
    rows.push(
      h(
        'tr',
        {},
        h('td', { class: 'num' }, order),
        h(
          'td',
          {},
          `${formatTime(visit.arrival, visit.arrival_s, DISPLAY)} · ${formatTime(visit.start, visit.start_s, DISPLAY)}–${formatTime(visit.finish, visit.finish_s, DISPLAY)}${late}`,
        ),
        h('td', {}, h('strong', {}, visit.stop)),
        h('td', {}, stopAddress(project, visit.stop_index) || '—'),
        h(
          'td',
          {},
          typeof visit.phone_number === 'string'
            ? h('a', { href: `tel:${visit.phone_number.replace(/\s+/g, '')}` }, visit.phone_number)
            : '—',
        ),
        h('td', {}, typeof visit.notes === 'string' ? visit.notes : ''),
      ),
    );
  }
  return h(
    'table',
    { class: 'data sheet-table' },
    h(
      'thead',
      {},
      h('tr', {}, ...['#', 'Arrival · service', 'Stop', 'Address', 'Phone', 'Notes'].map((name) => h('th', { scope: 'col' }, name))),
    ),
    h('tbody', {}, ...rows),
  );
}

main().catch((error: unknown) => {
  const box = byId('page-error');
  box.textContent =
    error instanceof ApiError && error.status === 404
      ? 'Project or plan not found.'
      : `The sheets could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
  box.hidden = false;
  byId('print-status').hidden = true;
});
