/**
 * One solve as the service runs it: validate the stored request again (it may come back from disk
 * after a restart), solve, build the plan. Runs inside a worker thread (see solve-worker.ts).
 */
import { RouteplanError, type ErrorBody } from '../errors.js';
import { loadProblemDocument, type DocumentKind } from '../input/index.js';
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
