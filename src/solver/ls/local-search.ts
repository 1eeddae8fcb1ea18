/**
 * Granular local search (first improvement). Each served stop u is paired with its nearest
 * neighbours x (by `granularNeighbours`), and every operator tries a move that brings u next
 * to x; the first move that lowers the objective is applied. A pair is skipped when neither
 * route changed since u was last examined, so after a small ruin-and-recreate only the
 * neighbourhood of the changed routes is searched again. Ends when a whole pass finds nothing
 * (a local optimum) or at the deadline.
 *
 * Moves are priced by `MoveEvaluator` (segment summaries where they apply, else the exact
 * evaluator) and applied through the exact evaluator, so the solution stays feasible whatever
 * the fast path says. `fast` tells which pricing is in use: exact pricing costs O(route) per
 * move, so the search then runs the local search less often.
 */
import { reverseNeighbours, vehicleClassCount, type SolverInstance } from '../instance.js';
import type { Rng } from '../rng.js';
import type { RouteEvaluator } from '../route/evaluator.js';
import { nextStamp, type Solution } from '../solution.js';
import { MoveEvaluator } from './move.js';
import { segmentsApply } from './segments.js';
import type { Operator } from './moves/operator.js';
import { EVERY_VERDICT, PairArcs } from './moves/pair-arcs.js';
import { operatorsOf } from './moves/operators.js';
export { operatorsOf };
import { emptyRouteShortens } from './moves/empty-route-filter.js';
import { SwapStar } from './moves/swap-star.js';
import { windowsBind } from './windows-bind.js';
import { SwapStarMemo } from './moves/swap-star-memo.js';
import { RouteSectors } from './moves/sectors.js';
import { granularNeighbours } from './neighbours.js';
import { OperatorCounters } from './operator-stats.js';
import {
  changedRoutesOnlyWithoutWindows,
  changedStopsOnlyWithoutWindows,
  swapStarNearOnlyWithoutWindows,
  windowSettings,
} from '../windowless.js';
import { ChangedStops } from './changed-stops.js';
import {
  CHANGED_ROUTES_ONLY_WITH_FEW,
  CHANGED_STOPS_LOAD_RULE,
  DEADLINE_CHECK_EVERY,
  EXACT_MAX_STOPS,
  FEW_LS_NEIGHBOURS,
  FEW_LS_NEIGHBOURS_BY_DEFAULT,
  FEW_LS_NEIGHBOURS_MIN_STOPS,
  LARGE_LS_NEIGHBOURS,
  LS_NEIGHBOURS,
  LS_NEIGHBOURS_UNDER_WINDOWS,
  SWAP_STAR_MEMO_BITS,
  SWAP_STAR_PARTNER_NEIGHBOURS,
  SWAP_STAR_SECTORS_BY_DEFAULT,
  SWAP_STAR_UNDER_WINDOWS,
} from '../params.js';

export interface LocalSearchOptions {
  /** Count moves per operator (`npm run bench -- --stats`). */
  countOperators?: boolean | undefined;
  /** Granular neighbours per stop; by default lsNeighboursOf's. */
  k?: number | undefined;
  /** Fewer neighbours on large problems (SolveOptions.fewLsNeighbours, lsNeighboursOf); fewNeighboursPay decides when absent. */
  fewOnLarge?: boolean | undefined;
  /** SWAP* at local optima of the other moves (SolveOptions.swapStar); when absent, on where windows do not bind (windowsBind), or everywhere with SWAP_STAR_UNDER_WINDOWS. */
  swapStar?: boolean | undefined;
  /** SWAP* also between routes whose polar sectors overlap (SolveOptions.swapStarSectors); SWAP_STAR_SECTORS_BY_DEFAULT when absent. */
  sectors?: boolean | undefined;
  /** Also on a problem above EXACT_MAX_STOPS whose moves are priced exactly (SolveOptions.largeLocalSearch); off when absent. */
  large?: boolean | undefined;
  /** The string swaps where windows do not bind (SolveOptions.stringSwaps; windowSettings decides); STRING_SWAPS_BY_DEFAULT when absent. */
  stringSwaps?: boolean | undefined;
  /**
   * The stop count the size rules (lsNeighboursOf, firstPlanNeighboursOf, examinesChangedRoutesOnly,
   * and where windows do not bind changed routes only and SWAP* near only) read: a decomposition
   * part gives its whole problem's (SearchLimits.lsRuleStops); the problem's own when absent.
   */
  ruleStops?: number | undefined;
  /** Where windows do not bind, only the changed routes' stops examined on large problems (SolveOptions.changedRoutesOnly; windowless.ts). */
  changedRoutesOnly?: boolean | undefined;
  /** Where windows do not bind, SWAP* trades a stop only into routes near it on large problems (SolveOptions.swapStarNearOnly; windowless.ts). */
  swapStarNearOnly?: boolean | undefined;
  /** Where windows do not bind, a pair is skipped when neither stop's surroundings changed (SolveOptions.changedStopsOnly; windowless.ts). */
  changedStopsOnly?: boolean | undefined;
}

