/**
 * A second trajectory with one route fewer (SolveOptions.ejectionPool): on small windowed problems
 * the search stops by itself long before a generous limit, sometimes with one route more than the
 * distance-best plan (Solomon RC101 at 30 s: 16 routes against the best-known's 15). Then the
 * ejection pool (search/ejection-pool.ts) takes a route out of the best plan, and a whole new search
 * runs from that plan on the same problem with only its vehicles open (the others serve nothing), so
 * the annealing, hot at its start, cannot open the route again and optimises distance at the
 * smaller fleet. Its plan is kept only when it ends better by the true objective: minimum routes are
 * not always distance-best (Solomon R101: 19 routes at the least, 20 in the distance-best plan), and
 * users' projects are distance or time first (decisions.md). When it wins, the next round tries one
 * route fewer again, at most EJECTION_POOL_ROUNDS times. A trajectory cut by the deadline is left
 * out, so that a solve that stops by itself gives one plan for a seed on any machine.
 *
 * The fleet minimisation at the stall (search/fleet-at-stall.ts) went on from the smaller fleet in
 * the same search, cold, and never beat the plan it stalled on; a reheat opened the route again.
 * Budgets are work and the search's own stops, never time (decisions.md, `--seed`).
 */
import type { Problem } from '../model/problem.js';
import { compareObjective } from './cost.js';
import { planOfRoutes, routesOf, searchKitOf, type SearchKit } from './kit.js';
import { windowsBind } from './ls/windows-bind.js';
import {
  EJECTION_POOL_BY_DEFAULT,
  EJECTION_POOL_MAX_STOPS,
  EJECTION_POOL_ROUNDS,
  EJECTION_POOL_WORK_SHARE,
  EJECTION_WORK_PER_STOP,
  WORK_UNITS_PER_MS,
} from './params.js';
import { workSpanOf } from './search/accept.js';
import { Rng } from './rng.js';
import { EjectionPool } from './search/ejection-pool.js';
import { insertableStops, search, type SearchLimits, type SearchOutcome } from './search/search.js';
import { WorkMeter } from './search/work.js';
import type { Solution } from './solution.js';

/** What the rounds did: the plan kept (the search's own when no round won) and their counts. */
export interface FewerRoutesOutcome {
  best: Solution;
  /** Search iterations of the trajectories with fewer routes, all rounds together. */
  iterations: number;
  /** Rounds whose plan with one route fewer won. */
  won: number;
  /** The clock's value when the plan kept was found, when a round won; else null. */
  foundAt: number | null;
}

/**
 * Whether the rounds run after a search that ended as `stoppedBy` on `kit`'s problem: with `on`
 * (SolveOptions.ejectionPool, EJECTION_POOL_BY_DEFAULT when absent), where windows bind, up to
 * EJECTION_POOL_MAX_STOPS stops, without preferred drivers or locks (a closed vehicle would
 * strand them), and only when the search stopped by itself: a search cut by the clock has no time left.
 */
export function fewerRoutesApplies(kit: SearchKit, on: boolean | undefined, stoppedBy: SearchOutcome['stoppedBy']): boolean {
  const inst = kit.inst;
  if (!(on ?? EJECTION_POOL_BY_DEFAULT) || stoppedBy === 'time' || stoppedBy === 'aborted') return false;
  if (inst.nStops > EJECTION_POOL_MAX_STOPS || inst.preferences || inst.sequenced) return false;
  return !inst.problem.stops.some((stop) => stop.lock !== undefined) && windowsBind(inst);
}

/**
 * The main search's `outcome`, or the plan of a trajectory with fewer routes where the rounds apply
 * (fewerRoutesApplies) and one ends better; the iterations of all of them.
 */
export async function withFewerRoutesWherePays(
  problem: Problem,
  kit: SearchKit,
  outcome: SearchOutcome,
  limits: SearchLimits,
  options: { ejectionPool?: boolean | undefined; localOrder?: boolean | undefined },
): Promise<{ best: Solution; bestFoundAt: number; iterations: number }> {
  if (!fewerRoutesApplies(kit, options.ejectionPool, outcome.stoppedBy)) return { ...outcome };
  const fewer = await searchWithFewerRoutes(problem, kit, outcome.best, { ...limits, mainWork: outcome.work ?? 0 }, options.localOrder);
  return { best: fewer.best, bestFoundAt: fewer.foundAt ?? outcome.bestFoundAt, iterations: outcome.iterations + fewer.iterations };
}

