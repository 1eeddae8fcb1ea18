/**
 * The first plan. A cheap greedy plan is the floor of every answer: whatever the time limit, the
 * solver never returns less than it (the anytime guarantee). Within the construction's share of
 * the limit, regret-2 insertion over granular neighbourhoods (regret.ts) builds the plan that is
 * kept when it is complete and beats the floor.
 *
 * Below FLOOR_FIRST_MIN_STOPS stops the regret construction runs first and the floor after it:
 * in a fresh process whichever runs first pays for compiling the insertion code, which on 100
 * stops took most of a 0.1 s limit, so the floor going first left the regret no time (issue 26);
 * run second, the floor costs a few milliseconds. On larger problems the floor goes first, to be
 * shown at once while the regret construction takes its seconds.
 *
 * What cuts the regret construction short must not depend on the machine's load when the search
 * may stop by itself (decisions.md, `--seed`): a solve gives it a budget of work (the stops walked
 * and positions priced, as search/work.ts counts them) and the run's own deadline, which when it
 * cuts the construction also stops the run ('time'). A cut at a clock deadline of its own would
 * start a busy run's search from another plan, and a self-stopped search at another plan.
 *
 * Below FLOOR_FIRST_MIN_STOPS the regret plan is the first plan, made whole whatever the clock
 * says (firstPlanIgnoresClock): `--time-limit` bounds the whole command, loading included, so in a
 * fresh process a 0.1 s limit has passed before the solve begins, and a cut there returned the
 * greedy floor, 25% above the regret plan on Solomon's 100 stops (issue 26). Only its budget of work
 * cuts it. Above, the deadline cuts it as before (the floor is then the answer), and it is not started
 * when its bookkeeping alone would exceed its budget of work (regretFitsItsWork).
 */
import type { CostEvaluator } from './cost.js';
import { vehicleClassCount, type NearStops, type SolverInstance } from './instance.js';
import type { Inserter } from './insertion.js';
import {
  FIRST_PLAN_ITERATIONS,
  FLOOR_FIRST_MIN_STOPS,
  GRANULAR_FLEET,
  GRANULAR_NEIGHBOURS,
  KEY_EPS,
  REGRET_NEIGHBOURS,
  REGRET_WORK_PER_ENTRY_LOOK,
} from './params.js';
import { regretInsertion } from './regret.js';
import type { RouteEvaluator } from './route/evaluator.js';
import { Solution } from './solution.js';

export interface ConstructionLimits {
  /** Clock value after which the regret construction stops (the rest is inserted greedily). */
  deadline: number;
  /** The clock `deadline` is read on; performance.now() when absent. */
  clock?: (() => number) | undefined;
  /**
   * Work (stops walked by the evaluator, positions priced by the inserter) after which the regret
   * construction stops too, counted from the call: unlike the clock, the same on a busy machine.
   */
  work?: number | undefined;
}

export interface FirstPlan {
  plan: Solution;
  /** The first complete plan was ready this many milliseconds after the construction began. */
  floorMs: number;
  /** Which construction the plan came from. */
  from: 'greedy' | 'regret';
}

/**
 * The greedy floor and the regret construction (until `limits.deadline` or `limits.work`, then
 * finished greedily), in the order above; answers the better of the two by the objective. `onFloor`
 * sees the floor as soon as it exists.
 */