/**
 * Granular neighbours per stop of the local search on `nStops` stops: LS_NEIGHBOURS where windows
 * bind (LS_NEIGHBOURS_UNDER_WINDOWS below FEW_LS_NEIGHBOURS_MIN_STOPS stops),
 * LS_NEIGHBOURS_WITHOUT_WINDOWS where they do not (SWAP* pairs near routes there; windowSettings
 * in windowless.ts decides it with the ruin's size); FEW_LS_NEIGHBOURS from
 * FEW_LS_NEIGHBOURS_MIN_STOPS on when `fewOnLarge` says so, and where it is absent, where windows
 * bind and moves are priced by the segment summaries (`fast`; fewNeighboursPay);
 * LARGE_LS_NEIGHBOURS when moves are priced exactly above EXACT_MAX_STOPS.
 */
export function lsNeighboursOf(
  nStops: number,
  exactAndLarge: boolean,
  fewOnLarge: boolean | undefined,
  windowed: boolean,
  fast = false,
): number {
  if (exactAndLarge) return LARGE_LS_NEIGHBOURS;
  if (nStops >= FEW_LS_NEIGHBOURS_MIN_STOPS && (fewOnLarge ?? fewNeighboursPay(windowed, fast))) return FEW_LS_NEIGHBOURS;
  if (narrowsUnderWindows(nStops, windowed)) return LS_NEIGHBOURS_UNDER_WINDOWS;
  return windowSettings(windowed).lsNeighbours;
}

/** Whether the search narrows to LS_NEIGHBOURS_UNDER_WINDOWS: windows bind, below FEW_LS_NEIGHBOURS_MIN_STOPS stops. */
function narrowsUnderWindows(nStops: number, windowed: boolean): boolean {
  return windowed && nStops < FEW_LS_NEIGHBOURS_MIN_STOPS;
}

/**
 * Whether fewer neighbours pay on a large problem by default (FEW_LS_NEIGHBOURS_BY_DEFAULT says
 * why): where moves are priced by the segment summaries the search polishes every candidate, so
 * the polish is most of an iteration and fewer neighbours buy iterations; where they are priced
 * exactly it polishes only a new best (search/polish.ts), so they save little and cost that
 * polish its reach. Where windows do not bind the windowless settings decide (windowless.ts).
 */
export function fewNeighboursPay(windowed: boolean, fast: boolean): boolean {
  return FEW_LS_NEIGHBOURS_BY_DEFAULT && windowed && fast;
}

/**
 * Whether the local search on `nStops` stops with `k` neighbours a stop examines only the stops of
 * the routes changed since its last run, leaving out the stops that count them among their
 * neighbours: where FEW_LS_NEIGHBOURS came from the size rule (lsNeighboursOf) and
 * CHANGED_ROUTES_ONLY_WITH_FEW says so (params.ts: a polish per iteration is most of the search there).
 */
export function examinesChangedRoutesOnly(nStops: number, exactAndLarge: boolean, k: number): boolean {
  return CHANGED_ROUTES_ONLY_WITH_FEW && !exactAndLarge && nStops >= FEW_LS_NEIGHBOURS_MIN_STOPS && k === FEW_LS_NEIGHBOURS;
}

