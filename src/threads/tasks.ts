/** What a worker thread runs: the tasks of protocol.ts. */
import { loadProblemDocument } from '../input/index.js';
import { buildPlan } from '../output/plan.js';
import type { Plan } from '../output/plan-types.js';
import { solve, solveOnce } from '../solver/index.js';
import type { SearchOutcome } from '../solver/best-of.js';
import type { SolveProgress } from '../solver/types.js';
import type { DocumentSolve, SearchTask, Task } from './protocol.js';

export function runTask(task: Task, signal: AbortSignal, onProgress: (progress: SolveProgress) => void): Promise<unknown> {
  switch (task.kind) {
    case 'search':
      return runSearch(task, signal, onProgress);
    case 'plan':
      return planOfDocument(task.job);
  }
}

export function runSearch(task: SearchTask, signal: AbortSignal, onProgress: (progress: SolveProgress) => void): Promise<SearchOutcome> {
  return solveOnce(task.problem, { ...task.options, signal, onProgress });
}

/** Validates the stored document again (it may come back from disk after a restart), builds the problem once, solves. */
export async function planOfDocument(job: DocumentSolve): Promise<Plan> {
  const loadOptions = {
    expect: job.kind,
    ...(job.roadFactor !== undefined ? { roadFactor: job.roadFactor } : {}),
    ...(job.baseSpeedKmh !== undefined ? { baseSpeedKmh: job.baseSpeedKmh } : {}),
  };
  const { problem } = loadProblemDocument(job.document, loadOptions);
  const result = await solve(problem, { timeLimitMs: job.timeLimitMs, seed: job.seed });
  return buildPlan(problem, result);
}
