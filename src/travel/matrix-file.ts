/**
 * A travel matrix the user gives (`--travel matrix --travel-matrix <file>`), between named
 * locations: stop names, and `<driver name>/start`, `<driver name>/end` for a driver's ends.
 *   CSV  `from,to,duration_s,distance_m`, one row per ordered pair (extra rows are ignored);
 *   JSON `{"locations": [names…], "durations": [[s…]…], "distances": [[m…]…]}`, where a `null`
 *        cell says there is no road between the two.
 * Every ordered pair of the problem's distinct places must be there, with non-negative, finite
 * values; a pair given twice must agree.
 */
import { readFile } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { parseCsvTable, withDecimalPoint } from '../csv/index.js';
import type { TravelProvider, TravelRequest, TravelSettings, TravelTable } from './types.js';

/** A leg as the file gives it; null for "no road" (JSON only). */
type Leg = { duration: number; distance: number } | null;

interface MatrixEntries {
  /** `from\u0000to` → the leg, with where the file said it. */
  legs: Map<string, { leg: Leg; where: string }>;
}

const MAX_MISSING_LISTED = 20;

export const matrixFile: TravelProvider = {
  name: 'matrix',
  async fetchTable(request, settings) {
    const file = fileOf(settings);
    const entries = file.endsWith('.json') ? readJsonMatrix(await readText(file), file) : readCsvMatrix(await readText(file), file);
    return tableOf(request, entries, file);
  },
};

function fileOf(settings: TravelSettings): string {
  if (!settings.matrixFile)
    throw new InputError('`travel` matrix needs the file: `travelMatrix` <file.csv|file.json>', [
      { path: 'travelMatrix', message: 'required with `travel` matrix' },
    ]);
  return settings.matrixFile;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new InputError(
      `cannot read the travel matrix ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      [{ path: 'travelMatrix', message: 'cannot read the file' }],
      undefined,
      { cause: error },
    );
  }
}

function readCsvMatrix(text: string, file: string): MatrixEntries {
  const table = parseCsvTable(text, file);
  const columns = ['from', 'to', 'duration_s', 'distance_m'].map((name) =>
    table.header.findIndex((cell) => cell.trim().toLowerCase() === name),
  );
  if (columns.some((column) => column < 0)) {
    throw matrixError(file, `${file}: expected the header from,to,duration_s,distance_m, got ${table.header.join(',')}`, 'row 1');
  }
  const [from, to, duration, distance] = columns as [number, number, number, number];
  const entries: MatrixEntries = { legs: new Map() };
  for (const record of table.records) {
    const where = `row ${record.row}`;
    const leg = {
      duration: valueOf(withDecimalPoint(record.cells[duration] ?? '', table.delimiter), file, where, 'duration_s'),
      distance: valueOf(withDecimalPoint(record.cells[distance] ?? '', table.delimiter), file, where, 'distance_m'),
    };
    addLeg(entries, record.cells[from]?.trim() ?? '', record.cells[to]?.trim() ?? '', leg, file, where);
  }
  return entries;
}

function readJsonMatrix(text: string, file: string): MatrixEntries {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new InputError(`${file} is not valid JSON: ${(error as Error).message}`, [{ path: file, message: 'not valid JSON' }], undefined, {
      cause: error,
    });
  }
  const { locations, durations, distances } = (parsed ?? {}) as Record<string, unknown>;
  if (!Array.isArray(locations) || !locations.every((name) => typeof name === 'string'))
    throw matrixError(file, `${file}: "locations" must be a list of names`, 'locations');
  const size = locations.length;
  const rowsOk = (grid: unknown): grid is unknown[][] =>
    Array.isArray(grid) && grid.length === size && grid.every((row) => Array.isArray(row) && row.length === size);
  if (!rowsOk(durations) || !rowsOk(distances))
    throw matrixError(file, `${file}: "durations" and "distances" must be ${size}×${size} (one row and column per location)`, 'durations');
  const entries: MatrixEntries = { legs: new Map() };
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      const where = `durations[${i}][${j}]`;
      const noRoad = durations[i]![j] === null || distances[i]![j] === null;
      const leg = noRoad
        ? null
        : {
            duration: valueOf(durations[i]![j], file, where, 'duration'),
            distance: valueOf(distances[i]![j], file, `distances[${i}][${j}]`, 'distance'),
          };
      addLeg(entries, (locations[i] as string).trim(), (locations[j] as string).trim(), leg, file, where);
    }
  }
  return entries;
}

function valueOf(raw: unknown, file: string, where: string, column: string): number {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : typeof raw === 'number' ? raw : NaN;
  if (!Number.isFinite(value) || value < 0)
    throw matrixError(file, `${file} ${where}: ${column} must be a non-negative number, got ${JSON.stringify(raw ?? '')}`, where);
  return value;
}

function addLeg(entries: MatrixEntries, from: string, to: string, leg: Leg, file: string, where: string): void {
  const key = `${from}\u0000${to}`;
  const earlier = entries.legs.get(key);
  if (earlier && JSON.stringify(earlier.leg) !== JSON.stringify(leg)) {
    throw matrixError(file, `${file}: ${from} → ${to} is given twice with different values (${earlier.where} and ${where})`, where);
  }
  entries.legs.set(key, { leg, where });
}

/** Each pair of distinct places takes the leg of any of their names; every pair must have one. */
function tableOf(request: TravelRequest, entries: MatrixEntries, file: string): TravelTable {
  const size = request.locations.length;
  const table: TravelTable = {
    size,
    durations: new Float64Array(size * size),
    distances: new Float64Array(size * size),
    noRoad: new Uint8Array(size * size),
  };
  const missing: string[] = [];
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      if (i === j) continue;
      const leg = legBetween(entries, request.locations[i]!.names, request.locations[j]!.names);
      if (leg === undefined) missing.push(`${request.locations[i]!.names[0]} → ${request.locations[j]!.names[0]}`);
      else if (leg === null) table.noRoad[i * size + j] = 1;
      else {
        table.durations[i * size + j] = leg.duration;
        table.distances[i * size + j] = leg.distance;
      }
    }
  }
  if (missing.length > 0) {
    const listed = missing.slice(0, MAX_MISSING_LISTED).join('; ');
    const more = missing.length > MAX_MISSING_LISTED ? ` and ${missing.length - MAX_MISSING_LISTED} more` : '';
    throw new InputError(
      `${file} lacks ${missing.length} of the problem's ${size * (size - 1)} legs: ${listed}${more}`,
      missing.slice(0, MAX_MISSING_LISTED).map((pair) => ({ path: 'travelMatrix', message: `missing ${pair}` })),
    );
  }
  return table;
}

function legBetween(entries: MatrixEntries, fromNames: string[], toNames: string[]): Leg | undefined {
  for (const from of fromNames) {
    for (const to of toNames) {
      const found = entries.legs.get(`${from.trim()}\u0000${to.trim()}`);
      if (found) return found.leg;
    }
  }
  return undefined;
}

function matrixError(file: string, message: string, where: string): InputError {
  return new InputError(message, [{ path: where ? `${file}:${where}` : file, message }]);
}