/**
 * Granular neighbours per stop while a first plan is polished and its iterations run
 * (LocalSearch.narrow ends that): LS_NEIGHBOURS where the search then uses
 * LS_NEIGHBOURS_UNDER_WINDOWS, since over a first plan's few iterations a pass's reach counts
 * more than its cost (params.ts); `k` elsewhere.
 */
export function firstPlanNeighboursOf(k: number, nStops: number, windowed: boolean): number {
  return narrowsUnderWindows(nStops, windowed) && k === LS_NEIGHBOURS_UNDER_WINDOWS ? LS_NEIGHBOURS : k;
}

/** Whether a plan at a local optimum of the other moves is worth a SWAP* pass. */
export type SwapStarWhen = (sol: Solution) => boolean;

export interface LocalSearchStats {
  moves: number;
  rejectedByExact: number;
}

export class LocalSearch {
  readonly inst: SolverInstance;
  readonly moves: MoveEvaluator;
  private readonly operators: Operator[];
  /** The distance filter every operator reads, asked once a pair (null: some operator has a filter of its own; operatorsOf). */
  private readonly pairFilter: PairArcs | null;
  /** Each operator's filterVerdict, read once (a field of six classes read on every pair is a megamorphic load). */
  private readonly filterVerdicts: Int32Array;
  private readonly neighbours: Int32Array;
  /** Neighbours listed per stop (the lists' stride), nearest first. */
  private readonly k: number;
  /** The first this many of them the moves try now: more for a first plan, `narrowed` after (narrow). */
  private active: number;
  private readonly narrowed: number;
  /**
   * Whether a run examines only the stops of changed routes, not also those that count them among
   * their neighbours (examinesChangedRoutesOnly); the penalised polish's repair sets it for its own
   * runs (search/penalised-polish.ts).
   */
  changedOnly: boolean;
  /** Stamp counter value when each stop was last examined against its neighbours. */
  private readonly lastTested: Float64Array;
  private readonly order: Int32Array;
  private readonly mark: Uint8Array;
  /** Stops that have stop s among their neighbours: reverse[reverseStart[s] .. reverseStart[s+1]). */
  private reverse: Int32Array;
  private reverseStart: Int32Array;
  /** Stamp counter value when the last run ended. */
  private lastRunEnd = -1;
  private readonly emptyOfClass: Int32Array;
  private readonly classCount: number;
  readonly stats: LocalSearchStats = { moves: 0, rejectedByExact: 0 };
  /** Pairs of a stop and a neighbour tried so far: part of the search's measure of work (search/work.ts). */
  pairsTried = 0;
  /** Per operator, when asked for; then come the moves into an empty route and SWAP*. */
  readonly counters: OperatorCounters | null;
  /** SWAP* between routes near each other, once the moves above find nothing (null: switched off). */
  readonly swapStar: SwapStar | null;
  /** Route pairs SWAP* tried in vain, by content (null with SWAP* off). */
  readonly swapStarMemo: SwapStarMemo | null;
  /** Per route, the SWAP* pass that last listed it as a partner (routes near a changed one). */
  private readonly partnerMark: Int32Array;
  private readonly partners: Int32Array;
  private swapPass = 0;
  /** When each stop's surroundings last changed, where pairs of unchanged stops are skipped (changedStopsOnlyWithoutWindows). */
  private readonly changedStops: ChangedStops | null;

