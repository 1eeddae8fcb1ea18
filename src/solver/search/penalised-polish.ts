/**
 * Penalised constraints in the polish (HGS's penalised local search: Vidal 2022 for capacity,
 * Vidal et al. 2013 for time windows): the local search after a ruin and recreate may break one
 * kind of rule at a penalty a unit, so that routes pass through states that strictly feasible
 * moves cannot reach (a stop traded for a lighter one only after a third route took some load; a
 * stop moved early in a route before the one that makes room for it leaves).
 * - Capacity, where windows do not bind: a vehicle loaded above its capacity pays a unit of excess.
 * - Windows, where they bind: a route pays for its time warp, how far it breaks its windows and
 *   its shift's end (Vidal's time warp: arriving late counts as travelling back in time).
 * A plan still breaking the rule at its local optimum is repaired by the same search with the
 * penalty PENALISED_CAPACITY_REPAIR_FACTORS times as high; one that still breaks it is put back as
 * it came and left to the feasible local search (polish.ts). The penalty adapts so that some
 * PENALISED_CAPACITY_TARGET_FEASIBLE (PENALISED_WINDOWS_TARGET_FEASIBLE) of the polished plans come
 * out feasible before any repair.
 *
 * The search runs with a route evaluator whose instance has the rule lifted (capacities, or window
 * and shift ends), so that moves apply through it, while the segment summaries price what breaks
 * the problem's own rule (RouteSegments.penaliseOverload, penaliseWarp). Only a plan within every
 * rule goes back to the search, its routes evaluated by the problem's own evaluator: the plans it
 * keeps are always feasible.
 */
import { ROUTE_HORIZON, type SolverInstance } from '../instance.js';
import { LocalSearch, type LocalSearchOptions, type SwapStarWhen } from '../ls/local-search.js';
import { windowsBind } from '../ls/windows-bind.js';
import { segmentsApply } from '../ls/segments.js';
import {
  PENALISED_CAPACITY_ADAPT_EVERY,
  PENALISED_CAPACITY_BY_DEFAULT,
  PENALISED_CAPACITY_MAX_STOPS,
  PENALISED_CAPACITY_MIN_STOPS,
  PENALISED_CAPACITY_REPAIR_FACTORS,
  PENALISED_CAPACITY_INITIAL_SHARE,
  PENALISED_CAPACITY_TARGET_FEASIBLE,
  PENALISED_WINDOWS_BY_DEFAULT,
  PENALISED_WINDOWS_INITIAL_SHARE,
  PENALISED_WINDOWS_TARGET_FEASIBLE,
  PENALTY_DOWN,
  PENALTY_MAX,
  PENALTY_MIN,
  PENALTY_UP,
  TW_EPS,
} from '../params.js';
import { loadExceeds } from '../route/capacity.js';
import { RouteEvaluator } from '../route/evaluator.js';
import type { Rng } from '../rng.js';
import type { Solution } from '../solution.js';
import { localSearchWork } from './work.js';

/**
 * Whether the polish of `inst` penalises capacity: with `on` (SolveOptions.penalisedCapacity,
 * PENALISED_CAPACITY_BY_DEFAULT when absent), where windows do not bind, the summaries price the
 * moves, the cost is the distance and capacities bind, from PENALISED_CAPACITY_MIN_STOPS stops on and
 * below PENALISED_CAPACITY_MAX_STOPS.
 */
export function penalisesCapacity(inst: SolverInstance, on?: boolean): boolean {
  return (
    (on ?? PENALISED_CAPACITY_BY_DEFAULT) &&
    inst.nStops >= PENALISED_CAPACITY_MIN_STOPS &&
    inst.nStops < PENALISED_CAPACITY_MAX_STOPS &&
    inst.capacityActive &&
    !inst.allowOverload &&
    inst.costIsDistance &&
    segmentsApply(inst) &&
    !windowsBind(inst)
  );
}

/**
 * Whether the polish of `inst` penalises windows: with `on` (SolveOptions.penalisedWindows,
 * PENALISED_WINDOWS_BY_DEFAULT when absent), where windows bind, the summaries price the moves and
 * the cost is the distance.
 */
