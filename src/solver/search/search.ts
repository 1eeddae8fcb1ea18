/**
 * Improvement phase: ruin and recreate in the style of SISR (slack induction by string
 * removals): ruin.ts cuts strings of stops near a random seed stop, recreate.ts puts them and
 * all unserved stops back, polish.ts runs the granular local search (ls/) on the result, and
 * accept.ts decides whether the search moves on to it. The first plan is polished too when
 * moves are priced by summaries. Routes are only ever changed through the exact evaluator, so
 * every state is feasible. The search ends when its stopping criterion (stop/) says so; then
 * the prize moves (ls/prize.ts) claim on the best plan what priority single moves can (claim.ts).
 */
import { firstPlanIgnoresClock } from '../construct.js';
import type { NearStops, SolverInstance } from '../instance.js';
import type { Inserter } from '../insertion.js';
import { LocalSearch, type LocalSearchOptions } from '../ls/local-search.js';
import { PrizeMoves } from '../ls/prize.js';
import { COOL_HORIZON_UNITS_PER_MS, COOL_TAIL_SHARE, REHEAT_MAX_STOPS, STALL_REHEATS, YIELD_EVERY_MS } from '../params.js';
import { Rng } from '../rng.js';
import type { RouteEvaluator } from '../route/evaluator.js';
import type { Solution } from '../solution.js';
import type { ObjectiveValue } from '../cost.js';
import { belongsToFirstPlan, stopCriterionOf, type StopCriterion } from '../stop/index.js';
import type { OperatorStats, SolveProgress, SolveResult } from '../types.js';
import { aloneReason } from '../unserved.js';
import { blinkRateOf, windowSettingsOf } from '../windowless.js';
import { Acceptance, workSpanOf } from './accept.js';
import { claimPriority, type ClaimShare } from './claim.js';
import type { SearchLevers } from '../levers.js';
import { FleetPhase } from './fleet.js';
import { FleetAtStall } from './fleet-at-stall.js';
import { Plans } from './plans.js';
import { Polisher } from './polish.js';
import { PenalisedPolish } from './penalised-polish.js';
import { ProgressReport } from './progress.js';
import { PopulationRestarts } from './restarts.js';
import { Recreator } from './recreate.js';
import { Ruiner } from './ruin.js';
import { WorkMeter } from './work.js';

/** With the levers (levers.ts) as the solve was given them; the location numbering is the kit's, already applied. */
export interface SearchLimits extends Omit<SearchLevers, 'localOrder'> {
  started: number;
  deadline: number;
  /** See ScheduleLimits.workSpanMs (accept.ts). */
  workSpanMs?: number | undefined;
  seed: number;
  maxIterations?: number | undefined;
  maxNoImprove?: number | undefined;
  plateauIterations?: number | undefined;
  plateauWork?: number | undefined;
  coolWork?: number | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: SolveProgress) => void) | undefined;
  operatorStats?: boolean | undefined;
  /** The temperature unit (an arc's cost) to use instead of the one measured on `initial` (decomposition epochs share one). */
  arcCost?: number | undefined;
  /** The part of the whole cooling schedule this search covers (see accept.ts). */
  coolWindow?: { from: number; to: number } | undefined;
  /** The stop count the local search's neighbour rules read (LocalSearchOptions.ruleStops): a decomposition part's whole problem's. */
  lsRuleStops?: number | undefined;
  /**
   * When the final prize pass on the best plan must end (after `deadline`); `deadline` when absent.
   * With `claimShare` only above FLOOR_FIRST_MIN_STOPS stops (search/claim.ts).
   */
  finishBy?: number | undefined;
  /**
   * The work the final prize pass may do whatever the clock, on the best plan or, when the limit
   * is gone before the search, on the first plan (search/claim.ts). Absent: `finishBy` bounds it.
   */
  claimShare?: ClaimShare | undefined;
  /**
   * Iterations that neither the deadline nor the clock in the local search cut, within FIRST_PLAN_WORK:
   * on small problems they belong to the first plan (construct.ts, untimedIterationsOf). None when absent.
   */
  untimedIterations?: number | undefined;
  /** The clock `started` and the deadlines are read on (tests make it slow); performance.now() when absent. */
  clock?: (() => number) | undefined;
}

