/**
 * The input layer's public API: read a file (JSON, YAML, CSV, or a benchmark format), detect
 * its shape, validate it and normalize it into one `Problem`.
 * Its signatures are a contract for the CLI, the server and the tests.
 */
import { basename, dirname, extname } from 'node:path';
import type { Problem } from '../model/problem.js';
import type { Warning } from '../errors.js';
import { InputError } from '../errors.js';
import { loadBenchmarkText } from './benchmark/index.js';
import { inlineCsvReferences } from './csv-references.js';
import { formatOf, parseJson, parseYaml, readSourceText } from './read.js';
import type { SettingName } from './settings.js';
import { FORMAT_REQUEST } from './settings.js';
import { problemFromDocument } from './validate.js';

export { problemSummaryLines } from './summary.js';

export type InputFormat = 'json' | 'yaml' | 'csv' | 'solomon' | 'vrplib';
export type DocumentKind = 'project' | 'oneoff';

export interface LoadOptions {
  /** Force a format; by default from the extension (`-` = stdin needs it). */
  format?: InputFormat;
  /** Offline travel model constants (flags `--road-factor`, `--base-speed`). */
  roadFactor?: number;
  baseSpeedKmh?: number;
}

export interface LoadedProblem {
  problem: Problem;
  warnings: Warning[];
  kind: DocumentKind | 'benchmark';
  /** The validated document as given (before defaults), e.g. for `submit` and for storing a project. */
  document: unknown;
}

/** Reads, validates and normalizes a problem file (`-` = stdin). Throws InputError (all problems at once). */
export async function loadProblemFile(path: string, options: LoadOptions = {}): Promise<LoadedProblem> {
  if (path === '-' && !options.format) {
    throw new InputError(`Reading a problem from stdin (-) needs its format: ${FORMAT_REQUEST}`, [
      { path: 'format' satisfies SettingName, message: 'missing; give json, yaml or csv when reading stdin' },
    ]);
  }
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
      const { document, origins, referenceErrors, failedKeys } = await inlineCsvReferences(parsed, baseDir);
      return problemFromDocument(document, options, { origins, source: label, csvReferences: true, referenceErrors, failedKeys });
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
