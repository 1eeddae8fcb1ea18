/** The project as the page shows it: its drivers and stops tables, and their places on the map. */
import { button, h, type Child } from './dom.js';
import { lockBadge } from './plan-notes.js';
import type { ClockWindow, Coords, Project, ProjectDriver, ProjectLocation, ProjectStop } from './types.js';

/** The editor's hooks for one table: its name opens the item, and the row's own controls; none on a page that only shows. */
export interface RowEditing<T> {
  open(item: T): void;
  actions(item: T): Child[];
}

export function driversTable(drivers: ProjectDriver[], editing?: RowEditing<ProjectDriver>): HTMLTableElement {
  return dataTable(
    'The drivers of this project',
    ['Driver', 'Shift', 'Capacity', 'Types', 'Break', 'Start', 'End'],
    drivers.map((driver) => [
      nameCell(driver.name, editing && (() => editing.open(driver))),
      span(driver.shift_start, driver.shift_end, 'any time'),
      driver.capacity !== undefined ? String(driver.capacity) : '—',
      typeList(driver.types),
      driverBreaks(driver)
        .map((entry) => span(entry.start, entry.end, ''))
        .join(', ') || '—',
      placeText(driver.start_location) || '—',
      driver.end_location ? placeText(driver.end_location) : 'open end (last stop)',
    ]),
    editing && drivers.map((driver) => editing.actions(driver)),
  );
}

export function stopsTable(stops: ProjectStop[], settings: Record<string, unknown>, editing?: RowEditing<ProjectStop>): HTMLTableElement {
  const fallback = (name: string, unit: string): string => {
    const value = settings[name];
    return typeof value === 'number' ? `${value}${unit} (default)` : 'default';
  };
  return dataTable(
    'The stops of this project',
    ['#', 'Stop', 'Window', 'Duration', 'Load', 'Priority', 'Types', 'Address'],
    stops.map((stop, index) => [
      String(index + 1),
      h('span', {}, nameCell(stop.name, editing && (() => editing.open(stop))), ' ', lockBadge(stop)),
      stopWindows(stop)
        .map((entry) => span(entry.start, entry.end, 'any time'))
        .join(', ') || 'any time',
      stop.duration !== undefined ? `${stop.duration} min` : fallback('default_duration', ' min'),
      stop.load !== undefined ? loadText(stop.load) : fallback('default_load', ''),
      stop.priority !== undefined ? String(stop.priority) : 'regular',
      typeList(stop.types),
      placeText(stop.location) || '—',
    ]),
    editing && stops.map((stop) => editing.actions(stop)),
  );
}

/** The name, as a button that opens the editor when the page edits: on a phone the row's controls are a scroll away. */
function nameCell(name: string, open: (() => void) | undefined): Child {
  return open ? button(name, open, { class: 'link-button name-button' }) : name;
}

function dataTable(caption: string, headings: string[], rows: Child[][], actions?: Child[][]): HTMLTableElement {
  const actionHeading = actions
    ? [h('th', { scope: 'col', class: 'actions-heading' }, h('span', { class: 'visually-hidden' }, 'Actions'))]
    : [];
  return h(
    'table',
    { class: 'data' },
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, ...headings.map((name) => h('th', { scope: 'col' }, name)), ...actionHeading)),
    h(
      'tbody',
      {},
      ...rows.map((cells, row) =>
        h('tr', {}, ...cells.map((cell) => h('td', {}, cell)), actions ? h('td', { class: 'row-actions' }, ...actions[row]!) : null),
      ),
    ),
  );
}

export function driverBreaks(driver: ProjectDriver): ClockWindow[] {
  return [...(driver.break ? [driver.break] : []), ...(driver.breaks ?? [])];
}

function stopWindows(stop: ProjectStop): ClockWindow[] {
  if (stop.time_windows && stop.time_windows.length > 0) return stop.time_windows;
  return stop.start !== undefined || stop.end !== undefined ? [{ start: stop.start, end: stop.end }] : [];
}

function span(start: string | undefined, end: string | undefined, none: string): string {
  if (start === undefined && end === undefined) return none;
  if (end === undefined) return `from ${start}`;
  if (start === undefined) return `until ${end}`;
  return `${start}–${end}`;
}

function typeList(types: string | string[] | undefined): string {
  if (types === undefined) return '—';
  return (Array.isArray(types) ? types : [types]).join(', ');
}

function loadText(load: NonNullable<ProjectStop['load']>): string {
  if (typeof load === 'number') return String(load);
  return Object.entries(load)
    .map(([name, value]) => `${name} ${value}`)
    .join(', ');
}

/** The address as given, else the coordinates: what a person can find the place by. */
export function placeText(location: ProjectLocation | undefined): string {
  if (!location) return '';
  if (location.address) return location.address;
  return location.coords ? `${location.coords.lat.toFixed(5)}, ${location.coords.lng.toFixed(5)}` : '';
}

/** Where a plan's stop is, for the CSV and the sheets: by its index in the plan (= its place in the project). */
export function stopAddress(project: Project, stopIndex: number): string {
  return placeText(project.stops[stopIndex]?.location);
}

export interface Depot {
  coords: Coords;
  label: string;
  drivers: string[];
}

/** Drivers' start and end places, one marker per place, naming who starts or ends there. */
export function depots(project: Project): Depot[] {
  const byPlace = new Map<string, Depot>();
  for (const driver of project.drivers) {
    for (const location of [driver.start_location, driver.end_location]) {
      const coords = location?.coords;
      if (!coords) continue;
      const key = `${coords.lat},${coords.lng}`;
      const depot = byPlace.get(key) ?? { coords, label: placeText(location), drivers: [] };
      if (!depot.drivers.includes(driver.name)) depot.drivers.push(driver.name);
      byPlace.set(key, depot);
    }
  }
  return [...byPlace.values()];
}
