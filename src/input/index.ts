/**
 * The input layer's public API: read a file (JSON, YAML, CSV, or a benchmark format), detect
 * its shape, validate it and normalize it into one `Problem`.
 * Its signatures are a contract for the CLI, the server and the tests.
 */
import type { DocumentKind, LoadedProblem, LoadOptions, ValidatedDocument } from './types.js';
import { problemFromDocument, resolvedProblemFromDocument, validateDocument } from './validate.js';

export { loadProblemFile, validateProblemFile } from './load-file.js';
export { problemSummaryLines } from './summary.js';

export type { DocumentKind, InputFormat, LoadedProblem, LoadOptions, ValidatedDocument } from './types.js';

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