  /**
   * Null when balancing is on (its spread penalty is not a sum over routes, which moves price),
   * and when moves would be priced exactly on a problem above EXACT_MAX_STOPS stops, unless
   * `options.large` (SolveOptions.largeLocalSearch) asks for it: there the O(route) pricing
   * starved the ruin-and-recreate (5,000 stops with breaks: 17 iterations instead of ~2,200 in
   * 10 s, and a worse plan) before the polish of such problems had a budget of work
   * (search/polish.ts); with it, fewer neighbours (LARGE_LS_NEIGHBOURS) bound a pass.
   */
  static create(inst: SolverInstance, evaluator: RouteEvaluator, rng: Rng, options: LocalSearchOptions = {}): LocalSearch | null {
    if (inst.balance !== 'none' || inst.nStops < 2 || inst.nVehicles === 0) return null;
    const fast = segmentsApply(inst);
    const exactAndLarge = !fast && inst.nStops > EXACT_MAX_STOPS;
    if (exactAndLarge && options.large !== true) return null;
    const windowed = windowsBind(inst);
    // Measured where the summaries price the moves (GH1000's parts); exactly priced parts keep their own.
    const ruleStops = fast ? (options.ruleStops ?? inst.nStops) : inst.nStops;
    const k = options.k ?? lsNeighboursOf(ruleStops, exactAndLarge, options.fewOnLarge, windowed, fast);
    const firstK = options.k ?? firstPlanNeighboursOf(k, ruleStops, windowed);
    const swapStar = options.swapStar ?? (SWAP_STAR_UNDER_WINDOWS || !windowed);
    const sectors = swapStar && (options.sectors ?? SWAP_STAR_SECTORS_BY_DEFAULT) ? new RouteSectors(inst) : null;
    const neighbours = {
      first: firstK,
      after: k,
      changedOnly:
        options.k === undefined &&
        (examinesChangedRoutesOnly(ruleStops, exactAndLarge, k) ||
          (!windowed && changedRoutesOnlyWithoutWindows(ruleStops, options.changedRoutesOnly))),
      swapStarNear: !windowed && swapStarNearOnlyWithoutWindows(ruleStops, options.swapStarNearOnly),
      changedStops: options.k === undefined && !windowed && changedStopsOnlyWithoutWindows(ruleStops, options.changedStopsOnly),
    };
    const operators = operatorsOf(windowSettings(windowed, undefined, options.stringSwaps).stringSwaps, options.countOperators === true);
    return new LocalSearch(inst, evaluator, rng, neighbours, options.countOperators === true, swapStar, windowed, sectors, operators);
  }

  get fast(): boolean {
    return this.moves.fast;
  }

  private constructor(
    inst: SolverInstance,
    private readonly evaluator: RouteEvaluator,
    private readonly rng: Rng,
    neighbourCounts: { first: number; after: number; changedOnly: boolean; swapStarNear: boolean; changedStops: boolean },
    countOperators: boolean,
    swapStar: boolean,
    windowed: boolean,
    /** Polar sectors of the routes, when SWAP* also pairs routes whose sectors overlap. */
    private readonly sectors: RouteSectors | null,
    /** The moves tried on each stop and neighbour, in order, and the filter they all read (operatorsOf). */
    operators: { list: Operator[]; filter: PairArcs | null },
  ) {
    this.inst = inst;
    this.moves = new MoveEvaluator(inst, evaluator, windowed);
    this.operators = operators.list;
    this.pairFilter = operators.filter;
    this.filterVerdicts = Int32Array.from(this.operators, (op) => op.filterVerdict);
    this.swapStar = swapStar ? new SwapStar(inst, windowed, this.moves.symmetric) : null;
    this.swapStarMemo = swapStar ? new SwapStarMemo(inst.nVehicles, SWAP_STAR_MEMO_BITS) : null;
    this.counters = countOperators ? new OperatorCounters([...this.operators.map((op) => op.name), 'empty-route', 'swap*']) : null;
    this.partnerMark = new Int32Array(inst.nVehicles);
    this.partners = new Int32Array(inst.nVehicles);
    const k = Math.max(neighbourCounts.first, neighbourCounts.after);
    this.neighbours = granularNeighbours(inst, k);
    this.k = Math.min(k, Math.max(0, inst.nStops - 1));
    this.active = Math.min(neighbourCounts.first, this.k);
    this.narrowed = Math.min(neighbourCounts.after, this.k);
    this.changedOnly = neighbourCounts.changedOnly;
    this.changedStops = neighbourCounts.changedStops ? new ChangedStops(inst.nStops, inst.nVehicles, CHANGED_STOPS_LOAD_RULE) : null;
    this.lastTested = new Float64Array(inst.nStops).fill(-1);
    this.order = new Int32Array(inst.nStops);
    this.mark = new Uint8Array(inst.nStops);
    ({ list: this.reverse, start: this.reverseStart } = reverseNeighbours(this.neighbours, inst.nStops, this.k, this.active));
    // SWAP* reads the same lists as the moves (SWAP_STAR_NEAR_ONLY_WITHOUT_WINDOWS).
    if (this.swapStar && neighbourCounts.swapStarNear)
      this.swapStar.setNearOnly(this.neighbours, this.k, Math.min(this.narrowed, SWAP_STAR_PARTNER_NEIGHBOURS));
    this.classCount = vehicleClassCount(inst);
    this.emptyOfClass = new Int32Array(this.classCount);
  }

