/**
 * The port through which the decomposition (search.ts) runs its searches: src/threads/ implements
 * it with worker threads; inlineRunner here runs them one after the other on the calling thread.
 * What crosses it is plain data (a problem, route sequences, plain options), so that a search may
 * run on another thread.
 */
import type { Problem } from '../../model/problem.js';
import { improvePlan, type ImproveOutcome, type PlainImproveOptions } from '../improve.js';
import type { SolveProgress } from '../types.js';

/** Runs one search of a plan (improve.ts) on thread `index` (a worker, or the calling thread). */
export interface ImproveRunner {
  run(
    index: number,
    problem: Problem,
    initial: Int32Array[] | null,
    options: PlainImproveOptions,
    onProgress?: (p: SolveProgress) => void,
  ): Promise<ImproveOutcome>;
  /** Asks every running search for its best plan now. */
  abort(): void;
}

/** The searches one after the other on the calling thread (tests of the sources; no build). */
export function inlineRunner(signal?: AbortSignal): ImproveRunner {
  return {
    run: (_index, problem, initial, options, onProgress) => improvePlan(problem, initial, { ...options, signal, onProgress }),
    abort: () => {},
  };
}
