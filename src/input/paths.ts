/**
 * Paths in the user's terms: `stops[3].priority` for a JSON/YAML document, and
 * `stops.csv row 5, column priority` for an entry that came from a CSV table.
 */

export type PathSegment = string | number;

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** Where the entries of one top-level array (e.g. `stops`) came from when read from a CSV table. */
export interface CsvOrigin {
  file: string;
  /** Spreadsheet row of each entry. */
  rows: number[];
  /** Per entry: field path inside the entry (e.g. `location.coords.lat`) → column name. */
  columns: Map<string, string>[];
  /** Field path → header column for every column of the table, also where a row left it empty. */
  headerColumns?: Map<string, string>;
}

/** Top-level array key (`stops`, `drivers`, `ordersData`, `routesData`) → its CSV origin. */
export type CsvOrigins = Map<string, CsvOrigin>;

export class PathNamer {
  constructor(private readonly origins: CsvOrigins = new Map()) {}

  /** The user's name for an error's location. */
  name(path: readonly PropertyKey[]): string {
    const csv = this.csvPlace(path);
    if (!csv) return formatPath(path);
    return csv.column === null ? `${csv.file} row ${csv.row}` : `${csv.file} row ${csv.row}, column ${csv.column}`;
  }

  /** Like `name`, but a CSV column is named without its row (one warning per column, not per row). */
  nameForWarning(path: readonly PropertyKey[]): string {
    const csv = this.csvPlace(path);
    if (!csv) return formatPath(path);
    return csv.column === null ? `${csv.file} row ${csv.row}` : `${csv.file} column ${csv.column}`;
  }

  private csvPlace(path: readonly PropertyKey[]): { file: string; row: number; column: string | null } | null {
    const [top, index, ...rest] = path;
    if (typeof top !== 'string' || typeof index !== 'number') return null;
    const origin = this.origins.get(top);
    if (!origin || origin.rows[index] === undefined) return null;
    const columns = origin.columns[index]!;
    const keys = rest.map((k) => String(k));
    for (let n = keys.length; n > 0; n--) {
      const column = columns.get(keys.slice(0, n).join('.'));
      if (column !== undefined) return { file: origin.file, row: origin.rows[index], column };
    }
    // A missing value (empty cell) is named by its column when the table has one.
    const header = origin.headerColumns?.get(keys.join('.'));
    if (header !== undefined) return { file: origin.file, row: origin.rows[index], column: header };
    // An error about a whole object (e.g. a location without coordinates) names a column inside it.
    const inside = keys.length > 0 ? [...columns.entries()].find(([field]) => field.startsWith(`${keys.join('.')}.`)) : undefined;
    if (inside) return { file: origin.file, row: origin.rows[index], column: inside[1] };
    return { file: origin.file, row: origin.rows[index], column: null };
  }
}

/** A value as the user wrote it, short enough for a one-line message. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  // JSON 1e400 and YAML .inf arrive as Infinity: say why such a number cannot be used.
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'NaN (not a number)' : `${value} (too large)`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  if (typeof value === 'object') return 'an object';
  return typeof value;
}
