/**
 * A YAML/JSON problem file may name CSV tables for its entries (`stops: stops.csv`,
 * `drivers: drivers.csv`, or `ordersData`/`routesData`), relative to the file itself, so a
 * whole project is a small YAML file plus two spreadsheets.
 */
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ErrorDetail, Warning } from '../errors.js';
import { InputError } from '../errors.js';
import { parseCsvTable } from '../csv/index.js';
import type { TableRole } from './csv-tables.js';
import { entriesFromTable } from './csv-tables.js';
import type { CsvOrigins } from './paths.js';
import { isPlainObject } from './shape.js';

const TABLE_KEYS: readonly TableRole[] = ['stops', 'drivers', 'ordersData', 'routesData'];

/** A table that failed, under the top-level field that names it. */
export interface ReferenceError {
  field: TableRole;
  detail: ErrorDetail;
}

export interface InlinedDocument {
  document: unknown;
  origins: CsvOrigins;
  /**
   * Tables that could not be read or parsed, with why. They are not thrown here: the caller
   * reports them together with every other error of the document (all errors at once).
   */
  referenceErrors: ReferenceError[];
  /** Top-level keys whose table failed; their value (a file name) is not validated further. */
  failedKeys: Set<string>;
  /** What reading the tables noticed (decimal commas read as points). */
  tableWarnings: Warning[];
}

export async function inlineCsvReferences(document: unknown, baseDir: string): Promise<InlinedDocument> {
  const origins: CsvOrigins = new Map();
  const referenceErrors: ReferenceError[] = [];
  const failedKeys = new Set<string>();
  const tableWarnings: Warning[] = [];
  if (!isPlainObject(document)) return { document, origins, referenceErrors, failedKeys, tableWarnings };
  const inlined: Record<string, unknown> = { ...document };
  for (const key of TABLE_KEYS) {
    const reference = document[key];
    // An empty name is no reference: the schema reports it as a wrong value for the field.
    if (typeof reference !== 'string' || reference.trim() === '') continue;
    const read = await readTable(reference, key, baseDir);
    if ('errors' in read) {
      referenceErrors.push(...read.errors.map((detail) => ({ field: key, detail })));
      failedKeys.add(key);
      continue;
    }
    inlined[key] = read.entries;
    origins.set(key, read.origin);
    tableWarnings.push(...read.warnings);
  }
  return { document: inlined, origins, referenceErrors, failedKeys, tableWarnings };
}

async function readTable(
  reference: string,
  key: TableRole,
  baseDir: string,
): Promise<ReturnType<typeof entriesFromTable> | { errors: ErrorDetail[] }> {
  const fullPath = resolve(baseDir, reference);
  let text: string;
  try {
    const refusal = await notAReadableTable(fullPath);
    if (refusal !== null) return { errors: [{ path: key, message: `${JSON.stringify(reference)}: ${refusal}` }] };
    text = await readFile(fullPath, 'utf8');
  } catch (error) {
    return { errors: [{ path: key, message: `${JSON.stringify(reference)}: ${unreadableReason(error, fullPath)}` }] };
  }
  try {
    return entriesFromTable(parseCsvTable(text, reference), key, reference);
  } catch (error) {
    // A malformed table (unclosed quote, duplicate column, …) is reported with its rows.
    if (error instanceof InputError) return { errors: error.details };
    throw error;
  }
}

/** The largest CSV table read: far beyond 5,000 stops, well short of what would exhaust memory. */
const MAX_TABLE_BYTES = 64 * 1024 * 1024;

/**
 * Why a path is not a table to read, or null: a FIFO would wait forever for a writer and a device
 * such as /dev/zero never ends, so only regular files are read, and only up to MAX_TABLE_BYTES.
 */
async function notAReadableTable(fullPath: string): Promise<string | null> {
  const info = await stat(fullPath);
  if (info.isDirectory()) return `is a directory, not a CSV file (${fullPath})`;
  if (!info.isFile()) return `is not a regular file (a pipe, device or socket): give a CSV file (${fullPath})`;
  if (info.size > MAX_TABLE_BYTES)
    return `is ${Math.round(info.size / 1024 / 1024)} MB; a CSV table may have at most ${MAX_TABLE_BYTES / 1024 / 1024} MB`;
  return null;
}

function unreadableReason(error: unknown, fullPath: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `no such file (looked for ${fullPath})`;
  if (code === 'EISDIR') return `is a directory, not a CSV file (${fullPath})`;
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${fullPath})`;
  return `cannot be read (${code ?? 'error'})`;
}
