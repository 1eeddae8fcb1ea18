/**
 * One solve as the service sees it: a stored request document, solved in a worker thread
 * (src/threads/tasks.ts: validated again, since it may come back from disk after a restart, built
 * once, solved, made a plan), and the check that accepts a request in the first place.
 */
import { RouteplanError, type ErrorBody, type Warning } from '../../errors.js';
import { validateProblemDocument, type DocumentKind, type LoadOptions } from '../../input/index.js';
import type { Plan } from '../../output/plan-types.js';
import type { DocumentSolve } from '../../threads/protocol.js';

export type SolveJob = DocumentSolve;

export type SolveOutcome = { ok: true; plan: Plan } | { ok: false; error: ErrorBody['error'] };

/**
 * Validates a request body with the errors and warnings of loading it (as the CLI does), without
 * building its travel matrix: milliseconds even at the stop limit, so it runs on the event loop.
 * Throws the InputError of an invalid document.
 */
export function validateRequest(kind: DocumentKind, document: unknown, options: LoadOptions): Warning[] {
  return validateProblemDocument(document, { ...options, expect: kind }).warnings;
}

export function describeFailure(error: unknown): ErrorBody['error'] {
  if (error instanceof RouteplanError) return error.toBody().error;
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal_error', message: `the solve failed: ${message}`, details: [] };
}
