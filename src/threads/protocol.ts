/**
 * The one message protocol between a caller and worker.ts. A worker runs one task at a time:
 * it answers progress reports while it works, then one result or one error.
 */
import type { Problem } from '../model/problem.js';
import type { SolveOptions, SolveProgress } from '../solver/types.js';
import type { SerializedError } from './errors.js';
import type { PlainImproveOptions } from '../solver/improve.js';
import type { TravelSettings } from '../travel/types.js';
import type { GeocoderSettings } from '../geocode/types.js';

/** SolveOptions without what cannot cross a thread boundary (functions, the signal). */
export type PlainSolveOptions = Omit<SolveOptions, 'signal' | 'onProgress'>;

/**
 * One search (solveOnce) of the problem. Its time limit starts when the search does, in its
 * worker; `options.endsAt`, an absolute time, still bounds it, so that under a command's limit
 * (which counts from the command's start) starting the thread comes out of the search's share.
 */
export interface SearchTask {
  kind: 'search';
  problem: Problem;
  options: PlainSolveOptions;
}

/** A document as the service stores it → its plan: validated, built and solved in the worker. */
export interface DocumentSolve {
  kind: 'project' | 'oneoff';
  document: unknown;
  timeLimitMs: number;
  seed: number;
  roadFactor?: number;
  baseSpeedKmh?: number;
  /** The service's travel source; the worker fetches the table (plain data, it crosses the thread boundary). */
  travel?: TravelSettings;
  /** The service's geocoder, for stops given by address only. */
  geocoder?: GeocoderSettings;
  /** Stops whose address found nothing are left unserved (a project's, listed on its record). */
  allowUnresolved?: boolean;
  /** Search for the whole time limit instead of stopping once the plan stops improving. */
  fullTime?: boolean;
}

export interface PlanTask {
  kind: 'plan';
  job: DocumentSolve;
}

/** A search of a plan handed over as route sequences, or built first (solver/improve.ts); a part of a decomposition. */
export interface ImproveTask {
  kind: 'improve';
  problem: Problem;
  initial: Int32Array[] | null;
  options: PlainImproveOptions;
}

export type Task = SearchTask | PlanTask | ImproveTask;

export type ToWorker = { type: 'run'; task: Task } | { type: 'abort' };

export type FromWorker =
  { type: 'progress'; progress: SolveProgress } | { type: 'result'; value: unknown } | { type: 'error'; error: SerializedError };
