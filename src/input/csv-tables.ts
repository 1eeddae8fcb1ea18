/**
 * CSV tables → the entries of a document (stops/drivers for a project, ordersData/routesData
 * for a one-off), remembering each field's column so errors read `stops.csv row 4, column
 * priority`. Column names are matched loosely: case, spaces, `_` and `-` do not matter, so
 * `time_windows`, `timeWindows` and `Time Windows` are the same column.
 */
import { InputError, type ErrorDetail, type Warning } from '../errors.js';
import type { CsvOrigin } from './paths.js';
import { DECIMAL_COMMA, withDecimalPoint, type CsvTable } from '../csv/index.js';
import { orderSchema, routeSchema } from './schema/oneoff.js';
import { driverSchema, stopSchema } from './schema/project.js';
import type { FieldSchema } from './schema/vocabulary.js';
import { cellReading, fieldsOf, freeKeysOf, itemOf, schemaAt } from './schema/vocabulary.js';
import { COLUMN_CHOICES, type ColumnChoice } from './column-names.js';

export type TableRole = 'stops' | 'drivers' | 'ordersData' | 'routesData';

/** Where a cell goes in the entry, and how its text is read. */
interface ColumnTarget {
  path: string[];
  read: (text: string) => unknown;
  /** Named by a dispatcher's word (column-names.ts), which yields to the field's own column. */
  synonym?: boolean;
}

/** How a table's entries are written: the entry schema, and CSV spellings of its fields. */
interface TableShape {
  entry: FieldSchema;
  /** An object whose own fields are columns too (a route's `constraints.startTime` is `start_time`). */
  flattened?: string;
  /** Column (compacted) → dotted path, for columns that are not a field's own name. */
  aliases: Record<string, string>;
}

export const LATITUDE_SPELLINGS = ['lat', 'latitude'];
export const LONGITUDE_SPELLINGS = ['lng', 'lon', 'long', 'longitude'];
/** `long` is read only unprefixed: `start_long` is not a column. */
export const PREFIXED_LONGITUDE_SPELLINGS = ['lng', 'lon', 'longitude'];

/** Columns of a place: `address`, `lat`… or with a prefix `start_address`, `start_lat`… */
function placeColumns(prefix: string, base: string, [lat, lng]: [string, string]): Record<string, string> {
  const longitude = prefix === '' ? LONGITUDE_SPELLINGS : PREFIXED_LONGITUDE_SPELLINGS;
  const columns: [string, string][] = [
    [`${prefix}address`, `${base}.address`],
    ...LATITUDE_SPELLINGS.map((spelling): [string, string] => [`${prefix}${spelling}`, `${base}.${lat}`]),
    ...longitude.map((spelling): [string, string] => [`${prefix}${spelling}`, `${base}.${lng}`]),
  ];
  return Object.fromEntries(columns);
}

const PROJECT_COORDS: [string, string] = ['coords.lat', 'coords.lng'];
const ONEOFF_COORDS: [string, string] = ['latitude', 'longitude'];

const TABLES: Record<TableRole, TableShape> = {
  stops: {
    entry: stopSchema,
    aliases: { ...placeColumns('', 'location', PROJECT_COORDS), timewindows: 'time_windows', tags: 'types', phone: 'phone_number' },
  },
  drivers: {
    entry: driverSchema,
    aliases: {
      ...placeColumns('start', 'start_location', PROJECT_COORDS),
      ...placeColumns('end', 'end_location', PROJECT_COORDS),
      tags: 'types',
      breakstart: 'break.start',
      breakend: 'break.end',
      phone: 'phone_number',
    },
  },
  ordersData: {
    entry: orderSchema,
    aliases: {
      ...placeColumns('', 'locations.0', ONEOFF_COORDS),
      start: 'timeWindows.0.startTime',
      starttime: 'timeWindows.0.startTime',
      end: 'timeWindows.0.endTime',
      endtime: 'timeWindows.0.endTime',
      timewindows: 'timeWindows',
      types: 'tags',
    },
  },
  routesData: {
    entry: routeSchema,
    flattened: 'constraints',
    aliases: {
      ...placeColumns('start', 'constraints.startLocations.0', ONEOFF_COORDS),
      ...placeColumns('end', 'constraints.endLocations.0', ONEOFF_COORDS),
      shiftstart: 'constraints.startTime',
      shiftend: 'constraints.endTime',
      types: 'constraints.tags',
    },
  },
};

