/**
 * One solve as the service runs it: validate the stored request again (it may come back from disk
 * after a restart), solve, build the plan. Runs inside a worker thread (see solve-worker.ts).
 */
import { InputError, RouteplanError, type ErrorBody, type Warning } from '../errors.js';
import { loadProblemDocument, type DocumentKind, type LoadOptions } from '../input/index.js';
import { solve } from '../solver/index.js';
import { buildPlan } from '../output/plan.js';
import type { Plan } from '../output/plan-types.js';

export interface SolveJob {
  kind: DocumentKind;
  /** The request document as accepted. */
  document: unknown;
  timeLimitMs: number;
  seed: number;
  roadFactor?: number;
  baseSpeedKmh?: number;
}

export type SolveOutcome = { ok: true; plan: Plan } | { ok: false; error: ErrorBody['error'] };

export interface ValidationRequest {
  type: 'validate';
  kind: DocumentKind;
  document: unknown;
  options: LoadOptions;
}

/** `invalid` tells a rejected document (400) from a failure of the validator itself (500). */
export type ValidationOutcome = { ok: true; warnings: Warning[] } | { ok: false; invalid: boolean; error: ErrorBody['error'] };

export type WorkerRequest = ValidationRequest | { type: 'solve'; job: SolveJob };

/** Validates a request body exactly as the CLI does: `loadProblemDocument` with the expected kind. */
export function runValidation(request: ValidationRequest): ValidationOutcome {
  try {
    const { warnings } = loadProblemDocument(request.document, { ...request.options, expect: request.kind });
    return { ok: true, warnings };
  } catch (error) {
    return { ok: false, invalid: error instanceof InputError, error: describeFailure(error) };
  }
}

export async function runSolveJob(job: SolveJob): Promise<SolveOutcome> {
  try {
    const loadOptions = {
      expect: job.kind,
      ...(job.roadFactor !== undefined ? { roadFactor: job.roadFactor } : {}),
      ...(job.baseSpeedKmh !== undefined ? { baseSpeedKmh: job.baseSpeedKmh } : {}),
    };
    const { problem } = loadProblemDocument(job.document, loadOptions);
    const result = await solve(problem, { timeLimitMs: job.timeLimitMs, seed: job.seed, threads: 1 });
    return { ok: true, plan: buildPlan(problem, result) };
  } catch (error) {
    return { ok: false, error: describeFailure(error) };
  }
}

export function describeFailure(error: unknown): ErrorBody['error'] {
  if (error instanceof RouteplanError) return error.toBody().error;
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal_error', message: `the solve failed: ${message}`, details: [] };
}
