/**
 * The built-in solver. Pure TypeScript, no I/O: reads a `Problem`, returns routes and unserved stops.
 *
 * Pipeline: priority-aware regret construction → fill (insert anything that still fits) →
 * ruin-and-recreate search with local search → fill again → exact schedules and unserved
 * reasons. With `threads` > 1, that many independent searches run on worker threads
 * (parallel.ts) and the best plan wins.
 */
import type { Problem } from '../model/problem.js';
import { constructRegret, fillUnserved } from './construct.js';
import { CostEvaluator, type ObjectiveValue } from './cost.js';
import { instanceOf } from './instance.js';
import { Inserter } from './insertion.js';
import { RouteEvaluator } from './route/evaluator.js';
import { scheduleRoute } from './route/schedule.js';
import { search } from './search.js';
import { Solution } from './solution.js';
import { solveParallel } from './parallel.js';
import type { RouteSchedule, SolveOptions, SolveResult } from './types.js';
import { explainUnserved } from './unserved.js';

export type { SolveOptions, SolveResult } from './types.js';
export { scheduleRoute } from './route/schedule.js';

/** Share of the time limit the construction may use before finishing greedily. */
const CONSTRUCTION_SHARE = 0.5;
/** …and at most this long, so that a first plan is ready within seconds even under a long limit. */
const CONSTRUCTION_CAP_MS = 5000;
/**
 * Time kept back from the search to build the result (final fill, schedules, unserved reasons):
 * grows with the problem, at most this share of the limit.
 */
const RESERVE_SHARE = 0.07;
const RESERVE_BASE_MS = 100;
const RESERVE_PER_STOP_MS = 0.2;

export async function solve(problem: Problem, options: SolveOptions): Promise<SolveResult> {
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  if (threads > 1) return solveParallel(problem, options, threads);
  return (await solveOnce(problem, options)).result;
}

/** One search on the calling thread; also answers the objective of its plan (for picking among threads). */
export async function solveOnce(problem: Problem, options: SolveOptions): Promise<{ result: SolveResult; objective: ObjectiveValue }> {
  const started = performance.now();
  const limit = Number.isFinite(options.timeLimitMs) && options.timeLimitMs > 0 ? options.timeLimitMs : Infinity;
  const inst = instanceOf(problem);
  const evaluator = new RouteEvaluator(inst);
  const costs = new CostEvaluator(inst);
  const inserter = new Inserter(inst, evaluator);
  const sol = new Solution(inst, costs);
  constructRegret(sol, inserter, evaluator, { deadline: started + Math.min(limit * CONSTRUCTION_SHARE, CONSTRUCTION_CAP_MS) });
  fillUnserved(sol, inserter, evaluator);
  reportConstruction(sol, started, options);

  const outcome = await search(sol, inserter, evaluator, {
    started,
    deadline: started + limit - Math.min(limit * RESERVE_SHARE, RESERVE_BASE_MS + RESERVE_PER_STOP_MS * inst.nStops),
    seed: options.seed ?? 0,
    maxIterations: options.maxIterations,
    maxNoImprove: options.maxNoImprove,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  const best = outcome.best;
  fillUnserved(best, inserter, evaluator);
  const result: SolveResult = {
    routes: buildSchedules(problem, best),
    unserved: explainUnserved(best, evaluator),
    stats: {
      elapsedMs: performance.now() - started,
      iterations: outcome.iterations,
      stoppedBy: outcome.stoppedBy,
    },
  };
  return { result, objective: costs.objective(best) };
}

/** The first complete plan is worth showing at once: the search setup takes a while on large problems. */
function reportConstruction(sol: Solution, started: number, options: SolveOptions): void {
  if (!options.onProgress) return;
  let served = 0;
  for (let s = 0; s < sol.inst.nStops; s++) if (sol.routeOf[s] !== -1) served++;
  options.onProgress({
    elapsedMs: performance.now() - started,
    iterations: 0,
    served,
    unserved: sol.inst.nStops - served,
    routesUsed: sol.routesUsed(),
    cost: sol.costs.objective(sol).cost,
  });
}

function buildSchedules(problem: Problem, sol: Solution): RouteSchedule[] {
  const routes: RouteSchedule[] = [];
  for (let v = 0; v < sol.inst.nVehicles; v++) {
    const n = sol.len[v]!;
    if (n === 0) continue;
    const schedule = scheduleRoute(problem, v, sol.seq[v]!.subarray(0, n));
    if (!schedule) throw new Error(`internal error: route of vehicle ${v} failed its final check`);
    routes.push(schedule);
  }
  return routes;
}