/** The columns of a table, and the fields whose keys are free (`load_weight`, `custom_notes.order_id`). */
interface TableColumns {
  named: Map<string, ColumnTarget>;
  /** `load_weight` / `capacity_volume` fill the object form of load and capacity. */
  dimensions: { prefix: string; path: string[] } | null;
  /** `custom_notes.order_id` (or `custom_notes_order_id`) fills the free-form custom_notes. */
  freeTexts: { pattern: RegExp; path: string[] } | null;
}

/** Column names are compared loosely: case, spaces, `_` and `-` do not matter. */
export function compact(column: string): string {
  return column.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** An entry's own fields with their paths, a flattened object's fields after them. */
function entryFields(shape: TableShape): [string[], FieldSchema][] {
  const fieldsUnder = (prefix: string[], schema: FieldSchema) =>
    Object.entries(fieldsOf(schema) ?? {}).map(([key, field]): [string[], FieldSchema] => [[...prefix, key], field]);
  const own = fieldsUnder([], shape.entry);
  if (shape.flattened === undefined) return own;
  return [...own, ...fieldsUnder([shape.flattened], schemaAt(shape.entry, [shape.flattened])!)];
}

function tableColumns(shape: TableShape): TableColumns {
  const table: TableColumns = { named: new Map(), dimensions: null, freeTexts: null };
  for (const [path, schema] of entryFields(shape)) {
    const key = path.at(-1)!;
    const reading = cellReading(schema);
    // A field's own name is a column for a single value; a list of objects needs an alias.
    if (reading !== null && reading !== 'windows') table.named.set(compact(key), { path, read: reader(schema) });
    const free = freeKeysOf(schema);
    if (free === 'numbers') table.dimensions ??= { prefix: `${key.toLowerCase()}_`, path };
    if (free === 'texts') table.freeTexts ??= { pattern: new RegExp(`^${key}[._](.+)$`, 'i'), path };
  }
  for (const [column, dotted] of Object.entries(shape.aliases)) {
    const path = dotted.split('.');
    const schema = schemaAt(shape.entry, path);
    // A misspelt alias fails when the module loads, not silently on a user's table.
    if (schema === null) throw new Error(`CSV column ${column} names ${dotted}, which is no field of the schema`);
    table.named.set(column, { path, read: reader(schema) });
  }
  return table;
}

/** The words dispatchers use for a column (column-names.ts), as more names of the same column. */
function addSynonyms(table: TableColumns, choices: readonly ColumnChoice[]): TableColumns {
  for (const choice of choices) {
    const target = table.named.get(compact(choice.column));
    // A choice or synonym that names no column, or another one, fails when the module loads.
    if (!target) throw new Error(`column-names.ts: ${choice.column} is no CSV column`);
    for (const synonym of choice.synonyms) {
      const taken = table.named.get(compact(synonym));
      if (taken && taken.path.join('.') !== target.path.join('.')) {
        throw new Error(`column-names.ts: "${synonym}" already names ${taken.path.join('.')}, not ${target.path.join('.')}`);
      }
      if (!taken) table.named.set(compact(synonym), { ...target, synonym: true });
    }
  }
  return table;
}

const COLUMNS: Record<TableRole, TableColumns> = {
  stops: addSynonyms(tableColumns(TABLES.stops), COLUMN_CHOICES.stops),
  drivers: addSynonyms(tableColumns(TABLES.drivers), COLUMN_CHOICES.drivers),
  ordersData: tableColumns(TABLES.ordersData),
  routesData: tableColumns(TABLES.routesData),
};

/** The field (dotted path) a column fills, or null for a column the table does not know (an unknown field). */
export function columnField(role: TableRole, column: string): string | null {
  const target = knownColumnTarget(role, column);
  return target === null ? null : target.path.join('.');
}

/** Whether the column is named by a dispatcher's word (`Customer`) rather than the field's own name (`name`). */
export function isSynonymColumn(role: TableRole, column: string): boolean {
  return knownColumnTarget(role, column)?.synonym === true;
}

function columnTarget(role: TableRole, column: string): ColumnTarget {
  // An unknown column becomes an unknown field, which is reported as a warning.
  return knownColumnTarget(role, column) ?? { path: [column.trim()], read: readText };
}

function knownColumnTarget(role: TableRole, column: string): ColumnTarget | null {
  const { named, dimensions, freeTexts } = COLUMNS[role];
  const known = named.get(compact(column));
  if (known) return known;
  const lower = column.trim().toLowerCase();
  if (dimensions && lower.startsWith(dimensions.prefix) && lower.length > dimensions.prefix.length) {
    return { path: [...dimensions.path, column.trim().slice(dimensions.prefix.length)], read: readNumber };
  }
  const free = freeTexts?.pattern.exec(column.trim());
  if (freeTexts && free) return { path: [...freeTexts.path, free[1]!], read: readText };
  return null;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Text that does not read as a number is kept, so the validator can quote it in its message. */
function readNumber(text: string): unknown {
  return NUMBER.test(text) ? Number(text) : text;
}

function readText(text: string): unknown {
  return text;
}

function splitList(text: string): string[] {
  return text
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The reader of a field's cells, per its schema (see cellReading). */
function reader(schema: FieldSchema): (text: string) => unknown {
  switch (cellReading(schema)) {
    case 'number':
      return readNumber;
    case 'list':
      return splitList;
    case 'windows': {
      const [startKey, endKey] = Object.keys(fieldsOf(itemOf(schema)!)!) as [string, string];
      return (text) => splitList(text).map((span) => windowObject(span, startKey, endKey));
    }
    case 'text':
    case null:
      return readText;
  }
}

/** `08:00-10:00` → {start, end} (project) or {startTime, endTime} (one-off), as the window schema names them. */
function windowObject(span: string, startKey: string, endKey: string): Record<string, string> {
  const [start = '', end = ''] = span.split(/\s*[-–]\s*(?=\d|$)/);
  const out: Record<string, string> = {};
  if (start.trim() !== '') out[startKey] = start.trim();
  if (end.trim() !== '') out[endKey] = end.trim();
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

/**
 * Two columns that give the same field (`lat` and `latitude`), or a field and a part of it
 * (`capacity` and `capacity_weight`), would overwrite each other: the table must choose one.
 */
function refuseOverlappingColumns(header: string[], targets: (ColumnTarget | null)[], file: string): void {
  const fields = targets.map((target) => target?.path.join('.') ?? null);
  for (let a = 0; a < fields.length; a++) {
    for (let b = a + 1; b < fields.length; b++) {
      const [first, second] = [fields[a] ?? null, fields[b] ?? null];
      if (first === null || second === null) continue;
      if (first !== second && !second.startsWith(`${first}.`) && !first.startsWith(`${second}.`)) continue;
      const message = `columns "${header[a]}" and "${header[b]}" both give ${first.length <= second.length ? first : second}; keep one (a capacity is one number, or one column per dimension such as capacity_weight)`;
      throw new InputError(`${file}: ${message}`, [{ path: `${file} row 1`, message }], 'invalid_csv');
    }
  }
}

/**
 * A dispatcher's word yields to the field's own column: a table with both `name` and `Company`
 * reads `name` as the name and `Company` as an unknown column (a warning), as before the words
 * were known, instead of refusing the two columns for one field.
 */
function yieldingSynonyms(targets: (ColumnTarget | null)[], readAs: readonly (string | null)[]): (ColumnTarget | null)[] {
  const own = new Set(targets.flatMap((target) => (target && !target.synonym ? [target.path.join('.')] : [])));
  return targets.map((target, c) =>
    target?.synonym && own.has(target.path.join('.')) ? { path: [readAs[c]!.trim()], read: readText } : target,
  );
}

/**
 * Entries of the table for its role, with the origin of every field. Empty cells are "not given".
 * `readAs` names the column each cell is read as (the page's import lets a person choose it; null
 * leaves the column out); messages still name the table's own header.
 */
export function entriesFromTable(
  table: CsvTable,
  role: TableRole,
  file: string,
  readAs: readonly (string | null)[] = table.header,
): { entries: Record<string, unknown>[]; origin: CsvOrigin; warnings: Warning[] } {
  const targets = yieldingSynonyms(
    table.header.map((_, c) => {
      const column = readAs[c];
      return column == null ? null : columnTarget(role, column);
    }),
    readAs,
  );
  refuseOverlappingColumns(table.header, targets, file);
  const headerColumns = new Map<string, string>();
  targets.forEach((target, c) => {
    if (target === null) return;
    const field = target.path.join('.');
    if (!headerColumns.has(field)) headerColumns.set(field, table.header[c]!);
  });
  const decimalCommas = new DecimalCommas(table, file);
  const origin: CsvOrigin = { file, rows: [], columns: [], headerColumns };
  const entries = table.records.map((record) => {
    const entry: Record<string, unknown> = {};
    const columns = new Map<string, string>();
    targets.forEach((target, c) => {
      const cell = record.cells[c]?.trim() ?? '';
      if (target === null || cell === '') return;
      const text = target.read === readNumber ? decimalCommas.read(cell, record.row, table.header[c]!) : cell;
      setAt(entry, target.path, target.read(text));
      columns.set(target.path.join('.'), table.header[c]!);
    });
    origin.rows.push(record.row);
    origin.columns.push(columns);
    return entry;
  });
  decimalCommas.refuseAmbiguous();
  return { entries, origin, warnings: decimalCommas.warnings() };
}

/**
 * Numbers with a decimal comma. In a table separated by `;` or tabs the comma can only be the
 * decimal mark: read as a point, with one warning that says so. In a comma-separated table a
 * quoted `"1,500"` may be a decimal or a thousands separator: an error asks which.
 */
class DecimalCommas {
  private first: { row: number; column: string; cell: string } | null = null;
  private readonly ambiguous: ErrorDetail[] = [];

  constructor(
    private readonly table: CsvTable,
    private readonly file: string,
  ) {}

  read(cell: string, row: number, column: string): string {
    if (!DECIMAL_COMMA.test(cell)) return cell;
    if (this.table.delimiter === ',') {
      this.ambiguous.push({
        path: `${this.file} row ${row}, column ${column}`,
        message: `"${cell}" has a decimal comma in a comma-separated table; write ${cell.replace(',', '.')} (or save the table separated by semicolons)`,
      });
      return cell;
    }
    this.first ??= { row, column, cell };
    return withDecimalPoint(cell, this.table.delimiter);
  }

  refuseAmbiguous(): void {
    if (this.ambiguous.length === 0) return;
    const summary =
      this.ambiguous.length === 1
        ? `${this.ambiguous[0]!.path}: ${this.ambiguous[0]!.message}`
        : `${this.file}: ${this.ambiguous.length} numbers with a decimal comma`;
    throw new InputError(summary, this.ambiguous, 'invalid_csv');
  }

  warnings(): Warning[] {
    if (this.first === null) return [];
    const separated = this.table.delimiter === ';' ? 'semicolons' : 'tabs';
    const { row, column, cell } = this.first;
    return [
      {
        path: this.file,
        message: `the table is separated by ${separated} and its numbers have decimal commas (row ${row}, column ${column}: "${cell}"); they were read as ${cell.replace(',', '.')} and so on`,
      },
    ];
  }
}
