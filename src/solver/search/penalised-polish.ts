/**
 * Penalised capacity in the polish (HGS-CVRP's penalised local search: Vidal 2022): where windows do
 * not bind, the local search after a ruin and recreate may load a vehicle above its capacity, at a
 * penalty a unit of excess, so that routes pass through overloaded states that strictly feasible
 * moves cannot reach (a stop traded for a lighter one only after a third route took some load).
 * A plan still overloaded at its local optimum is repaired by the same search with the penalty
 * PENALISED_CAPACITY_REPAIR_FACTORS times as high; one that stays overloaded is put back as it came
 * and left to the feasible local search (polish.ts). The penalty adapts so that some
 * PENALISED_CAPACITY_TARGET_FEASIBLE of the polished plans come out feasible before any repair.
 *
 * The search runs on the instance with its capacities lifted (its own route evaluator accepts any
 * load, so moves apply through it), while the segment summaries price the load above the problem's
 * own capacities (RouteSegments.penaliseOverload). Only a plan within every capacity goes back to
 * the search: the plans it keeps are always feasible.
 */
import type { SolverInstance } from '../instance.js';
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
  PENALTY_DOWN,
  PENALTY_MAX,
  PENALTY_MIN,
  PENALTY_UP,
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
  /** Polished plans so far that came out within every capacity before a repair, and since the last adaptation. */
  feasibleRuns = 0;
  runs = 0;
  /** Repairs tried and those that left a plan overloaded (put back as it came). */
  repairs = 0;
  repairsFailed = 0;
  private penalty: number;
  private sinceAdapt = 0;
  private feasibleSinceAdapt = 0;
  /** The candidate's routes as they came (stops, length, stamp), to put back when the repair fails. */
  private readonly backupSeq: Int32Array[] = [];
  private readonly backupLen: Int32Array;
  private readonly backupStamp: Float64Array;
  private readonly changed: number[] = [];
  /** Whether its local search examines only the stops of changed routes outside a repair. */
  private readonly changedOnly: boolean;

  static when(
    on: boolean | undefined,
    inst: SolverInstance,
    evaluator: RouteEvaluator,
    rng: Rng,
    options: LocalSearchOptions,
  ): PenalisedPolish | null {
    if (!penalisesCapacity(inst, on)) return null;
    const lifted: SolverInstance = { ...inst, vCap: new Float64Array(inst.vCap.length).fill(Infinity) };
    const liftedEvaluator = new RouteEvaluator(lifted);
    const localSearch = LocalSearch.create(lifted, liftedEvaluator, rng, { ...options, countOperators: false });
    return localSearch ? new PenalisedPolish(inst, evaluator, liftedEvaluator, localSearch) : null;
  }

  private constructor(
    private readonly inst: SolverInstance,
    /** The problem's own evaluator: routes put back go through it. */
    private readonly evaluator: RouteEvaluator,
    private readonly liftedEvaluator: RouteEvaluator,
    private readonly localSearch: LocalSearch,
  ) {
    this.backupLen = new Int32Array(inst.nVehicles);
    this.backupStamp = new Float64Array(inst.nVehicles);
    for (let v = 0; v < inst.nVehicles; v++) this.backupSeq.push(new Int32Array(0));
    this.changedOnly = localSearch.changedOnly;
    this.penalty = initialPenaltyOf(inst);
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
   * Polishes `candidate` with penalised capacity until `deadline` at the latest; answers whether it
   * came out within every capacity. When not, `candidate` is as it came, for the feasible polish.
   */
  run(candidate: Solution, deadline: number, swapStarWhen: SwapStarWhen | null): boolean {
    this.keep(candidate);
    this.localSearch.run(candidate, deadline, null, swapStarWhen);
    const feasible = this.withinCapacity(candidate);
    this.adapt(feasible);
    if (feasible || this.repaired(candidate, deadline)) return true;
    this.putBack(candidate);
    return false;
  }

  /** Searches again with the penalty raised by each repair factor in turn until no route is overloaded; answers whether none is. */
  private repaired(candidate: Solution, deadline: number): boolean {
    this.repairs++;
    this.localSearch.changedOnly = true;
    let feasible = false;
    for (const factor of PENALISED_CAPACITY_REPAIR_FACTORS) {
      this.setPenalty(this.penalty * factor);
      // Fresh stamps: the local search examines the overloaded routes again (it looks at changed routes only).
      for (let v = 0; v < this.inst.nVehicles; v++) if (this.overloaded(candidate, v)) candidate.refreshRoute(v, this.liftedEvaluator);
      this.localSearch.run(candidate, deadline, null, noSwapStar);
      feasible = this.withinCapacity(candidate);
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
    const changed = this.changed;
    changed.length = 0;
    for (let v = 0; v < this.inst.nVehicles; v++) if (candidate.stamp[v] !== this.backupStamp[v]) changed.push(v);
    for (const v of changed) candidate.assignRoute(v, this.backupSeq[v]!, this.backupLen[v]!);
    for (const v of changed)
      if (!candidate.refreshRoute(v, this.evaluator))
        throw new Error('internal error: a route put back after a failed repair breaks a rule');
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
    if (share < PENALISED_CAPACITY_TARGET_FEASIBLE - 0.05) this.penalty = Math.min(PENALTY_MAX, this.penalty * PENALTY_UP);
    else if (share > PENALISED_CAPACITY_TARGET_FEASIBLE + 0.05) this.penalty = Math.max(PENALTY_MIN, this.penalty * PENALTY_DOWN);
    else return;
    this.setPenalty(this.penalty);
  }

  private setPenalty(penalty: number): void {
    this.localSearch.moves.segments.penaliseOverload(this.inst.vCap, penalty);
  }

  private withinCapacity(sol: Solution): boolean {
    for (let v = 0; v < this.inst.nVehicles; v++) if (this.overloaded(sol, v)) return false;
    return true;
  }

  private overloaded(sol: Solution, v: number): boolean {
    const dims = this.inst.dims;
    for (let k = 0; k < dims; k++) if (loadExceeds(sol.load[v * dims + k]!, this.inst.vCap[v * dims + k]!)) return true;
    return false;
  }
}