export function constructFirstPlan(
  inst: SolverInstance,
  costs: CostEvaluator,
  inserter: Inserter,
  evaluator: RouteEvaluator,
  near: NearStops,
  limits: ConstructionLimits,
  onFloor?: (floor: Solution) => void,
): FirstPlan {
  const clock = limits.clock ?? (() => performance.now());
  const started = clock();
  const workDone = (): number => evaluator.walked + inserter.positions;
  const workUntil = workDone() + (limits.work ?? Infinity);
  const ignoresClock = firstPlanIgnoresClock(inst);
  const pastDeadline = (): boolean => !ignoresClock && clock() > limits.deadline;
  const cut = (): boolean => workDone() > workUntil || pastDeadline();
  const floorFirst = !ignoresClock;
  let floor: Solution | null = null;
  let floorMs = 0;
  const buildFloor = (): Solution => {
    floor = greedyFloor(inst, costs, inserter, evaluator, near);
    floorMs = clock() - started;
    onFloor?.(floor);
    return floor;
  };
  if (floorFirst) {
    const first = buildFloor();
    if (cut() || !regretFitsItsWork(inst, limits.work)) return { plan: first, floorMs, from: 'greedy' };
  }
  const regret = new Solution(inst, costs);
  const finished = regretInsertion(regret, inserter, evaluator, cut, near);
  // Cut by the run's deadline after the floor: finishing the regret plan greedily takes as long as
  // the floor did, all of it past the deadline (the 5,000-stop project's command ran 1.2 s over its
  // limit), and the search stops at once anyway ('time').
  if (!finished && floor !== null && pastDeadline()) return { plan: floor, floorMs, from: 'greedy' };
  // Cut short, the regret plan is finished greedily: by then the insertion code is
  // compiled, and the stops the regret placed are not lost.
  if (!finished) insertGreedily(regret, inserter, evaluator, routableStops(regret), near);
  fillUnserved(regret, inserter, evaluator);
  const base = floor ?? buildFloor();
  const better = costs.compare(costs.objective(regret), costs.objective(base)) < 0;
  return better ? { plan: regret, floorMs, from: 'regret' } : { plan: base, floorMs, from: 'greedy' };
}

/**
 * Whether the first plan (the regret construction, and the local search's first polish of it,
 * search/search.ts) is made whole whatever the clock says: on problems small enough that it
 * takes milliseconds, so that a short limit still answers a good plan (see above).
 */
export function firstPlanIgnoresClock(inst: SolverInstance): boolean {
  return inst.nStops < FLOOR_FIRST_MIN_STOPS;
}

/**
 * Whether the regret construction's bookkeeping alone (every pending stop's entries looked at after
 * each insertion: stops² / 2 × entries a stop, which no counter of work sees) fits within `work`,
 * its budget (REGRET_WORK_PER_ENTRY_LOOK). Decided from the problem and the budget alone, so a seed
 * still gives one plan. Where it does not fit, the construction would run into the run's deadline
 * and leave the search no time: on the generated 5,000-stop one-off (355 vehicle classes) it needs
 * some 44 s, for a plan 5% above the floor.
 */
export function regretFitsItsWork(inst: SolverInstance, work: number | undefined): boolean {
  const entries = Math.min(REGRET_NEIGHBOURS, Math.max(0, inst.nStops - 1)) + vehicleClassCount(inst);
  return (REGRET_WORK_PER_ENTRY_LOOK * entries * inst.nStops * inst.nStops) / 2 <= (work ?? Infinity);
}

/**
 * How many ruin-and-recreate iterations of the search belong to the first plan, run whatever the
 * clock says: on small problems, where they take milliseconds, a cold process's 0.1 s limit has
 * passed before the solve begins, and the polished regret plan alone was 7.1% above the best-known
 * plans on Solomon's 56 (issue 26). Counted in iterations, so the plan is the same on a busy machine.
 */
export function untimedIterationsOf(inst: SolverInstance): number {
  return firstPlanIgnoresClock(inst) ? FIRST_PLAN_ITERATIONS : 0;
}

/** Every stop inserted greedily, highest priority first, then whatever still fits. */
function greedyFloor(inst: SolverInstance, costs: CostEvaluator, inserter: Inserter, evaluator: RouteEvaluator, near: NearStops): Solution {
  const floor = new Solution(inst, costs);
  insertGreedily(floor, inserter, evaluator, routableStops(floor), near);
  fillUnserved(floor, inserter, evaluator);
  return floor;
}

/** Stops not yet in a route that have a location. */
function routableStops(sol: Solution): number[] {
  const pending: number[] = [];
  for (let s = 0; s < sol.inst.nStops; s++) if (sol.routeOf[s] === -1 && sol.inst.stopLoc[s]! >= 0) pending.push(s);
  return pending;
}