export function penalisesWindows(inst: SolverInstance, on?: boolean): boolean {
  return (on ?? PENALISED_WINDOWS_BY_DEFAULT) && inst.costIsDistance && segmentsApply(inst) && windowsBind(inst);
}

/**
 * The first price of a unit of time warp: PENALISED_WINDOWS_INITIAL_SHARE of what a unit of travel
 * time costs in distance over the whole matrix (Solomon's: 1), at least PENALTY_MIN.
 */
export function initialWarpPenaltyOf(inst: SolverInstance): number {
  const dur = inst.vDur[0]!;
  let distance = 0;
  let time = 0;
  for (let i = 0; i < inst.dist.length; i++) {
    distance += inst.dist[i]!;
    time += dur[i]!;
  }
  if (time <= 0) return PENALTY_MIN;
  return Math.max(PENALTY_MIN, PENALISED_WINDOWS_INITIAL_SHARE * (distance / time));
}

/** `inst` with every window and shift open until ROUTE_HORIZON: its evaluator accepts any time warp. */
export function withWindowsLifted(inst: SolverInstance): SolverInstance {
  return {
    ...inst,
    winEnd: new Float64Array(inst.winEnd.length).fill(ROUTE_HORIZON),
    vShiftEnd: new Float64Array(inst.vShiftEnd.length).fill(ROUTE_HORIZON),
  };
}

/** What a penalised polish lets routes break at a price. */
export type PenalisedRule = 'capacity' | 'windows';

/**
 * The first penalty: PENALISED_CAPACITY_INITIAL_SHARE of HGS-CVRP's, the longest arc over the
 * largest demand (at least PENALTY_MIN, at most 1,000).
 */
export function initialPenaltyOf(inst: SolverInstance): number {
  let longest = 0;
  for (let i = 0; i < inst.dist.length; i++) if (inst.dist[i]! > longest) longest = inst.dist[i]!;
  let heaviest = 0;
  for (let i = 0; i < inst.stopLoad.length; i++) if (inst.stopLoad[i]! > heaviest) heaviest = inst.stopLoad[i]!;
  if (heaviest <= 0) return PENALTY_MIN;
  return Math.max(PENALTY_MIN, PENALISED_CAPACITY_INITIAL_SHARE * Math.min(1000, longest / heaviest));
}

/**
 * The repair's local search examines only the stops of changed routes (its overloaded ones, then
 * those its moves change) and tries no SWAP*: the plan is at its local optimum of the penalty before,
 * so the moves that pay more at the higher penalty start from the overloaded routes. On X-n237 at
 * 10 s (a CPU profile of one fresh process each), the repair as the polish itself (all changed
 * routes' neighbours, SWAP*) took 41 % of the run, 9,446 pairs a repair against 5,322 for the
 * polish before it; this, 26 %. Callgrind at 300 iterations (seed 0) counts less of a gain: 20.52 G
 * instructions against 20.76 G, and at 500 iterations X-n190, n237, n331 (seeds 0 / 1) came out at
 * 0.85 % mean gap against 0.82 %: about even. The overloaded routes' stops alone (no moves of the
 * routes they change) cost quality: 1.43 %.
 */
const noSwapStar = (): boolean => false;

export class PenalisedPolish {
  /** Polished plans so far that came out within the rule before a repair. */
  feasibleRuns = 0;
  runs = 0;
  /** Repairs tried and those that left a plan breaking the rule (put back as it came). */
  repairs = 0;
  repairsFailed = 0;
  private penalty: number;
  /** The share of polished plans within the rule before a repair that the penalty adapts towards. */
  private readonly target: number;
  private sinceAdapt = 0;
  private feasibleSinceAdapt = 0;
  /** The candidate's routes as they came (stops, length, stamp), to put back when the repair fails. */
  private readonly backupSeq: Int32Array[] = [];
  private readonly backupLen: Int32Array;
  private readonly backupStamp: Float64Array;
  private readonly changed: number[] = [];
  /** Whether its local search examines only the stops of changed routes outside a repair. */
  private readonly changedOnly: boolean;