  /**
   * From now on the moves try the search's own number of neighbours (lsNeighboursOf) rather than
   * a first plan's (firstPlanNeighboursOf); the stops that count a stop among them shrink alike.
   */
  narrow(): void {
    if (this.active === this.narrowed) return;
    this.active = this.narrowed;
    ({ list: this.reverse, start: this.reverseStart } = reverseNeighbours(this.neighbours, this.inst.nStops, this.k, this.active));
  }

  /**
   * Improves `sol` to a local optimum (or until `deadline`, or until `outOfWork` says so: a
   * budget of work, which unlike the clock gives the same plan on a busy machine); returns the
   * number of moves applied.
   * Only stops in routes changed since the last run, and stops that have them as neighbours,
   * are examined (every stop on the first run). SWAP* runs at each local optimum of the other
   * moves when `swapStarWhen` (asked there) says the plan is worth it; always when it is null.
   */
  run(sol: Solution, deadline = Infinity, outOfWork: (() => boolean) | null = null, swapStarWhen: SwapStarWhen | null = null): number {
    if (!this.counters) return this.improve(sol, deadline, outOfWork, swapStarWhen);
    const started = performance.now();
    const applied = this.improve(sol, deadline, outOfWork, swapStarWhen);
    this.counters.addRunTime(performance.now() - started);
    return applied;
  }

  private improve(sol: Solution, deadline: number, outOfWork: (() => boolean) | null, swapStarWhen: SwapStarWhen | null): number {
    let applied = 0;
    let examined = 0;
    let emptyStale = true;
    let since = this.lastRunEnd;
    let swapSince = this.lastRunEnd;
    for (;;) {
      const passStart = nextStamp();
      this.changedStops?.seeChangedAfter(sol, since);
      const count = this.collectCandidates(sol, since);
      this.rng.shuffle(this.order.subarray(0, count));
      let improved = false;
      for (let i = 0; i < count; i++) {
        const u = this.order[i]!;
        if (sol.routeOf[u]! < 0) continue;
        if (++examined % DEADLINE_CHECK_EVERY === 0 && (performance.now() > deadline || outOfWork?.() === true)) {
          // Stops not reached wait until their routes change again.
          this.lastRunEnd = nextStamp();
          return applied;
        }
        const tested = this.lastTested[u]!;
        this.lastTested[u] = nextStamp();
        for (let j = 0; j < this.active; j++) {
          const x = this.neighbours[u * this.k + j]!;
          if (x < 0) break;
          const rx = sol.routeOf[x]!;
          if (rx < 0) continue;
          const ru = sol.routeOf[u]!;
          if (sol.stamp[ru]! < tested && sol.stamp[rx]! < tested) continue;
          if (this.changedStops?.bothBefore(u, x, tested) === true) continue;
          this.pairsTried++;
          if (this.tryPair(sol, u, x, ru, rx)) {
            applied++;
            improved = true;
            emptyStale = true;
          }
        }
        if (sol.stamp[sol.routeOf[u]!]! > tested) {
          if (emptyStale) sol.firstEmptyOfEachClass(this.emptyOfClass);
          emptyStale = false;
          if (this.tryEmptyRoute(sol, u)) {
            applied++;
            improved = true;
            emptyStale = true;
          }
        }
      }
      if (!improved && this.swapStar && (swapStarWhen === null || swapStarWhen(sol))) {
        // At a local optimum of the moves above: SWAP* on the routes changed since its last pass.
        const swapStart = nextStamp();
        const swapped = this.swapStarPass(sol, swapSince, deadline, outOfWork);
        swapSince = swapStart;
        // Out of time or work. SWAP* exchanges one stop for one, so no route empties or fills (emptyOfClass holds).
        if (swapped < 0) break;
        applied += swapped;
        improved = swapped > 0;
      }
      if (!improved) break;
      since = passStart;
    }
    this.lastRunEnd = nextStamp();
    return applied;
  }

