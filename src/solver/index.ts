/**
 * The built-in solver. Pure TypeScript, no I/O: reads a `Problem`, returns routes and unserved stops.
 *
 * Pipeline: a greedy first plan, the floor of every answer, then the priority-aware regret
 * construction within its share of the limit (counted in work), kept when it beats the floor (construct.ts) →
 * ruin-and-recreate search with local search → fill (insert anything that still fits) → exact
 * schedules and unserved reasons. Several searches at once (`threads`) are src/threads/'s to run; best-of.ts picks the winner.
 */
import type { Problem } from '../model/problem.js';
import { constructFirstPlan, fillUnserved, untimedIterationsOf } from './construct.js';
import { withFewerRoutesWherePays } from './fewer-routes.js';
import type { SearchOutcome } from './best-of.js';
import { planOfRoutes, searchKitOf, type SearchKit } from './kit.js';
import { restartsOf, searchInTurn } from './restart-at-stall.js';
import { scheduleRoute } from './route/schedule.js';
import { claimSize, type ClaimShare } from './search/claim.js';
import { ProgressReport } from './search/progress.js';
import { search, type SearchLimits } from './search/search.js';
import { coolWorkFor, stallLimitsFor } from './windowless.js';
import { leversOf } from './levers.js';
import type { Solution } from './solution.js';
import {
  CONSTRUCTION_CAP_MS,
  CONSTRUCTION_SHARE,
  CONSTRUCTION_WORK_PER_MS,
  POPULATION_BY_DEFAULT,
  PRIZE_CLAIM_RESERVE_PER_UNIT,
  PRIZE_CLAIM_SHARE,
  PRIZE_CLAIM_CUT_POLISH_PER_UNIT,
  PRIZE_CLAIM_POLISH_PER_UNIT,
  PRIZE_CLAIM_WORK_PER_UNIT,
  RESERVE_BASE_MS,
  RESERVE_PER_STOP_MS,
  RESERVE_SHARE,
  WORK_UNITS_PER_MS,
} from './params.js';
import { timeLeftOf, timeLimitOf } from './time-limit.js';
import type { RouteSchedule, SolveOptions, SolveResult } from './types.js';
import { explainUnserved } from './unserved.js';

export async function solve(problem: Problem, options: SolveOptions): Promise<SolveResult> {
  return (await solveOnce(problem, options)).result;
}

/** Time kept back from the search of `nStops` stops, out of `limitMs`, to build the result. */
export function reserveOf(limitMs: number, nStops: number): number {
  return Math.min(limitMs * RESERVE_SHARE, RESERVE_BASE_MS + RESERVE_PER_STOP_MS * nStops);
}

/** The final prize pass's share of work (search/claim.ts), per unit of its size. */
export const CLAIM_SHARE: ClaimShare = {
  prizePerUnit: PRIZE_CLAIM_WORK_PER_UNIT,
  polishPerUnit: PRIZE_CLAIM_POLISH_PER_UNIT,
  cutPolishPerUnit: PRIZE_CLAIM_CUT_POLISH_PER_UNIT,
};

/**
 * Time kept back from the search, out of `limitMs`, for the final prize pass: in proportion to
 * the size of the first plan's claim (params.ts, PRIZE_CLAIM_RESERVE_PER_UNIT).
 */
export function claimReserveOf(limitMs: number, first: Solution): number {
  const work = PRIZE_CLAIM_RESERVE_PER_UNIT * claimSize(first, first.unservedStops().length);
  return Math.min(limitMs * PRIZE_CLAIM_SHARE, work / WORK_UNITS_PER_MS);
}

/**
 * The search's deadline and the final claim's bounds: its share of work, whose time is kept back
 * before `deadline`, and on large problems the clock's (`finishBy`: half the output reserve past the
 * deadline); with `prizeClaim` false (the bench's ablation row), the clock's alone, as before.
 */
function claimLimitsOf(
  options: SolveOptions,
  deadline: number,
  finishBy: number,
  limitMs: number,
  first: Solution,
): Pick<SearchLimits, 'deadline' | 'claimShare' | 'finishBy'> {
  if (options.prizeClaim === false) return { deadline, finishBy };
  return { deadline: deadline - claimReserveOf(limitMs, first), claimShare: CLAIM_SHARE, finishBy };
}

/**
 * One search on the calling thread, or searches one after another where a search that stops by
 * itself restarts (restart-at-stall.ts); also answers the objective of its plan (for picking
 * among threads).
 */
