/**
 * Reading a problem file (`-` = stdin): a benchmark instance is loaded here; a JSON or YAML
 * document by document-file.ts, loaded on demand. Each `routeplan solve` is a fresh process whose
 * `--time-limit` counts from its start (decisions.md), and the validation schemas and their zod
 * are some 0.9 MB of the bundle: a benchmark instance does without them (issue 26). index.ts
 * re-exports these; the CLI imports them from here so that its bundle chunk leaves them out.
 */
import { basename, extname } from 'node:path';
import { InputError } from '../errors.js';
import { loadBenchmarkText } from './benchmark/index.js';
import type { DocumentStep } from './document-file.js';
import { formatOf, readSourceText } from './read.js';
import type { LoadedProblem, LoadOptions, ValidatedDocument } from './types.js';

/** Reads, validates and normalizes a problem file (`-` = stdin). Throws InputError (all problems at once). */
export function loadProblemFile(path: string, options: LoadOptions = {}): Promise<LoadedProblem> {
  return readProblemFile(path, options, 'resolve') as Promise<LoadedProblem>;
}

/**
 * Reads and validates a problem file like loadProblemFile, with the same errors and warnings,
 * but does not build the problem (its travel matrix): for `submit`, where the service builds it.
 */
export function validateProblemFile(path: string, options: LoadOptions = {}): Promise<ValidatedDocument> {
  return readProblemFile(path, options, 'validate');
}

async function readProblemFile(path: string, options: LoadOptions, step: DocumentStep): Promise<LoadedProblem | ValidatedDocument> {
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
      const { documentFromText } = await import('./document-file.js');
      return documentFromText(text, format, path, options, step);
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