  /**
   * Marks the stops of routes changed after `since` and, unless `changedOnly`, the stops that count
   * them among their neighbours; lists them in `order` (in stop order, before shuffling) and returns how many.
   */
  private collectCandidates(sol: Solution, since: number): number {
    const inst = this.inst;
    const mark = this.mark;
    let count = 0;
    for (let v = 0; v < inst.nVehicles; v++) {
      if (sol.stamp[v]! <= since) continue;
      const seq = sol.seq[v]!;
      for (let i = 0, n = sol.len[v]!; i < n; i++) {
        const s = seq[i]!;
        if (mark[s] === 0) {
          mark[s] = 1;
          this.order[count++] = s;
        }
        if (this.changedOnly) continue;
        for (let r = this.reverseStart[s]!, e = this.reverseStart[s + 1]!; r < e; r++) {
          const t = this.reverse[r]!;
          if (mark[t] === 0) {
            mark[t] = 1;
            this.order[count++] = t;
          }
        }
      }
    }
    for (let i = 0; i < count; i++) mark[this.order[i]!] = 0;
    this.order.subarray(0, count).sort();
    return count;
  }

  private tryPair(sol: Solution, u: number, x: number, ru: number, rx: number): boolean {
    const moves = this.moves;
    // Every operator would refuse the pair on its distance filter, before pricing: the routes' summaries need no update either.
    if (this.pairFilter?.refusesAll(sol, moves, u, x) === true) return false;
    moves.prepare(sol, ru);
    if (rx !== ru) moves.prepare(sol, rx);
    const { operators, counters, filterVerdicts } = this;
    // An operator whose verdict is off would return 0 before pricing (Operator.filterVerdict), after some
    // 200 instructions of reads: on RC1_10_1, 78 % of relocate's and or-opt's calls on pairs that pass.
    const passed = this.pairFilter?.verdicts(sol, moves, u, x) ?? EVERY_VERDICT;
    for (let op = 0; op < operators.length; op++) {
      if ((passed & filterVerdicts[op]!) === 0) continue;
      counters?.start(op, moves.priced);
      const count = operators[op]!.find(sol, moves, u, x);
      const applied = count > 0 && this.commit(sol, count);
      counters?.finish(op, moves.priced, applied);
      if (applied) return true;
    }
    return false;
  }

  /**
   * SWAP* between each route changed after `since` and the routes near it: those holding one of
   * its stops' granular neighbours (the route-overlap pruning: routes far apart share no
   * neighbours). Answers the moves applied, or -1 when the deadline or the work budget ran out.
   */
  private swapStarPass(sol: Solution, since: number, deadline: number, outOfWork: (() => boolean) | null): number {
    let applied = 0;
    for (let r1 = 0; r1 < this.inst.nVehicles; r1++) {
      if (sol.stamp[r1]! <= since || sol.len[r1]! === 0) continue;
      if (performance.now() > deadline || outOfWork?.() === true) return -1;
      const count = this.collectPartners(sol, r1);
      for (let i = 0; i < count && sol.len[r1]! > 0; i++) {
        const r2 = this.partners[i]!;
        // A changed partner with a lower index had its turn as r1 (and this pair in it, as a rule).
        if (r2 < r1 && sol.stamp[r2]! > since) continue;
        if (sol.len[r2]! > 0 && this.trySwapStar(sol, r1, r2)) applied++;
      }
    }
    return applied;
  }

