/** What a worker thread runs: the tasks of protocol.ts. */
import { buildPlan } from '../output/plan.js';
import { splitFixedPrefix, withFixedPrefix } from '../output/fixed-prefix.js';
import type { Plan } from '../output/plan-types.js';
import { solve, solveOnce } from '../solver/index.js';
import { improvePlan } from '../solver/improve.js';
import type { SearchOutcome } from '../solver/best-of.js';
import type { SolveProgress } from '../solver/types.js';
import { avoidedRoads, withRoadGeometry } from '../travel/plan-geometry.js';
import type { DocumentSolve, SearchTask, Task } from './protocol.js';

type ProgressSink = (progress: SolveProgress) => void;

/**
 * The solver reports 20 times a second; a service polled every half second or so needs far fewer,
 * and each report is a message the service's event loop must handle.
 */
export const PLAN_PROGRESS_EVERY_MS = 250;

export function runTask(task: Task, signal: AbortSignal, onProgress: ProgressSink): Promise<unknown> {
  switch (task.kind) {
    case 'search':
      return runSearch(task, signal, onProgress);
    case 'plan':
      return planOfDocument(task.job, throttle(onProgress, PLAN_PROGRESS_EVERY_MS));
    case 'improve':
      return improvePlan(task.problem, task.initial, { ...task.options, signal, onProgress });
  }
}

function runSearch(task: SearchTask, signal: AbortSignal, onProgress: ProgressSink): Promise<SearchOutcome> {
  return solveOnce(task.problem, { ...task.options, signal, onProgress });
}

/**
 * Validates the stored document again (it may come back from disk after a restart), builds the
 * problem once, solves; a re-optimized day's plan is put back together with its fixed part.
 */
export async function planOfDocument(job: DocumentSolve, onProgress?: ProgressSink): Promise<Plan> {
  const { document, frame } = splitFixedPrefix(job.document);
  const loadOptions = {
    expect: job.kind,
    ...(job.roadFactor !== undefined ? { roadFactor: job.roadFactor } : {}),
    ...(job.baseSpeedKmh !== undefined ? { baseSpeedKmh: job.baseSpeedKmh } : {}),
    ...(job.travel !== undefined ? { travel: job.travel } : {}),
    ...(job.geocoder !== undefined ? { geocoder: job.geocoder } : {}),
    ...(job.allowUnresolved ? { allowUnresolved: true } : {}),
  };
  // Loaded here, not with the worker: a search task (routeplan solve) needs no validation schemas.
  const { resolveProblemDocument } = await import('../input/index.js');
  const { problem } = await resolveProblemDocument(document, loadOptions);
  const result = await solve(problem, {
    timeLimitMs: job.timeLimitMs,
    seed: job.seed,
    ...(job.fullTime ? { fullTime: true } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  const plan = buildPlan(problem, result);
  // The whole day's shape, the reported stops included: the map draws the day as the driver drives it.
  return withRoadGeometry(frame ? withFixedPrefix(plan, frame) : plan, job.travel, avoidedRoads(problem));
}

/** Passes on the first report and then at most one every `everyMs`. */
function throttle(sink: ProgressSink, everyMs: number): ProgressSink {
  let last = -Infinity;
  return (progress) => {
    const now = performance.now();
    if (now - last < everyMs) return;
    last = now;
    sink(progress);
  };
}
