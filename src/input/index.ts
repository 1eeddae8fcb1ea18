/**
 * The input layer's public API: read a file (JSON, YAML, CSV, or a benchmark format), detect
 * its shape, validate it and normalize it into one `Problem`.
 * OWNER: input helper. Signatures are a contract for the CLI, the server and the tests.
 */
import type { Problem } from '../model/problem.js';
import type { Warning } from '../errors.js';

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
export async function loadProblemFile(_path: string, _options: LoadOptions = {}): Promise<LoadedProblem> {
  throw new Error('not implemented yet');
}

/**
 * Validates and normalizes an already-parsed document (a JSON request body). `expect` restricts
 * the shape (the service's `/schedules` takes only one-off problems). Throws InputError.
 */
export function loadProblemDocument(
  _document: unknown,
  _options: LoadOptions & { expect?: DocumentKind } = {},
): LoadedProblem {
  throw new Error('not implemented yet');
}
