/**
 * The built-in solver. Pure TypeScript, no I/O: reads a `Problem`, returns routes and unserved stops.
 *
 * Pipeline: priority-aware regret construction → fill (insert anything that still fits) →
 * ruin-and-recreate search with local search → fill again → exact schedules and unserved
 * reasons. Several searches at once (`threads`) are src/threads/'s to run; best-of.ts picks the winner.
 */
import type { Problem } from '../model/problem.js';
import { constructRegret, fillUnserved } from './construct.js';
import { instanceOf, type SolverInstance } from './instance.js';
import { Inserter } from './insertion.js';
import { RouteEvaluator, scheduleRoute } from './route-eval.js';
import { search } from './search/search.js';
import { Solution } from './solution.js';
import type { ObjectiveValue } from './objective.js';
import { CONSTRUCTION_CAP_MS, CONSTRUCTION_SHARE, RESERVE_BASE_MS, RESERVE_PER_STOP_MS, RESERVE_SHARE } from './params.js';
import type { RouteSchedule, SolveOptions, SolveResult } from './types.js';
import { explainUnserved } from './unserved.js';

export type { SolveOptions, SolveResult } from './types.js';
export { scheduleRoute } from './route-eval.js';

export async function solve(problem: Problem, options: SolveOptions): Promise<SolveResult> {
  return (await solveOnce(problem, options)).result;
}

/** One search on the calling thread; also answers the objective of its plan (for picking among threads). */
export async function solveOnce(problem: Problem, options: SolveOptions): Promise<{ result: SolveResult; objective: ObjectiveValue }> {
  const started = performance.now();
  const limit = Number.isFinite(options.timeLimitMs) && options.timeLimitMs > 0 ? options.timeLimitMs : Infinity;
  const inst = instanceOf(problem);
  const evaluator = new RouteEvaluator(inst);
  const inserter = new Inserter(inst, evaluator, balanceUnit(inst));
  const sol = new Solution(inst);
  constructRegret(sol, inserter, evaluator, { deadline: started + Math.min(limit * CONSTRUCTION_SHARE, CONSTRUCTION_CAP_MS) });
  fillUnserved(sol, inserter, evaluator);
  reportConstruction(sol, inserter.balanceUnit, started, options);

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
      ...(outcome.operators && { operators: outcome.operators }),
    },
  };
  return { result, objective: best.objective(inserter.balanceUnit) };
}

/** The first complete plan is worth showing at once: the search setup takes a while on large problems. */
function reportConstruction(sol: Solution, unit: number, started: number, options: SolveOptions): void {
  if (!options.onProgress) return;
  let served = 0;
  for (let s = 0; s < sol.inst.nStops; s++) if (sol.routeOf[s] !== -1) served++;
  options.onProgress({
    elapsedMs: performance.now() - started,
    iterations: 0,
    served,
    unserved: sol.inst.nStops - served,
    routesUsed: sol.routesUsed(),
    cost: sol.objective(unit).cost,
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

/**
 * What one order of imbalance costs under `balanceType: orders`: the mean cost of reaching a
 * stop from the first vehicle's start (plus its service for working time), so that the
 * penalty is in the same unit as the cost it is added to.
 */
function balanceUnit(inst: SolverInstance): number {
  if (inst.nVehicles === 0 || inst.nStops === 0) return 1;
  const from = inst.vStartLoc[0]!;
  const N = inst.nLoc;
  const dur = inst.vDur[0]!;
  let total = 0;
  let count = 0;
  for (let s = 0; s < inst.nStops; s++) {
    const loc = inst.stopLoc[s]!;
    if (loc < 0) continue;
    total += inst.costIsDistance ? inst.dist[from * N + loc]! : dur[from * N + loc]! + inst.stopDur[s]!;
    count++;
  }
  return count > 0 ? Math.max(1, total / count) : 1;
}
