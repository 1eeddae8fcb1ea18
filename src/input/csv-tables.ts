/**
 * CSV tables → the entries of a document (stops/drivers for a project, ordersData/routesData
 * for a one-off), remembering each field's column so errors read `stops.csv row 4, column
 * priority`. Column names are matched loosely: case, spaces, `_` and `-` do not matter, so
 * `time_windows`, `timeWindows` and `Time Windows` are the same column.
 */
import type { CsvOrigin } from './paths.js';
import type { CsvTable } from './csv.js';

export type TableRole = 'stops' | 'drivers' | 'ordersData' | 'routesData';

/** Where a cell goes in the entry, and how its text is read. */
interface ColumnTarget {
  path: string[];
  read: 'text' | 'number' | 'numberOrText' | 'list' | 'windows';
}

const t = (path: string, read: ColumnTarget['read'] = 'text'): ColumnTarget => ({ path: path.split('.'), read });

const STOP_COLUMNS: Record<string, ColumnTarget> = {
  name: t('name'),
  address: t('location.address'),
  lat: t('location.coords.lat', 'number'),
  latitude: t('location.coords.lat', 'number'),
  lng: t('location.coords.lng', 'number'),
  lon: t('location.coords.lng', 'number'),
  long: t('location.coords.lng', 'number'),
  longitude: t('location.coords.lng', 'number'),
  start: t('start'),
  end: t('end'),
  timewindows: t('time_windows', 'windows'),
  duration: t('duration', 'number'),
  load: t('load', 'number'),
  types: t('types', 'list'),
  tags: t('types', 'list'),
  priority: t('priority', 'numberOrText'),
  phonenumber: t('phone_number'),
  phone: t('phone_number'),
  email: t('email'),
  notes: t('notes'),
};

const DRIVER_COLUMNS: Record<string, ColumnTarget> = {
  name: t('name'),
  startaddress: t('start_location.address'),
  startlat: t('start_location.coords.lat', 'number'),
  startlatitude: t('start_location.coords.lat', 'number'),
  startlng: t('start_location.coords.lng', 'number'),
  startlon: t('start_location.coords.lng', 'number'),
  startlongitude: t('start_location.coords.lng', 'number'),
  endaddress: t('end_location.address'),
  endlat: t('end_location.coords.lat', 'number'),
  endlatitude: t('end_location.coords.lat', 'number'),
  endlng: t('end_location.coords.lng', 'number'),
  endlon: t('end_location.coords.lng', 'number'),
  endlongitude: t('end_location.coords.lng', 'number'),
  shiftstart: t('shift_start'),
  shiftend: t('shift_end'),
  capacity: t('capacity', 'number'),
  speed: t('speed', 'numberOrText'),
  types: t('types', 'list'),
  tags: t('types', 'list'),
  breakstart: t('break.start'),
  breakend: t('break.end'),
  phonenumber: t('phone_number'),
  phone: t('phone_number'),
};

const ORDER_COLUMNS: Record<string, ColumnTarget> = {
  name: t('name'),
  address: t('locations.0.address'),
  lat: t('locations.0.latitude', 'number'),
  latitude: t('locations.0.latitude', 'number'),
  lng: t('locations.0.longitude', 'number'),
  lon: t('locations.0.longitude', 'number'),
  long: t('locations.0.longitude', 'number'),
  longitude: t('locations.0.longitude', 'number'),
  start: t('timeWindows.0.startTime'),
  starttime: t('timeWindows.0.startTime'),
  end: t('timeWindows.0.endTime'),
  endtime: t('timeWindows.0.endTime'),
  timewindows: t('timeWindows', 'windows'),
  duration: t('duration', 'number'),
  load: t('load', 'number'),
  tags: t('tags', 'list'),
  types: t('tags', 'list'),
  displayorderid: t('displayOrderId'),
  customerordernumber: t('customerOrderNumber'),
};

const ROUTE_COLUMNS: Record<string, ColumnTarget> = {
  name: t('name'),
  startaddress: t('constraints.startLocations.0.address'),
  startlat: t('constraints.startLocations.0.latitude', 'number'),
  startlatitude: t('constraints.startLocations.0.latitude', 'number'),
  startlng: t('constraints.startLocations.0.longitude', 'number'),
  startlon: t('constraints.startLocations.0.longitude', 'number'),
  startlongitude: t('constraints.startLocations.0.longitude', 'number'),
  endaddress: t('constraints.endLocations.0.address'),
  endlat: t('constraints.endLocations.0.latitude', 'number'),
  endlatitude: t('constraints.endLocations.0.latitude', 'number'),
  endlng: t('constraints.endLocations.0.longitude', 'number'),
  endlon: t('constraints.endLocations.0.longitude', 'number'),
  endlongitude: t('constraints.endLocations.0.longitude', 'number'),
  starttime: t('constraints.startTime'),
  shiftstart: t('constraints.startTime'),
  endtime: t('constraints.endTime'),
  shiftend: t('constraints.endTime'),
  capacity: t('constraints.capacity', 'number'),
  tags: t('constraints.tags', 'list'),
  types: t('constraints.tags', 'list'),
};