/**
 * Cheapest insertion one stop at a time, highest priority first. With `near`, once more than
 * GRANULAR_FLEET routes are open a stop first tries only the routes of its nearest stops (and
 * one empty vehicle per class), as the search's recreate does; only when none of them can take
 * it are all routes tried, so a stop is left out only when it fits nowhere.
 */
export function insertGreedily(sol: Solution, inserter: Inserter, evaluator: RouteEvaluator, stops: number[], near?: NearStops): void {
  const inst = sol.inst;
  const order = stops.slice().sort((a, b) => inst.stopPriority[b]! - inst.stopPriority[a]! || a - b);
  const granular = near && new NearRoutes(inst, near);
  for (const s of order) {
    if (sol.routeOf[s] !== -1) continue;
    const found =
      (granular !== undefined && granular.bestInsertion(sol, inserter, s)) ||
      (near !== undefined ? bestByNearEstimates(sol, inserter, s, near) : inserter.bestOverall(sol, s));
    if (found && !sol.insert(inserter.vehicle, inserter.pos, s, evaluator)) throw new Error('greedy insertion into an infeasible position');
  }
}

/**
 * The best insertion of s over every candidate route, each estimated at its bounded positions
 * (near-positions.ts), the best route then priced exactly over all its positions: the greedy
 * floor's insertion, cheap enough to run cold. Every route is priced exactly when that fails.
 */
function bestByNearEstimates(sol: Solution, inserter: Inserter, s: number, near: NearStops): boolean {
  if (!inserter.estimates) return inserter.bestOverall(sol, s);
  const count = inserter.collectCandidates(sol);
  const candidates = inserter.candidates;
  const use = Math.min(REGRET_NEIGHBOURS, near.k);
  let bestV = -1;
  let bestViol = Infinity;
  let bestKey = Infinity;
  for (let i = 0; i < count; i++) {
    const v = candidates[i]!;
    if (!inserter.estimateNear(sol, s, v, near.neighbours, near.k, use)) continue;
    if (inserter.viol < bestViol - KEY_EPS || (inserter.viol <= bestViol + KEY_EPS && inserter.key < bestKey - KEY_EPS)) {
      bestV = v;
      bestViol = inserter.viol;
      bestKey = inserter.key;
    }
  }
  if (bestV >= 0 && inserter.bestInRoute(sol, s, bestV)) {
    inserter.vehicle = bestV;
    return true;
  }
  return inserter.bestOverall(sol, s);
}

/** The routes near a stop, for insertions that need not try every route of a large fleet. */
class NearRoutes {
  private readonly list: Int32Array;
  private readonly mark: Uint8Array;
  private readonly use: number;

  constructor(
    inst: SolverInstance,
    private readonly near: NearStops,
  ) {
    this.list = new Int32Array(inst.nVehicles);
    this.mark = new Uint8Array(inst.nVehicles);
    this.use = Math.min(GRANULAR_NEIGHBOURS, near.k);
  }

  /**
   * Best insertion among the near routes, in the inserter's result; false when the fleet is
   * small, when no near stop is routed yet (an open route elsewhere may still be cheaper than a
   * new one), or when none fits.
   */
  bestInsertion(sol: Solution, inserter: Inserter, s: number): boolean {
    if (sol.routesUsed() <= GRANULAR_FLEET) return false;
    const count = inserter.collectNear(sol, s, this.near.neighbours, this.near.k, [], this.list, this.mark, this.use);
    let open = 0;
    for (let i = 0; i < count; i++) if (sol.len[this.list[i]!]! > 0) open++;
    return open > 0 && inserter.bestAmong(sol, s, this.list, count);
  }
}

/**
 * Inserts unserved stops until none fits anywhere: the returned plan must leave no stop out
 * that could be served as is.
 */
export function fillUnserved(sol: Solution, inserter: Inserter, evaluator: RouteEvaluator): void {
  for (;;) {
    const before = sol.servedPriority;
    insertGreedily(sol, inserter, evaluator, sol.unservedStops());
    if (sol.servedPriority === before) return;
  }
}
