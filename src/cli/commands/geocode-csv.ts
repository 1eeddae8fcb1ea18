/**
 * `routeplan geocode` on a problem whose entries come from CSV tables: each table is copied beside
 * the output with its lat/lng cells filled in (columns added when it had none), and the copy of the
 * problem file names the copies. CSV stays CSV; the user's tables are never written over.
 * The copy is the user's own table, cell for cell, for routeplan to read back: unlike the driver
 * CSV export (output/csv.ts), its cells are not neutralised against spreadsheet formulas, since a
 * leading apostrophe would change the names and notes routeplan reads; the cells it adds are numbers.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { InputError } from '../../errors.js';
import { DECIMAL_COMMA, csvRow, detectDelimiter, parseCsvRecords, type CsvDelimiter } from '../../csv/index.js';
import { columnField, type TableRole } from '../../input/csv-tables.js';

/** One place of a table row given by its address only. */
export interface CsvPlace {
  /** e.g. `stops.csv row 4` (spreadsheet rows: the header is row 1). */
  where: string;
  address: string;
  fill(point: { lat: number; lng: number }): void;
}

export interface CsvTableCopy {
  /** The problem's key that names the table (stops, drivers, ordersData, routesData). */
  key: string;
  places: CsvPlace[];
  /** Writes the filled copy; returns its path relative to the problem copy's directory. */
  write(): Promise<string>;
}

const TABLE_PREFIXES: Record<TableRole, string[]> = {
  stops: [''],
  ordersData: [''],
  drivers: ['start_', 'end_'],
  routesData: ['start_', 'end_'],
};

export async function csvTableCopies(raw: Record<string, unknown>, inputDir: string, output: string): Promise<CsvTableCopy[]> {
  const copies: CsvTableCopy[] = [];
  for (const key of Object.keys(TABLE_PREFIXES) as TableRole[]) {
    const reference = raw[key];
    if (typeof reference === 'string') copies.push(await tableCopy(key, resolve(inputDir, reference), output));
  }
  return copies;
}

async function tableCopy(key: TableRole, source: string, output: string): Promise<CsvTableCopy> {
  const label = basename(source);
  const text = await readFile(source, 'utf8');
  const delimiter = detectDelimiter(text);
  const rows = parseCsvRecords(text, label, delimiter).filter((row) => row.some((cell) => cell.trim() !== ''));
  const header = rows[0] ?? [];
  const style = numberStyle(rows, delimiter);
  const places = TABLE_PREFIXES[key].flatMap((prefix) => placesOf(rows, header, { key, prefix }, label, style));
  const target = join(dirname(output), `${basename(source, extname(source))}.geocoded.csv`);
  if (resolve(target) === resolve(source))
    throw new InputError(`geocode never writes over ${source}: choose another output directory`, [
      { path: '--output', message: 'would overwrite a CSV table' },
    ]);
  return {
    key,
    places,
    async write() {
      await writeFile(target, `${rows.map((row) => csvRow(row, delimiter)).join('\n')}\n`);
      return relative(dirname(output), target) || basename(target);
    },
  };
}

/** The rows of one place column group (`address`, or `start_address`…) with an address but no coordinates. */
/** Coordinates are written as the table writes its numbers: with a decimal comma in a `;` or tab table that has them. */
function numberStyle(rows: string[][], delimiter: CsvDelimiter): (value: number) => string {
  const decimalCommas = delimiter !== ',' && rows.some((row) => row.some((cell) => DECIMAL_COMMA.test(cell.trim())));
  return decimalCommas ? (value) => String(value).replace('.', ',') : String;
}

function placesOf(
  rows: string[][],
  header: string[],
  { key, prefix }: { key: TableRole; prefix: string },
  label: string,
  style: (value: number) => string,
): CsvPlace[] {
  // A column is found by the field it fills, as the table is read: `Street address` is `address`, `latitude` is `lat`.
  const column = (canonical: string): number => header.findIndex((cell) => columnField(key, cell) === columnField(key, canonical));
  const address = column(`${prefix}address`);
  if (address < 0) return [];
  const latitude = column(`${prefix}lat`);
  const longitude = column(`${prefix}lng`);
  const needing = rows
    .slice(1)
    .filter((row) => (row[address] ?? '').trim() !== '' && ((row[latitude] ?? '').trim() === '' || (row[longitude] ?? '').trim() === ''));
  if (needing.length === 0) return [];
  const [lat, lng] = [latitude, longitude].map((index, i) => (index >= 0 ? index : addColumn(rows, `${prefix}${i === 0 ? 'lat' : 'lng'}`)));
  return needing.map((row) => ({
    where: `${label} row ${rows.indexOf(row) + 1}${prefix ? ` (${prefix}address)` : ''}`,
    address: row[address]!.trim(),
    fill(point) {
      row[lat!] = style(point.lat);
      row[lng!] = style(point.lng);
    },
  }));
}

function addColumn(rows: string[][], name: string): number {
  const width = Math.max(...rows.map((row) => row.length));
  for (const row of rows) while (row.length < width) row.push('');
  rows[0]!.push(name);
  for (const row of rows.slice(1)) row.push('');
  return width;
}