/** Columns `load_weight` / `capacity_volume` fill the object form of load and capacity. */
const NAMED_DIMENSION_PREFIX: Record<TableRole, { prefix: string; path: string[] }> = {
  stops: { prefix: 'load_', path: ['load'] },
  ordersData: { prefix: 'load_', path: ['load'] },
  drivers: { prefix: 'capacity_', path: ['capacity'] },
  routesData: { prefix: 'capacity_', path: ['constraints', 'capacity'] },
};

const COLUMNS: Record<TableRole, Record<string, ColumnTarget>> = {
  stops: STOP_COLUMNS,
  drivers: DRIVER_COLUMNS,
  ordersData: ORDER_COLUMNS,
  routesData: ROUTE_COLUMNS,
};

function compact(column: string): string {
  return column.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function columnTarget(role: TableRole, column: string): ColumnTarget {
  const known = COLUMNS[role][compact(column)];
  if (known) return known;
  const named = NAMED_DIMENSION_PREFIX[role];
  const lower = column.trim().toLowerCase();
  if (lower.startsWith(named.prefix) && lower.length > named.prefix.length) {
    return { path: [...named.path, column.trim().slice(named.prefix.length)], read: 'number' };
  }
  // `custom_notes.order_id` (or `custom_notes_order_id`) fills the stop's free-form custom_notes.
  const custom = /^custom_notes[._](.+)$/i.exec(column.trim());
  if (role === 'stops' && custom) return { path: ['custom_notes', custom[1]!], read: 'text' };
  // An unknown column becomes an unknown field, which is reported as a warning.
  return { path: [column.trim()], read: 'text' };
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Text that does not read as a number is kept, so the validator can quote it in its message. */
function readCell(cell: string, read: ColumnTarget['read'], role: TableRole): unknown {
  const text = cell.trim();
  switch (read) {
    case 'text':
      return text;
    case 'number':
      return NUMBER.test(text) ? Number(text) : text;
    case 'numberOrText':
      return NUMBER.test(text) ? Number(text) : text;
    case 'list':
      return text
        .split(';')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    case 'windows':
      return text
        .split(';')
        .map((s) => s.trim())
        .filter((s) => s !== '')
        .map((span) => windowObject(span, role));
  }
}

/** `08:00-10:00` → {start, end} (project) or {startTime, endTime} (one-off). */
function windowObject(span: string, role: TableRole): Record<string, string> {
  const [start = '', end = ''] = span.split(/\s*[-–]\s*(?=\d|$)/);
  const out: Record<string, string> = {};
  const keys = role === 'ordersData' ? ['startTime', 'endTime'] : ['start', 'end'];
  if (start.trim() !== '') out[keys[0]!] = start.trim();
  if (end.trim() !== '') out[keys[1]!] = end.trim();
  return out;
}

function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node: Record<string, unknown> | unknown[] = target;
  path.forEach((key, depth) => {
    const last = depth === path.length - 1;
    const slot = /^\d+$/.test(key) ? Number(key) : key;
    const container = node as Record<string | number, unknown>;
    if (last) {
      container[slot] = value;
      return;
    }
    if (container[slot] === undefined) container[slot] = /^\d+$/.test(path[depth + 1]!) ? [] : {};
    node = container[slot] as Record<string, unknown>;
  });
}

/** Entries of the table for its role, with the origin of every field. Empty cells are "not given". */
export function entriesFromTable(
  table: CsvTable,
  role: TableRole,
  file: string,
): { entries: Record<string, unknown>[]; origin: CsvOrigin } {
  const targets = table.header.map((column) => columnTarget(role, column));
  const headerColumns = new Map<string, string>();
  targets.forEach((target, c) => {
    const field = target.path.join('.');
    if (!headerColumns.has(field)) headerColumns.set(field, table.header[c]!);
  });
  const origin: CsvOrigin = { file, rows: [], columns: [], headerColumns };
  const entries = table.records.map((record) => {
    const entry: Record<string, unknown> = {};
    const columns = new Map<string, string>();
    targets.forEach((target, c) => {
      const cell = record.cells[c] ?? '';
      if (cell.trim() === '') return;
      setAt(entry, target.path, readCell(cell, target.read, role));
      columns.set(target.path.join('.'), table.header[c]!);
    });
    origin.rows.push(record.row);
    origin.columns.push(columns);
    return entry;
  });
  return { entries, origin };
}