/**
 * Runs the rounds from `best` (left unchanged) with the main search's `limits` (its deadline, its
 * stall stop and cooling, its seed) and the work it did (`mainWork`, work.ts); answers the better
 * plan in `kit`'s terms. A round starts only when its pool's budget and a search as long as the
 * main one fit, with the work done so far, in EJECTION_POOL_WORK_SHARE of the limit's work (so a
 * solve that stops by itself near its limit does not run to it, and a seed keeps its plan).
 */
export async function searchWithFewerRoutes(
  problem: Problem,
  kit: SearchKit,
  best: Solution,
  limits: SearchLimits & { mainWork: number },
  localOrder: boolean | undefined,
): Promise<FewerRoutesOutcome> {
  const clock = limits.clock ?? (() => performance.now());
  const workOfLimit = EJECTION_POOL_WORK_SHARE * WORK_UNITS_PER_MS * workSpanOf(limits);
  const poolWork = EJECTION_WORK_PER_STOP * kit.inst.nStops;
  let spent = limits.mainWork;
  const outcome: FewerRoutesOutcome = { best, iterations: 0, won: 0, foundAt: null };
  const eligible = insertableStops(kit.inst, kit.evaluator);
  let bestObj = kit.costs.objective(best);
  for (let round = 0; round < EJECTION_POOL_ROUNDS && clock() < limits.deadline; round++) {
    if (spent + poolWork + limits.mainWork > workOfLimit) break;
    const rng = new Rng(limits.seed + 7919 * (round + 1));
    const pool = new EjectionPool(kit.inst, kit.inserter, kit.evaluator, kit.near, eligible, rng);
    const meter = new WorkMeter(kit.evaluator, kit.inserter, null);
    const smaller = pool.withOneRouteFewer(outcome.best, { work: poolWork, deadline: limits.deadline, clock }, meter);
    spent += meter.done();
    if (smaller === null) break;
    const found = await searchOnFleetOf(problem, smaller, { ...limits, seed: limits.seed + round + 1 }, localOrder);
    outcome.iterations += found.iterations;
    spent += found.work;
    // A trajectory the clock cut is left out: kept, its plan would depend on the machine's speed.
    if (found.stoppedBy === 'time' || found.stoppedBy === 'aborted') break;
    const plan = planOfRoutes(kit, found.routes);
    const obj = kit.costs.objective(plan);
    if (compareObjective(obj, bestObj, kit.inst.minimizeRoutes) >= 0) break;
    outcome.best = plan;
    bestObj = obj;
    outcome.won++;
    outcome.foundAt = found.foundAt;
  }
  return outcome;
}

/** A whole search from `start` on `problem` with only the vehicles `start` uses open; its best plan's routes. */
async function searchOnFleetOf(
  problem: Problem,
  start: Solution,
  limits: SearchLimits,
  localOrder: boolean | undefined,
): Promise<{ routes: Int32Array[]; iterations: number; foundAt: number; work: number; stoppedBy: SearchOutcome['stoppedBy'] }> {
  const capped = searchKitOf({ ...problem, compatible: compatibleWithin(problem, start) }, localOrder);
  const initial = planOfRoutes(capped, routesOf(start));
  const clock = limits.clock ?? (() => performance.now());
  const found = await search(initial, capped.inserter, capped.evaluator, capped.near, {
    ...limits,
    started: clock(),
    // The first plan's untimed iterations and progress reports belong to the main search.
    untimedIterations: 0,
    onProgress: undefined,
  });
  return {
    routes: routesOf(found.best),
    iterations: found.iterations,
    foundAt: found.bestFoundAt,
    work: found.work ?? 0,
    stoppedBy: found.stoppedBy,
  };
}

/** `problem.compatible` with the rows of the vehicles `plan` does not use emptied: they serve nothing. */
function compatibleWithin(problem: Problem, plan: Solution): Uint8Array {
  const nStops = problem.stops.length;
  const compatible = problem.compatible.slice();
  for (let v = 0; v < problem.vehicles.length; v++) if (plan.len[v] === 0) compatible.fill(0, v * nStops, (v + 1) * nStops);
  return compatible;
}