  /** Lists in `partners` the other routes that hold a near granular neighbour of a stop of route r (SWAP_STAR_PARTNER_NEIGHBOURS); answers how many. */
  private collectPartners(sol: Solution, r: number): number {
    const pass = ++this.swapPass;
    const seq = sol.seq[r]!;
    const near = Math.min(this.active, SWAP_STAR_PARTNER_NEIGHBOURS);
    let count = 0;
    for (let i = 0, n = sol.len[r]!; i < n; i++) {
      const s = seq[i]!;
      for (let j = 0; j < near; j++) {
        const x = this.neighbours[s * this.k + j]!;
        if (x < 0) break;
        const rx = sol.routeOf[x]!;
        if (rx < 0 || rx === r || this.partnerMark[rx] === pass) continue;
        this.partnerMark[rx] = pass;
        this.partners[count++] = rx;
      }
    }
    if (this.sectors) count = this.addSectorPartners(sol, r, count, pass);
    // In route order, so that the pass does not depend on the order of the neighbour lists' ties.
    this.partners.subarray(0, count).sort();
    return count;
  }

  /** Adds to the `count` partners listed the other used routes whose polar sector overlaps route r's; answers how many now. */
  private addSectorPartners(sol: Solution, r: number, count: number, pass: number): number {
    const sectors = this.sectors!;
    for (let v = 0; v < this.inst.nVehicles; v++) {
      if (v === r || sol.len[v]! === 0 || this.partnerMark[v] === pass) continue;
      if (sectors.overlap(sol, r, v)) this.partners[count++] = v;
    }
    return count;
  }

  private trySwapStar(sol: Solution, r1: number, r2: number): boolean {
    if (this.swapStarMemo!.triedInVain(sol, r1, r2)) return false;
    const moves = this.moves;
    moves.prepare(sol, r1);
    moves.prepare(sol, r2);
    const counters = this.counters;
    const op = this.operators.length + 1;
    counters?.start(op, moves.priced);
    const found = this.swapStar!.find(sol, moves, r1, r2) > 0;
    if (!found) this.swapStarMemo!.recordInVain(sol, r1, r2);
    const applied = found && this.commit(sol, 2);
    counters?.finish(op, moves.priced, applied);
    return applied;
  }

  /** Moves u alone into an unused vehicle (one per class: unused vehicles of a class are alike). */
  private tryEmptyRoute(sol: Solution, u: number): boolean {
    const ru = sol.routeOf[u]!;
    if (sol.len[ru]! <= 1) return false;
    const counters = this.counters;
    if (!counters) return this.moveIntoEmptyRoute(sol, u, ru);
    const op = this.operators.length;
    counters.start(op, this.moves.priced);
    const applied = this.moveIntoEmptyRoute(sol, u, ru);
    counters.finish(op, this.moves.priced, applied);
    return applied;
  }

  private moveIntoEmptyRoute(sol: Solution, u: number, ru: number): boolean {
    const moves = this.moves;
    // Refused moves count as priced (MoveEvaluator.refuse): the work measured, and so the plans, stay as without the filter.
    const refused = moves.distanceFilter && !emptyRouteShortens(sol, moves, u);
    if (!refused) moves.prepare(sol, ru);
    const pu = sol.posOf[u]!;
    for (let c = 0; c < this.classCount; c++) {
      const v = this.emptyOfClass[c]!;
      if (v < 0 || v === ru) continue;
      if (refused) {
        moves.refuse();
        continue;
      }
      moves.prepare(sol, v);
      moves.plans[0]
        .reset(ru)
        .range(ru, 0, pu)
        .range(ru, pu + 1, sol.len[ru]!);
      moves.plans[1].reset(v).stop(u);
      if (moves.improves(sol, 2) && this.commit(sol, 2)) return true;
    }
    return false;
  }

  private commit(sol: Solution, count: number): boolean {
    if (this.moves.apply(sol, count, this.evaluator)) {
      this.stats.moves++;
      if (this.changedStops) for (let i = 0; i < count; i++) this.changedStops.see(sol, this.moves.plans[i]!.vehicle);
      return true;
    }
    this.stats.rejectedByExact++;
    return false;
  }
}
