/**
 * Runs validations and solves in worker threads so that neither a long search nor building a
 * large problem (seconds for 5,000 stops) blocks the HTTP event loop. Solves and validations use
 * separate pools, so a request is never validated behind a running solve.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InputError, type Warning } from '../errors.js';
import type { DocumentKind, LoadOptions } from '../input/index.js';
import { runValidation, type SolveJob, type SolveOutcome, type ValidationOutcome, type WorkerRequest } from './job.js';
import { WorkerFailure, WorkerPool } from './worker-pool.js';

export { JobAbortedError } from './worker-pool.js';

export interface SolveRunner {
  /** Resolves with the outcome; rejects with JobAbortedError when `signal` aborts (the job stays pending). */
  run(job: SolveJob, signal: AbortSignal): Promise<SolveOutcome>;
  /**
   * Validates a request body with loadProblemDocument: resolves with its warnings, throws the
   * InputError of an invalid document (or QueueFullError when too many validations wait).
   */
  validate(kind: DocumentKind, document: unknown, options: LoadOptions): Promise<Warning[]>;
  /** Releases what the runner holds (idle worker threads). */
  close?(): Promise<void>;
}

/** Extra time a worker gets past its solve time limit (start-up, building the problem and the plan). */
const WORKER_GRACE_MS = 30_000;
const VALIDATION_TIMEOUT_MS = 60_000;
/** Large validations waiting beyond this many are refused (429): each holds a request body in memory. */
const MAX_WAITING_VALIDATIONS = 32;
/**
 * Below this many stops and vehicles together, building the problem takes a few milliseconds and
 * is done on the calling thread; above it the travel matrix (quadratic) goes to a worker.
 */
export const IN_PROCESS_VALIDATION_LIMIT = 300;

/** Stops plus vehicles of a request body, counted without validating it. */
export function documentSize(document: unknown): number {
  if (typeof document !== 'object' || document === null) return 0;
  const record = document as Record<string, unknown>;
  const lengthOf = (value: unknown): number => (Array.isArray(value) ? value.length : 0);
  return ['routesData', 'ordersData', 'routes', 'orders', 'drivers', 'stops'].reduce((sum, key) => sum + lengthOf(record[key]), 0);
}

/**
 * The compiled worker beside this module. Under a TypeScript test runner this module is the .ts
 * source, whose sibling is not runnable by a worker thread, so the built copy in dist/ is used.
 */
export function defaultWorkerUrl(): URL {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return new URL('../../dist/src/server/solve-worker.js', here);
  return new URL('./solve-worker.js', here);
}

/** Turns what a validation answered into warnings or the error to send back. */
export function validationResult(outcome: ValidationOutcome): Warning[] {
  if (outcome.ok) return outcome.warnings;
  if (outcome.invalid) throw new InputError(outcome.error.message, outcome.error.details, outcome.error.code);
  throw new Error(outcome.error.message);
}

export class WorkerSolveRunner implements SolveRunner {
  private readonly solves: WorkerPool;
  private readonly validations: WorkerPool;
  private readonly neverAborted = new AbortController().signal;

  constructor(
    /** Solves running at once (the job queue already holds this bound). */
    concurrency: number,
    validationWorkers = 1,
    workerUrl: URL = defaultWorkerUrl(),
  ) {
    if (!existsSync(fileURLToPath(workerUrl))) {
      throw new Error(`the solve worker ${fileURLToPath(workerUrl)} is missing; build with "npx tsc -p ."`);
    }
    this.solves = new WorkerPool(workerUrl, concurrency, Number.POSITIVE_INFINITY);
    this.validations = new WorkerPool(workerUrl, validationWorkers, MAX_WAITING_VALIDATIONS);
  }

  async run(job: SolveJob, signal: AbortSignal): Promise<SolveOutcome> {
    const request: WorkerRequest = { type: 'solve', job };
    try {
      return await this.solves.call<SolveOutcome>(request, job.timeLimitMs + WORKER_GRACE_MS, signal);
    } catch (error) {
      if (error instanceof WorkerFailure) return { ok: false, error: { code: error.code, message: error.message, details: [] } };
      throw error;
    }
  }

  async validate(kind: DocumentKind, document: unknown, options: LoadOptions): Promise<Warning[]> {
    if (documentSize(document) <= IN_PROCESS_VALIDATION_LIMIT) return validateInProcess(kind, document, options);
    const request: WorkerRequest = { type: 'validate', kind, document, options };
    return validationResult(await this.validations.call<ValidationOutcome>(request, VALIDATION_TIMEOUT_MS, this.neverAborted));
  }

  async close(): Promise<void> {
    await Promise.all([this.solves.close(), this.validations.close()]);
  }
}

/** Validation on the calling thread, for runners that do not use workers (tests). */
export function validateInProcess(kind: DocumentKind, document: unknown, options: LoadOptions): Promise<Warning[]> {
  return Promise.resolve().then(() => validationResult(runValidation({ type: 'validate', kind, document, options })));
}
