/**
 * A YAML/JSON problem file may name CSV tables for its entries (`stops: stops.csv`,
 * `drivers: drivers.csv`, or `ordersData`/`routesData`), relative to the file itself, so a
 * whole project is a small YAML file plus two spreadsheets.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ErrorDetail } from '../errors.js';
import { InputError } from '../errors.js';
import { parseCsvTable } from './csv.js';
import type { TableRole } from './csv-tables.js';
import { entriesFromTable } from './csv-tables.js';
import type { CsvOrigins } from './paths.js';
import { isPlainObject } from './shape.js';

const TABLE_KEYS: readonly TableRole[] = ['stops', 'drivers', 'ordersData', 'routesData'];

export async function inlineCsvReferences(
  document: unknown,
  baseDir: string,
): Promise<{ document: unknown; origins: CsvOrigins }> {
  const origins: CsvOrigins = new Map();
  if (!isPlainObject(document)) return { document, origins };
  const inlined: Record<string, unknown> = { ...document };
  const errors: ErrorDetail[] = [];
  for (const key of TABLE_KEYS) {
    const reference = document[key];
    if (typeof reference !== 'string') continue;
    const fullPath = resolve(baseDir, reference);
    let text: string;
    try {
      text = await readFile(fullPath, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      errors.push({
        path: key,
        message: `${JSON.stringify(reference)}: ${code === 'ENOENT' ? `no such file (looked for ${fullPath})` : `cannot be read (${code ?? 'error'})`}`,
      });
      continue;
    }
    const table = parseCsvTable(text, reference);
    const { entries, origin } = entriesFromTable(table, key, reference);
    inlined[key] = entries;
    origins.set(key, origin);
  }
  if (errors.length > 0) {
    throw new InputError(
      `Cannot read the CSV tables the problem names: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      errors,
      'file_not_readable',
    );
  }
  return { document: inlined, origins };
}
