/**
 * `routeplan geocode` on a problem whose entries come from CSV tables: each table is copied beside
 * the output with its lat/lng cells filled in (columns added when it had none), and the copy of the
 * problem file names the copies. CSV stays CSV; the user's tables are never written over.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { InputError } from '../../errors.js';
import { parseCsvRecords } from '../../input/csv.js';

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

const TABLE_PREFIXES: Record<string, string[]> = {
  stops: [''],
  ordersData: [''],
  drivers: ['start_', 'end_'],
  routesData: ['start_', 'end_'],
};
const LATITUDE = ['lat', 'latitude'];
const LONGITUDE = ['lng', 'lon', 'long', 'longitude'];

export async function csvTableCopies(raw: Record<string, unknown>, inputDir: string, output: string): Promise<CsvTableCopy[]> {
  const copies: CsvTableCopy[] = [];
  for (const key of Object.keys(TABLE_PREFIXES)) {
    const reference = raw[key];
    if (typeof reference === 'string') copies.push(await tableCopy(key, resolve(inputDir, reference), output));
  }
  return copies;
}

async function tableCopy(key: string, source: string, output: string): Promise<CsvTableCopy> {
  const label = basename(source);
  const rows = parseCsvRecords(await readFile(source, 'utf8'), label).filter((row) => row.some((cell) => cell.trim() !== ''));
  const header = rows[0] ?? [];
  const places = TABLE_PREFIXES[key]!.flatMap((prefix) => placesOf(rows, header, prefix, label));
  const target = join(dirname(output), `${basename(source, extname(source))}.geocoded.csv`);
  if (resolve(target) === resolve(source))
    throw new InputError(`geocode never writes over ${source}: choose another output directory`, [
      { path: '--output', message: 'would overwrite a CSV table' },
    ]);
  return {
    key,
    places,
    async write() {
      await writeFile(target, `${rows.map((row) => row.map(csvCell).join(',')).join('\n')}\n`);
      return relative(dirname(output), target) || basename(target);
    },
  };
}

/** The rows of one place column group (`address`, or `start_address`…) with an address but no coordinates. */
function placesOf(rows: string[][], header: string[], prefix: string, label: string): CsvPlace[] {
  const column = (names: string[]): number => header.findIndex((cell) => names.includes(compact(cell)));
  const address = column([compact(`${prefix}address`)]);
  if (address < 0) return [];
  const latitude = column(LATITUDE.map((name) => compact(`${prefix}${name}`)));
  const longitude = column(LONGITUDE.filter((name) => prefix === '' || name !== 'long').map((name) => compact(`${prefix}${name}`)));
  const needing = rows
    .slice(1)
    .filter((row) => (row[address] ?? '').trim() !== '' && ((row[latitude] ?? '').trim() === '' || (row[longitude] ?? '').trim() === ''));
  if (needing.length === 0) return [];
  const [lat, lng] = [latitude, longitude].map((index, i) => (index >= 0 ? index : addColumn(rows, `${prefix}${i === 0 ? 'lat' : 'lng'}`)));
  return needing.map((row) => ({
    where: `${label} row ${rows.indexOf(row) + 1}${prefix ? ` (${prefix}address)` : ''}`,
    address: row[address]!.trim(),
    fill(point) {
      row[lat!] = String(point.lat);
      row[lng!] = String(point.lng);
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

/** Column names compared loosely, as the CSV reader does (case, spaces, `_` and `-` do not matter). */
function compact(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

function csvCell(text: string): string {
  return /[",\n\r]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