export interface SearchOutcome {
  best: Solution;
  iterations: number;
  /** The clock's value (performance.now()) when the best plan was found. */
  bestFoundAt: number;
  stoppedBy: SolveResult['stats']['stoppedBy'];
  /** The local search's counters, when it ran. */
  operators?: OperatorStats[] | undefined;
  /** The temperature unit the search used (absent when it did not search). */
  arcCost?: number | undefined;
  /** Children of the elite pool the trajectory restarted from (with SearchLimits.population). */
  restarts?: number | undefined;
  /** The work the search did (work.ts), its final prize pass left out; absent when it did not search. */
  work?: number | undefined;
  /** Routes the fleet minimisation at the stall took out (with SearchLimits.fleetAtStall). */
  fleetAtStallRoutes?: number | undefined;
}

export async function search(
  initial: Solution,
  inserter: Inserter,
  evaluator: RouteEvaluator,
  near: NearStops,
  limits: SearchLimits,
): Promise<SearchOutcome> {
  const { inst, costs } = initial;
  const rng = new Rng(limits.seed);
  const clock = limits.clock ?? (() => performance.now());
  const startedSearch = clock();
  if (startedSearch >= firstPolishBy(inst, limits) && limits.maxIterations !== 0)
    return claimWithoutSearch(initial, inserter, evaluator, near, { ...limits, started: startedSearch });
  const eligible = insertableStops(inst, evaluator);
  const progress = new ProgressReport(inst, costs, limits.started, limits.onProgress);
  const idle = nothingToSearch(initial, eligible, limits, startedSearch, progress);
  if (idle) return idle;

  const localSearch = LocalSearch.create(inst, evaluator, rng, localSearchOptionsOf(limits));
  const { penalised, meter } = penalisedAndMeterOf(localSearch, inserter, evaluator, rng, limits);
  // Exact pricing costs O(route) a move: on a large problem one full pass could take the whole
  // limit, so then only candidates that beat the best plan are polished, each within a budget.
  if (localSearch?.fast) localSearch.run(initial, firstPolishBy(inst, limits));
  const plans = new Plans(initial, costs);
  const prize = new PrizeMoves(inst, evaluator, inserter, near.neighbours, near.k, eligible);
  const polisher = new Polisher(localSearch, limits, costs, meter, limits.prizeInSearch === true ? prize : null, penalised);
  const ruiner = new Ruiner(inst, near.neighbours, near.k, rng, windowSettingsOf(inst, limits.widerRuin).avgRemoved);
  const recreator = new Recreator(inst, inserter, evaluator, near.neighbours, near.k, eligible, rng, blinkRateOf(inst, limits.moreBlinks));
  const arcCost = limits.arcCost ?? Math.max(1e-9, plans.currentObj.cost / Math.max(1, eligible.length + plans.current.routesUsed()));
  const { acceptance, cooling, stop } = scheduleOf(limits, new Acceptance(arcCost, limits, costs, rng), inst, startedSearch);
  const population = PopulationRestarts.when(limits.population, { inst, evaluator, near, costs, recreator, polisher, rng }, plans.current);
  const fleet = FleetPhase.when(limits, { inst, inserter, evaluator, near, eligible, ruiner, rng, meter, localSearch }, clock);
  const stallFleet = FleetAtStall.when(limits, { inst, inserter, evaluator, near, eligible, ruiner, rng, meter, polisher }, clock);

  let iterations = 0;
  let bestFoundAt = clock();
  let lastYield = bestFoundAt;
  for (;;) {
    const now = clock();
    const work = meter.done();
    let stoppedBy = stop.check(iterations, plans.sinceImprovement, now, work);
    if (stoppedBy === null && now - lastYield >= YIELD_EVERY_MS) {
      progress.report(plans.best, iterations);
      await new Promise<void>((resolve) => setImmediate(resolve));
      lastYield = clock();
      // Asked again with the same readings: only an abort can have come in meanwhile.
      stoppedBy = stop.check(iterations, plans.sinceImprovement, now, work);
    }
    // A reheat starts the stall's count afresh: asked again with no iteration since an
    // improvement, the stall stop (Plateau) counts its work from here. Without this it counted
    // from the last better plan, so the stretch that made the stall ended the reheat's cooling
    // some 50 iterations in (PLATEAU_MIN_ITERATIONS).
    if (stoppedBy === 'no_improvement' && cooling.goesOnAfterStall(iterations, work, now, plans, stallFleet))
      stoppedBy = stop.check(iterations, plans.sinceImprovement, now, work);
    if (stoppedBy !== null) {
      claimPriority(plans.best, prize, localSearch, meter, limits.claimShare, limits.finishBy ?? limits.deadline, cutByClock(stoppedBy));
      progress.report(plans.best, iterations);
      return { best: plans.best, iterations, bestFoundAt, stoppedBy, arcCost, work, ...countsOf(localSearch, population, stallFleet) };
    }
    fleet?.runWhenDue(iterations, work, plans);
    acceptance.cool(iterations - cooling.from, work - cooling.fromWork, now, cooling.fromTime);
    iterations++;
    recreator.recreate(plans.candidate, ruiner.ruin(plans.candidate, evaluator));
    const candidateObj = polishedObjective(plans, polisher, iterations, work, limits);
    plans.settle(candidateObj, acceptance.accepts(candidateObj, plans.currentObj));
    population?.follow(plans, candidateObj);
    if (plans.sinceImprovement === 0) bestFoundAt = clock();
  }
}