  /** The polish with penalised windows where they apply (penalisesWindows), else with penalised capacity where it does; null: neither. */
  static when(
    on: { capacity?: boolean | undefined; windows?: boolean | undefined },
    inst: SolverInstance,
    evaluator: RouteEvaluator,
    rng: Rng,
    options: LocalSearchOptions,
  ): PenalisedPolish | null {
    if (penalisesWindows(inst, on.windows)) {
      // The summaries read the problem's windows; the evaluator that applies the moves, none.
      const liftedEvaluator = new RouteEvaluator(withWindowsLifted(inst));
      const localSearch = LocalSearch.create(inst, liftedEvaluator, rng, { ...options, countOperators: false });
      return localSearch ? new PenalisedPolish('windows', inst, evaluator, liftedEvaluator, localSearch) : null;
    }
    if (!penalisesCapacity(inst, on.capacity)) return null;
    const lifted: SolverInstance = { ...inst, vCap: new Float64Array(inst.vCap.length).fill(Infinity) };
    const liftedEvaluator = new RouteEvaluator(lifted);
    const localSearch = LocalSearch.create(lifted, liftedEvaluator, rng, { ...options, countOperators: false });
    return localSearch ? new PenalisedPolish('capacity', inst, evaluator, liftedEvaluator, localSearch) : null;
  }

  private constructor(
    readonly rule: PenalisedRule,
    private readonly inst: SolverInstance,
    /** The problem's own evaluator: routes put back, and a feasible plan's changed routes, go through it. */
    private readonly evaluator: RouteEvaluator,
    private readonly liftedEvaluator: RouteEvaluator,
    private readonly localSearch: LocalSearch,
  ) {
    this.backupLen = new Int32Array(inst.nVehicles);
    this.backupStamp = new Float64Array(inst.nVehicles);
    for (let v = 0; v < inst.nVehicles; v++) this.backupSeq.push(new Int32Array(0));
    this.changedOnly = localSearch.changedOnly;
    this.penalty = rule === 'windows' ? initialWarpPenaltyOf(inst) : initialPenaltyOf(inst);
    this.target = rule === 'windows' ? PENALISED_WINDOWS_TARGET_FEASIBLE : PENALISED_CAPACITY_TARGET_FEASIBLE;
    this.setPenalty(this.penalty);
  }

  /** Work done so far (search/work.ts's units): its local search's and its evaluator's. */
  work(): number {
    return localSearchWork(this.localSearch) + this.liftedEvaluator.walked;
  }

  /** The first plan is made: the local search narrows to the search's neighbours (LocalSearch.narrow). */
  narrow(): void {
    this.localSearch.narrow();
  }

  /**
   * Polishes `candidate` with the rule penalised until `deadline` at the latest; answers whether it
   * came out within the rule. When not, `candidate` is as it came, for the feasible polish.
   */
  run(candidate: Solution, deadline: number, swapStarWhen: SwapStarWhen | null): boolean {
    this.keep(candidate);
    this.localSearch.run(candidate, deadline, null, swapStarWhen);
    const feasible = this.withinRule(candidate);
    this.adapt(feasible);
    if ((feasible || this.repaired(candidate, deadline)) && this.evaluatedAsProblem(candidate)) return true;
    this.putBack(candidate);
    return false;
  }

  /**
   * Evaluates the routes the polish changed by the problem's own evaluator, which the rest of the
   * search prices and extends (their caches were the lifted evaluator's); answers whether each
   * passed. Capacity lifted leaves every route's figures as the problem's: nothing to do.
   */
  private evaluatedAsProblem(candidate: Solution): boolean {
    if (this.rule === 'capacity') return true;
    for (const v of this.changedRoutes(candidate)) if (!candidate.refreshRoute(v, this.evaluator)) return false;
    return true;
  }