export async function solveOnce(problem: Problem, options: SolveOptions): Promise<SearchOutcome> {
  const kit = searchKitOf(problem, options.localOrder);
  const restarts = restartsOf(kit.inst, options);
  if (restarts === 'none') return searchOnce(problem, kit, options);
  // Each restart builds its own kit, so that no search's state reaches another's plan.
  return searchInTurn(problem, options, restarts, (searchOptions, index) =>
    searchOnce(problem, index === 0 ? kit : searchKitOf(problem, options.localOrder), searchOptions),
  );
}

async function searchOnce(problem: Problem, kit: SearchKit, options: SolveOptions): Promise<SearchOutcome> {
  const clock = options.clock ?? (() => performance.now());
  const started = clock();
  const limit = timeLimitOf(options);
  const left = timeLeftOf(options);
  const { inst, evaluator, costs, inserter, near } = kit;
  const progress = new ProgressReport(inst, costs, started, options.onProgress);
  const reserve = reserveOf(left, inst.nStops);
  const deadline = started + left - reserve;
  const first = constructFirstPlan(
    inst,
    costs,
    inserter,
    evaluator,
    near,
    // The regret construction's share of the limit is counted in work, not time, so that a busy
    // machine does not start the search from another plan (construct.ts); only the run's own
    // deadline may cut it by the clock, and then the search stops at once ('time').
    { deadline, clock, work: CONSTRUCTION_WORK_PER_MS * Math.min(limit * CONSTRUCTION_SHARE, CONSTRUCTION_CAP_MS) },
    // The floor is worth showing at once: the regret construction takes a while on large problems.
    (floor) => progress.report(floor, 0),
  );
  const firstPlanMs = first.floorMs;
  if (first.from === 'regret') progress.report(first.plan, 0);

  const limits: SearchLimits = {
    started,
    // The final prize pass on the best plan gets its share of work, the clock's bound only on large problems (search/claim.ts).
    ...claimLimitsOf(options, deadline, started + left - reserve / 2, left, first.plan),
    // Budgets of work follow the limit, not what the loading left of it: a seed gives one plan.
    workSpanMs: limit - reserveOf(limit, inst.nStops),
    seed: options.seed ?? 0,
    maxIterations: options.maxIterations,
    maxNoImprove: options.maxNoImprove,
    untimedIterations: untimedIterationsOf(inst),
    ...(stopsWhenStalled(options) ? stallLimitsFor(inst, options.longerCooling) : {}),
    // A search that may stop by itself cools by work where it can (search/accept.ts), so a seed reproduces it.
    ...(stopsWhenStalled(options) || options.maxNoImprove !== undefined ? { coolWork: coolWorkFor(inst, options.longerCooling) } : {}),
    operatorStats: options.operatorStats,
    ...leversOf(options),
    population: options.population ?? POPULATION_BY_DEFAULT,
    signal: options.signal,
    onProgress: options.onProgress,
    clock,
  };
  const outcome = await search(first.plan, inserter, evaluator, near, limits);
  const { best, bestFoundAt, iterations } = await withFewerRoutesWherePays(problem, kit, outcome, limits, options);
  fillUnserved(best, inserter, evaluator);
  const result: SolveResult = {
    routes: buildSchedules(problem, best),
    // The hints are looked for while the limit lasts: it bounds the command (unserved.ts).
    unserved: explainUnserved(best, evaluator, () => clock() < started + left),
    stats: {
      elapsedMs: clock() - started,
      iterations,
      firstPlanMs,
      bestFoundMs: Math.max(firstPlanMs, bestFoundAt - started),
      seed: options.seed ?? 0,
      threads: 1,
      stoppedBy: outcome.stoppedBy,
      ...(outcome.operators && { operators: outcome.operators }),
    },
  };
  return { result, objective: costs.objective(best) };
}

/**
 * The result of a plan given as route sequences (one per vehicle), found by searches elsewhere
 * (decompose/search.ts): unserved stops that fit are inserted, then schedules and reasons.
 */
export function resultOfRoutes(
  problem: Problem,
  routes: readonly Int32Array[],
  stats: SolveResult['stats'],
  mayLookForHints?: () => boolean,
): SolveResult {
  const kit = searchKitOf(problem);
  const plan = planOfRoutes(kit, routes);
  fillUnserved(plan, kit.inserter, kit.evaluator);
  return { routes: buildSchedules(problem, plan), unserved: explainUnserved(plan, kit.evaluator, mayLookForHints), stats };
}

/** The stall stop is on by default, and off under an iteration limit (which must reproduce a plan). */
function stopsWhenStalled(options: SolveOptions): boolean {
  return options.stopWhenStalled ?? options.maxIterations === undefined;
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