/**
 * The polish with penalised capacity where it applies (penalised-polish.ts; null elsewhere), and the
 * meter of the search's work, which counts its work too.
 */
function penalisedAndMeterOf(
  localSearch: LocalSearch | null,
  inserter: Inserter,
  evaluator: RouteEvaluator,
  rng: Rng,
  limits: SearchLimits,
): { penalised: PenalisedPolish | null; meter: WorkMeter } {
  const penalised = localSearch
    ? PenalisedPolish.when(
        { capacity: limits.penalisedCapacity, windows: limits.penalisedWindows },
        localSearch.inst,
        evaluator,
        rng,
        localSearchOptionsOf(limits),
      )
    : null;
  return { penalised, meter: new WorkMeter(evaluator, inserter, localSearch, penalised) };
}

/** The search's counters for its outcome: the local search's moves, the elite pool's restarts, the routes taken out at the stall. */
function countsOf(
  localSearch: LocalSearch | null,
  population: PopulationRestarts | null,
  stallFleet: FleetAtStall | null,
): Pick<SearchOutcome, 'operators' | 'restarts' | 'fleetAtStallRoutes'> {
  return { operators: localSearch?.counters?.snapshot(), restarts: population?.restarts, fleetAtStallRoutes: stallFleet?.routesRemoved };
}

/** The annealing's schedule from `startedSearch` on: the acceptance, its cooling and the stopping criterion that reads them. */
function scheduleOf(
  limits: SearchLimits,
  acceptance: Acceptance,
  inst: SolverInstance,
  startedSearch: number,
): { acceptance: Acceptance; cooling: Cooling; stop: StopCriterion } {
  const cooling = new Cooling(startedSearch, inst.nStops <= REHEAT_MAX_STOPS ? STALL_REHEATS : 0);
  return { acceptance, cooling, stop: ownStopOf(limits, acceptance, cooling) };
}

/**
 * The search's stopping criterion: its limits, a stall, or its cooling done (Cooling.tailDone); it
 * stops by itself only while the clock has not set its temperature: one whose temperature the clock
 * has set runs to its deadline, as its plan depends on the clock.
 */
function ownStopOf(limits: SearchLimits, acceptance: Acceptance, cooling: Cooling): StopCriterion {
  const mayStall = (): boolean => !acceptance.clockLed;
  const horizon = COOL_HORIZON_UNITS_PER_MS * workSpanOf(limits);
  return stopCriterionOf({ ...limits, mayStall, cooledDown: (work) => cooling.tailDone(work, limits.coolWork, horizon) });
}

/** The outcome when there is nothing to search (no stop to offer, no vehicle, no iteration allowed); else null. */
function nothingToSearch(
  initial: Solution,
  eligible: number[],
  limits: SearchLimits,
  startedSearch: number,
  progress: ProgressReport,
): SearchOutcome | null {
  if (eligible.length > 0 && initial.inst.nVehicles > 0 && limits.maxIterations !== 0) return null;
  progress.report(initial, 0);
  return { best: initial, iterations: 0, bestFoundAt: startedSearch, stoppedBy: limits.maxIterations === 0 ? 'iterations' : 'complete' };
}

/**
 * Until when the first polish may run: the deadline, or none where it belongs to the first plan,
 * which is made whole whatever the clock on small problems (construct.ts).
 */
function firstPolishBy(inst: SolverInstance, limits: SearchLimits): number {
  return firstPlanIgnoresClock(inst) ? Infinity : limits.deadline;
}

/**
 * The candidate's objective after the polish of iteration `iteration`, begun after `work` spent.
 * A candidate the ruin and recreate gave back equal to the current plan is polished too: the local
 * search's random order may find from it what it did not before (a 4-stop priority case did).
 */
function polishedObjective(plans: Plans, polisher: Polisher, iteration: number, work: number, limits: SearchLimits): ObjectiveValue {
  const candidate = plans.candidate;
  // The first plan's polish has no deadline; past it the local search tries fewer neighbours (firstPlanNeighboursOf).
  const firstPlan = belongsToFirstPlan(iteration - 1, work, limits.untimedIterations ?? 0);
  if (!firstPlan) polisher.leaveFirstPlan();
  return polisher.polish(candidate, plans.bestObj, firstPlan ? Infinity : limits.deadline);
}