  /** Searches again with the penalty raised by each repair factor in turn until no route breaks the rule; answers whether none does. */
  private repaired(candidate: Solution, deadline: number): boolean {
    this.repairs++;
    this.localSearch.changedOnly = true;
    let feasible = false;
    for (const factor of PENALISED_CAPACITY_REPAIR_FACTORS) {
      this.setPenalty(this.penalty * factor);
      // Fresh stamps: the local search examines the routes that break the rule again (it looks at changed routes only).
      for (let v = 0; v < this.inst.nVehicles; v++) if (this.breaksRule(candidate, v)) candidate.refreshRoute(v, this.liftedEvaluator);
      this.localSearch.run(candidate, deadline, null, noSwapStar);
      feasible = this.withinRule(candidate);
      if (feasible) break;
    }
    this.setPenalty(this.penalty);
    this.localSearch.changedOnly = this.changedOnly;
    if (!feasible) this.repairsFailed++;
    return feasible;
  }

  /** Keeps the candidate's routes as they come (their stops only: a copy of the whole solution, route caches and all, cost 5 % of a run). */
  private keep(candidate: Solution): void {
    for (let v = 0; v < this.inst.nVehicles; v++) {
      const n = candidate.len[v]!;
      if (this.backupSeq[v]!.length < n) this.backupSeq[v] = new Int32Array(Math.max(n, 2 * this.backupSeq[v]!.length));
      this.backupSeq[v]!.set(candidate.seq[v]!.subarray(0, n));
      this.backupLen[v] = n;
      this.backupStamp[v] = candidate.stamp[v]!;
    }
  }

  /** Puts back every route of `candidate` the search changed, through the problem's own evaluator. */
  private putBack(candidate: Solution): void {
    const changed = this.changedRoutes(candidate);
    for (const v of changed) candidate.assignRoute(v, this.backupSeq[v]!, this.backupLen[v]!);
    for (const v of changed)
      if (!candidate.refreshRoute(v, this.evaluator))
        throw new Error('internal error: a route put back after a failed repair breaks a rule');
  }

  /** The routes of `candidate` changed since it was kept (keep), by their stamps: a list reused from call to call. */
  private changedRoutes(candidate: Solution): readonly number[] {
    const changed = this.changed;
    changed.length = 0;
    for (let v = 0; v < this.inst.nVehicles; v++) if (candidate.stamp[v] !== this.backupStamp[v]) changed.push(v);
    return changed;
  }

  /** HGS's adaptation: every PENALISED_CAPACITY_ADAPT_EVERY polishes, the penalty rises when too few came out feasible and falls when too many did. */
  private adapt(feasible: boolean): void {
    this.runs++;
    this.sinceAdapt++;
    if (feasible) {
      this.feasibleRuns++;
      this.feasibleSinceAdapt++;
    }
    if (this.sinceAdapt < PENALISED_CAPACITY_ADAPT_EVERY) return;
    const share = this.feasibleSinceAdapt / this.sinceAdapt;
    this.sinceAdapt = this.feasibleSinceAdapt = 0;
    if (share < this.target - 0.05) this.penalty = Math.min(PENALTY_MAX, this.penalty * PENALTY_UP);
    else if (share > this.target + 0.05) this.penalty = Math.max(PENALTY_MIN, this.penalty * PENALTY_DOWN);
    else return;
    this.setPenalty(this.penalty);
  }

  private setPenalty(penalty: number): void {
    const moves = this.localSearch.moves;
    if (this.rule === 'windows') moves.priceWarp(penalty);
    else moves.segments.penaliseOverload(this.inst.vCap, penalty);
  }

  private withinRule(sol: Solution): boolean {
    for (let v = 0; v < this.inst.nVehicles; v++) if (this.breaksRule(sol, v)) return false;
    return true;
  }

  private breaksRule(sol: Solution, v: number): boolean {
    return this.rule === 'windows' ? this.localSearch.moves.timeWarpOf(sol, v) > TW_EPS : this.overloaded(sol, v);
  }

  private overloaded(sol: Solution, v: number): boolean {
    const dims = this.inst.dims;
    for (let k = 0; k < dims; k++) if (loadExceeds(sol.load[v * dims + k]!, this.inst.vCap[v * dims + k]!)) return true;
    return false;
  }
}
