/**
 * A search handed its starting plan: the unit of work of the decomposition (decompose/search.ts).
 * `improvePlan` takes a problem (the whole one or a sub-problem of decompose/parts.ts) and either a plan
 * as plain route sequences (a warm start) or none (it builds the first plan itself), runs the
 * ruin-and-recreate search for its budget and answers the best plan as route sequences again:
 * plain data, so that it crosses a thread boundary. The answer is never worse than the start.
 */
import type { Problem } from '../model/problem.js';
import { constructFirstPlan, fillUnserved } from './construct.js';
import type { ObjectiveValue } from './cost.js';
import { planOfRoutes, routesOf, searchKitOf } from './kit.js';
import { leversOf, type SearchLevers } from './levers.js';
import { CONSTRUCTION_WORK_PER_MS, POPULATION_BY_DEFAULT } from './params.js';
import { search } from './search/search.js';
import type { Solution } from './solution.js';
import { stallLimitsOf } from './stop/index.js';
import type { SolveProgress, SolveResult } from './types.js';

/** With the levers (levers.ts) as the solve was given them. */
export interface ImproveOptions extends SearchLevers {
  /** Wall-clock budget from the call, in milliseconds (Infinity: none). */
  timeLimitMs: number;
  seed: number;
  /** Search iterations (a reproducible budget); absent: time only. */
  maxIterations?: number | undefined;
  /** Without a start plan: how long the regret construction may run before it finishes greedily. */
  constructionMs?: number | undefined;
  /** The temperature unit and the part of the cooling this search covers (see search/accept.ts). */
  arcCost?: number | undefined;
  coolWindow?: { from: number; to: number } | undefined;
  /** Also stop once the search stalls (search/../stop/plateau.ts). */
  stopWhenStalled?: boolean | undefined;
  /** The stop count the local search's neighbour rules read (SearchLimits.lsRuleStops); the problem's own when absent. */
  lsRuleStops?: number | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: SolveProgress) => void) | undefined;
}

/** ImproveOptions without what cannot cross a thread boundary (functions, the signal). */
export type PlainImproveOptions = Omit<ImproveOptions, 'signal' | 'onProgress'>;

export interface ImproveOutcome {
  /** One stop sequence per vehicle of the problem (empty for an unused vehicle). */
  routes: Int32Array[];
  objective: ObjectiveValue;
  iterations: number;
  /** The temperature unit used, for later searches of the same plan. */
  arcCost: number;
  /** When the first plan was ready (ms since the call), when this call built it; else null. */
  firstPlanMs: number | null;
  /** When the best plan was found, in ms since the call. */
  bestFoundMs: number;
  stoppedBy: SolveResult['stats']['stoppedBy'];
}

export async function improvePlan(
  problem: Problem,
  initial: readonly Int32Array[] | null,
  options: ImproveOptions,
): Promise<ImproveOutcome> {
  const started = performance.now();
  const limit = Number.isFinite(options.timeLimitMs) && options.timeLimitMs > 0 ? options.timeLimitMs : Infinity;
  const kit = searchKitOf(problem, options.localOrder);
  const { inst, evaluator, costs, inserter, near } = kit;
  let start: Solution;
  let firstPlanMs: number | null = null;
  if (initial === null) {
    const constructionMs = Math.min(limit, options.constructionMs ?? limit / 2);
    // The budget of work a solve gives its construction (index.ts): a regret construction whose
    // bookkeeping alone exceeds it is not started (construct.ts, regretFitsItsWork).
    const work = CONSTRUCTION_WORK_PER_MS * constructionMs;
    const first = constructFirstPlan(inst, costs, inserter, evaluator, near, { deadline: started + constructionMs, work });
    start = first.plan;
    firstPlanMs = first.floorMs;
  } else {
    start = planOfRoutes(kit, initial);
  }
  const outcome = await search(start, inserter, evaluator, near, {
    started,
    deadline: started + limit,
    seed: options.seed,
    maxIterations: options.maxIterations,
    ...(options.stopWhenStalled === true ? stallLimitsOf(inst.nStops) : {}),
    arcCost: options.arcCost,
    coolWindow: options.coolWindow,
    ...leversOf(options),
    population: options.population ?? POPULATION_BY_DEFAULT,
    lsRuleStops: options.lsRuleStops,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  const best = outcome.best;
  fillUnserved(best, inserter, evaluator);
  const objective = costs.objective(best);
  return {
    routes: routesOf(best),
    objective,
    iterations: outcome.iterations,
    arcCost: outcome.arcCost ?? Math.max(1e-9, objective.cost / Math.max(1, inst.nStops + best.routesUsed())),
    firstPlanMs,
    bestFoundMs: Math.max(firstPlanMs ?? 0, outcome.bestFoundAt - started),
    stoppedBy: outcome.stoppedBy,
  };
}

/** The objective of a plan given as route sequences. */
export function objectiveOfRoutes(problem: Problem, routes: readonly Int32Array[]): ObjectiveValue {
  const kit = searchKitOf(problem);
  return kit.costs.objective(planOfRoutes(kit, routes));
}
