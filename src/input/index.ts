/**
 * The input layer's public API: read a file (JSON, YAML, CSV, or a benchmark format), detect
 * its shape, validate it and normalize it into one `Problem`.
 * Its signatures are a contract for the CLI, the server and the tests.
 */
import { basename, dirname, extname } from 'node:path';
import { InputError } from '../errors.js';
import { loadBenchmarkText } from './benchmark/index.js';
import { inlineCsvReferences } from './csv-references.js';
import { formatOf, parseJson, parseYaml, readSourceText } from './read.js';
import type { DocumentKind, LoadedProblem, LoadOptions, ValidatedDocument } from './types.js';
import { problemFromDocument, resolvedProblemFromDocument, validateDocument, type ValidateContext } from './validate.js';

export { problemSummaryLines } from './summary.js';

export type { DocumentKind, InputFormat, LoadedProblem, LoadOptions, ValidatedDocument } from './types.js';

/** Reads, validates and normalizes a problem file (`-` = stdin). Throws InputError (all problems at once). */
export function loadProblemFile(path: string, options: LoadOptions = {}): Promise<LoadedProblem> {
  return readProblemFile(path, options, resolvedProblemFromDocument);
}

/**
 * Reads and validates a problem file like loadProblemFile, with the same errors and warnings,
 * but does not build the problem (its travel matrix): for `submit`, where the service builds it.
 */
export function validateProblemFile(path: string, options: LoadOptions = {}): Promise<ValidatedDocument> {
  return readProblemFile(path, options, validateDocument);
}

async function readProblemFile<T extends ValidatedDocument>(
  path: string,
  options: LoadOptions,
  fromDocument: (document: unknown, options: LoadOptions, context: ValidateContext) => T | Promise<T>,
): Promise<T | LoadedProblem> {
  const text = await readSourceText(path);
  const label = path === '-' ? 'stdin' : path;
  const format = formatOf(path, text, options.format);
  switch (format) {
    case 'solomon':
    case 'vrplib': {
      const name = path === '-' ? 'stdin' : basename(path, extname(path));
      return { problem: loadBenchmarkText(text, format, name), warnings: [], kind: 'benchmark', document: null };
    }
    case 'csv':
      throw loneCsvError(label);
    case 'json':
    case 'yaml': {
      const parsed = format === 'json' ? parseJson(text, label) : parseYaml(text, label);
      const baseDir = path === '-' ? process.cwd() : dirname(path);
      const { document, origins, referenceErrors, failedKeys, tableWarnings } = await inlineCsvReferences(parsed, baseDir);
      return fromDocument(document, options, { origins, source: label, csvReferences: true, referenceErrors, failedKeys, tableWarnings });
    }
  }
}

/** A lone CSV table cannot be a whole problem: it has stops but no drivers. */
function loneCsvError(label: string): InputError {
  const example = `name: My project\ndate: 2024-05-14\ndrivers: drivers.csv\nstops: ${basename(label)}`;
  return new InputError(
    `${label} is a CSV table of stops, but a problem also needs drivers. Write a small YAML file that names both tables (paths relative to it), e.g.:\n${example}\nand pass that file instead (see fixtures/csv/project.yaml).`,
    [
      {
        path: label,
        message: 'a CSV table alone has no drivers; name it from a YAML problem file (stops: stops.csv, drivers: drivers.csv)',
      },
    ],
    'csv_needs_project',
  );
}

/**
 * Validates and normalizes an already-parsed document (a JSON request body). `expect` restricts
 * the shape (the service's `/schedules` takes only one-off problems). Throws InputError.
 */
export function loadProblemDocument(document: unknown, options: LoadOptions & { expect?: DocumentKind } = {}): LoadedProblem {
  return problemFromDocument(document, options);
}

/**
 * loadProblemDocument with the steps that may geocode addresses and fetch road travel times
 * (resolve.ts): what the service's worker runs for a stored document.
 */
export function resolveProblemDocument(document: unknown, options: LoadOptions & { expect?: DocumentKind } = {}): Promise<LoadedProblem> {
  return resolvedProblemFromDocument(document, options);
}

/** loadProblemDocument's errors and warnings without building the problem: to accept a request body. */
export function validateProblemDocument(document: unknown, options: LoadOptions & { expect?: DocumentKind } = {}): ValidatedDocument {
  return validateDocument(document, options);
}

export { addressOnlyLocations, coordinateFields, geocodeDocument, withCoordinates } from './locate.js';
export { isPlainObject } from './shape.js';