function localSearchOptionsOf(limits: SearchLimits): LocalSearchOptions {
  return {
    countOperators: limits.operatorStats,
    swapStar: limits.swapStar,
    large: limits.largeLocalSearch === true,
    fewOnLarge: limits.fewLsNeighbours,
    sectors: limits.swapStarSectors,
    stringSwaps: limits.stringSwaps,
    ruleStops: limits.lsRuleStops,
    changedRoutesOnly: limits.changedRoutesOnly,
    swapStarNearOnly: limits.swapStarNearOnly,
    changedStopsOnly: limits.changedStopsOnly,
  };
}

/** Where the annealing's cooling starts: iteration 0, then again at each reheat of a stalled search. */
class Cooling {
  from = 0;
  /** The work done (work.ts) where it starts. */
  fromWork = 0;
  private reheats = 0;
  /** Whether only the stall may end the search now (goesOnAfterStall). */
  private heldCold = false;

  /** `fromTime`: the clock where it starts; `maxReheats`: STALL_REHEATS, none above REHEAT_MAX_STOPS. */
  constructor(
    public fromTime: number,
    private readonly maxReheats: number,
  ) {}

  /**
   * Whether this cooling's work (`coolWork`) is done and the end temperature held for COOL_TAIL_SHARE
   * of it, or up to `horizon` units of work since its start where that is more.
   */
  tailDone(work: number, coolWork: number | undefined, horizon: number): boolean {
    return !this.heldCold && coolWork !== undefined && work - this.fromWork >= Math.max((1 + COOL_TAIL_SHARE) * coolWork, horizon);
  }

  /**
   * Whether the search goes on at a stall: by a reheat, else (past its reheats) from a plan with
   * fewer routes (`stallFleet`, fleet-at-stall.ts). After the latter the temperature stays where it
   * is and only the stall ends the search: a cooling done would end it at once.
   */
  goesOnAfterStall(iterations: number, work: number, now: number, plans: Plans, stallFleet: FleetAtStall | null): boolean {
    if (this.reheat(iterations, work, now, plans)) return true;
    if (stallFleet === null || !stallFleet.restartWithFewerRoutes(plans)) return false;
    this.heldCold = true;
    return true;
  }

  /**
   * Whether a stall becomes a reheat (at most `maxReheats` times): a stalled search may sit in a
   * valley that a second cooling from the start temperature leaves.
   */
  reheat(iterations: number, work: number, now: number, plans: Plans): boolean {
    if (this.reheats >= this.maxReheats) return false;
    this.reheats++;
    this.from = iterations;
    this.fromWork = work;
    this.fromTime = now;
    plans.sinceImprovement = 0;
    return true;
  }
}

/**
 * The limit was gone before the search began (`limits.started`: when it would have): the first
 * plan is the answer, and still gets the prize moves' share (claimShare).
 */
function claimWithoutSearch(
  initial: Solution,
  inserter: Inserter,
  evaluator: RouteEvaluator,
  near: NearStops,
  limits: SearchLimits,
): SearchOutcome {
  const outcome: SearchOutcome = { best: initial, iterations: 0, bestFoundAt: limits.started, stoppedBy: 'time' };
  // Every stop served: nothing to claim, and nothing built (5,000 stops at a spent limit print at once).
  if (limits.claimShare === undefined || initial.unservedStops().length === 0) return outcome;
  const inst = initial.inst;
  const prize = new PrizeMoves(inst, evaluator, inserter, near.neighbours, near.k, insertableStops(inst, evaluator));
  const localSearch = LocalSearch.create(inst, evaluator, new Rng(limits.seed), localSearchOptionsOf(limits));
  const finishBy = limits.finishBy ?? limits.deadline;
  claimPriority(initial, prize, localSearch, new WorkMeter(evaluator, inserter, localSearch), limits.claimShare, finishBy, true);
  return outcome;
}

/** Whether the clock (the deadline, or an abort) ended the search rather than the search itself or its iteration limit. */
function cutByClock(stoppedBy: SearchOutcome['stoppedBy']): boolean {
  return stoppedBy === 'time' || stoppedBy === 'aborted';
}

/** Stops some vehicle could serve alone: the only ones worth offering to the routes. */
export function insertableStops(inst: SolverInstance, evaluator: RouteEvaluator): number[] {
  const out: number[] = [];
  for (let s = 0; s < inst.nStops; s++) if (aloneReason(inst, evaluator, s) === null) out.push(s);
  return out;
}
