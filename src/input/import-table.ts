/**
 * A spreadsheet imported in the page: its columns' guessed fields, and its rows — read as the
 * columns a person chose — turned into stops or drivers by the CLI's own CSV reading
 * (csv-tables.ts) and validation (validate.ts), so an import knows no rule of its own. Problems
 * are answered by row and column, with the very messages `routeplan validate` prints.
 */
import type { z } from 'zod';
import { importRequestSchema } from './import-schema.js';
import { InputError, type ErrorDetail } from '../errors.js';
import type { CsvTable } from '../csv/index.js';
import { COLUMN_CHOICES } from './column-names.js';
import type { ConvertedRows, ImportRole, InspectedTable, RowProblem } from './import-types.js';
import { columnField, entriesFromTable, isSynonymColumn } from './csv-tables.js';
import { limitErrors } from './limits.js';
import { formatPath } from './paths.js';
import type { Spreadsheet } from './spreadsheet.js';
import type { LoadOptions } from './types.js';
import { validateDocument } from './validate.js';

export type { ConvertedRows, ImportRole, ImportRow, InspectedTable, RowProblem } from './import-types.js';

/** The table's rows as text and a guess per column; more rows than a project may have is refused (limits.ts). */
export function inspectTable(sheet: Spreadsheet, role: ImportRole, label: string): InspectedTable {
  refuseTooManyRows(role, sheet.records.length, label);
  const width = sheet.header.length;
  return {
    format: sheet.format,
    delimiter: sheet.delimiter,
    header: sheet.header,
    rows: sheet.records.map(({ row, cells }) => ({ row, cells: Array.from({ length: width }, (_, c) => cells[c] ?? '') })),
    guesses: oneColumnPerField(
      role,
      sheet.header,
      sheet.header.map((name) => guessColumn(role, name)),
    ),
    columns: COLUMN_CHOICES[role].map(({ column, label: words }) => ({ column, label: words })),
  };
}

/**
 * The column a header is read as, as the CLI reads it: one of the choices when it fills the same
 * field (`Latitude` → lat, `Customer` → name), else the header itself when the CLI knows it
 * (`load_weight`), else null (left out).
 */
export function guessColumn(role: ImportRole, header: string): string | null {
  const field = columnField(role, header);
  if (field === null) return null;
  return COLUMN_CHOICES[role].find(({ column }) => columnField(role, column) === field)?.column ?? header.trim();
}

/**
 * Two columns guessed as one field (`name` and `Company`): the field's own name wins, as in the
 * CLI (csv-tables.ts), else the first; the other is left out, for the person to map if they like.
 */
function oneColumnPerField(role: ImportRole, header: string[], guesses: (string | null)[]): (string | null)[] {
  return guesses.map((guess, c) => {
    if (guess === null) return null;
    const rivals = guesses.flatMap((other, r) => (other === guess ? [r] : []));
    const winner = rivals.find((r) => !isSynonymColumn(role, header[r]!)) ?? rivals[0];
    return winner === c ? guess : null;
  });
}

function refuseTooManyRows(role: ImportRole, count: number, label: string): void {
  const [tooMany] = limitErrors({ [role]: new Array<unknown>(count) }, 'drivers', 'stops');
  if (tooMany) throw new InputError(`${label} ${tooMany.message}`, [{ path: label, message: tooMany.message }], 'too_many_rows');
}

export type ImportRequest = z.infer<typeof importRequestSchema> & { role: ImportRole };

/** The body of a conversion request, or a 400's InputError with each wrong field's path. */
export function parseImportRequest(body: unknown, role: ImportRole): ImportRequest {
  const parsed = importRequestSchema.safeParse(body);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({ path: formatPath(issue.path) || 'body', message: issue.message }));
    throw new InputError(`invalid import request: ${details[0]!.path}: ${details[0]!.message}`, details);
  }
  const request = { ...parsed.data, role };
  const mismatch = request.columns.length !== request.header.length;
  if (mismatch)
    throw new InputError('invalid import request: one column per header', [
      { path: 'columns', message: `has ${request.columns.length} entries; the header has ${request.header.length} columns` },
    ]);
  const unknown = request.columns.flatMap((column, c) => (column !== null && columnField(request.role, column) === null ? [c] : []));
  if (unknown.length > 0) {
    const details = unknown.map((c) => ({
      path: `columns[${c}]`,
      message: `${JSON.stringify(request.columns[c])} is no column of ${request.role}; choose one the import lists, or null to leave it out`,
    }));
    throw new InputError(`invalid import request: ${details[0]!.path}: ${details[0]!.message}`, details);
  }
  return request;
}

/** The rows as stops or drivers, read and validated as `routeplan validate` reads a project's CSV table. */
export function convertRows(request: ImportRequest, options: LoadOptions): ConvertedRows {
  const label = request.file ?? `${request.role}.csv`;
  refuseTooManyRows(request.role, request.rows.length, label);
  const table: CsvTable = { header: request.header, records: request.rows, delimiter: request.delimiter ?? ',' };
  let read: ReturnType<typeof entriesFromTable>;
  try {
    read = entriesFromTable(table, request.role, label, request.columns);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { items: [], problems: error.details.map((detail) => rowProblem(detail, label)), warnings: [] };
  }
  const items = read.entries.map((item, index) => ({ row: read.origin.rows[index]!, item }));
  // Only the table is checked: a name and a date stand in for the project the page makes later,
  // and drivers with the names given for its drivers, so that a stop's lock names one of them.
  const at = firstCoords(read.entries);
  const standIns = request.role === 'stops' ? (request.driver_names ?? []).map((name) => ({ name, start_location: { coords: at } })) : [];
  const document = { name: 'import', date: '2000-01-01', drivers: standIns, [request.role]: read.entries };
  const context = { origins: new Map([[request.role, read.origin]]), tableWarnings: read.warnings };
  try {
    const { warnings } = validateDocument(document, { ...options, expect: 'project' }, context);
    return { items, problems: [], warnings: warnings.filter((warning) => warning.path.startsWith(label)) };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { items, problems: error.details.map((detail) => rowProblem(detail, label)), warnings: read.warnings };
  }
}

/**
 * Where the stand-in drivers start: at the first stop's coordinates, so that no stop seems far from
 * the others because of them (only their names are looked at, by the stops' locks).
 */
function firstCoords(entries: Record<string, unknown>[]): { lat: number; lng: number } {
  for (const entry of entries) {
    const coords = (entry.location as { coords?: { lat?: unknown; lng?: unknown } } | undefined)?.coords;
    if (typeof coords?.lat === 'number' && typeof coords.lng === 'number' && Math.abs(coords.lat) <= 90 && Math.abs(coords.lng) <= 180) {
      return { lat: coords.lat, lng: coords.lng };
    }
  }
  return { lat: 0, lng: 0 };
}

/** `stops.csv row 5, column priority` (paths.ts names CSV places so) → row 5, column priority. */
function rowProblem(detail: ErrorDetail, label: string): RowProblem {
  const place = /^(.*) row (\d+)(?:, column (.+))?$/.exec(detail.path);
  if (place === null || place[1] !== label) return { row: null, column: null, message: detail.message, path: detail.path };
  const row = Number(place[2]);
  // Row 1 is the header: a problem of the columns (two give one field), not of a row.
  return { row: row === 1 ? null : row, column: place[3] ?? null, message: detail.message, path: detail.path };
}
