/** What the solver is asked and what it answers. The solver core reads only `Problem`. */
import type { UnservedHintKind } from '../model/hint-kinds.js';

export interface SolveOptions {
  /** Wall-clock bound in milliseconds; the solver returns its best plan by then. */
  timeLimitMs: number;
  /**
   * When the caller needs the plan at the latest, as an absolute time in milliseconds
   * (performance.timeOrigin + performance.now(), which reads alike on every thread): the command's
   * start + `--time-limit` − its output, since the limit bounds loading and output too
   * (decisions.md, `--time-limit`). The solve ends by the earlier of this and its own start +
   * `timeLimitMs`; work budgets still follow `timeLimitMs`, so a seed gives one plan however long
   * the loading took. Absent: the solve's own start + `timeLimitMs`.
   */
  endsAt?: number;
  /** Seed for every random choice (default 0). */
  seed: number;
  /** Stop after this many search iterations (reproducible stop). */
  maxIterations?: number;
  /** Stop after this many iterations without improving the best plan. */
  maxNoImprove?: number;
  /**
   * Stop once the search stalls (stop/plateau.ts), well before the time limit when the plan is
   * done. Default: on, unless `maxIterations` is given. The stall counts iterations and work,
   * never time: a seed reproduces the plan of a search that stopped by itself.
   */
  stopWhenStalled?: boolean;
  /** Independent searches, each on a worker thread (src/threads/; default 1). solve() itself runs one. */
  threads?: number;
  /**
   * With two threads or more: improve one plan by decomposition (decompose/search.ts) instead of
   * running independent searches. Absent: the default for the problem's size (SPLIT_MIN_STOPS).
   */
  split?: boolean;
  /** Called now and then with the best plan so far (for the TTY spinner). */
  onProgress?: (progress: SolveProgress) => void;
  /** Aborting returns the best plan found so far. */
  signal?: AbortSignal;
  /**
   * Experimental, off by default: also run the prize moves (ls/prize.ts) on the search's
   * candidates, not only on the best plan once the search ends. Kept for the bench to measure the
   * lever. Off because, measured at a fixed iteration count (3 solver seeds × 24 generated
   * feature-rich problems with unserved stops, two families), claiming in the search changed the
   * search's path and gained about as much priority as it lost (+115 / −87 in total, 15 plans
   * better, 10 worse), while the final pass alone gained +33 on 7 plans and never loses: the plan
   * is the search's, plus what the pass claims.
   */
  prizeInSearch?: boolean;
  /**
   * SWAP* between neighbouring routes in the local search (ls/moves/swap-star.ts). Absent: on
   * where no stop's window leaves out part of the working day (windowsBind: it paid on CVRP, not
   * with windows). False for the bench's ablation row (`npm run bench -- --without swap-star`).
   */
  swapStar?: boolean;
  /**
   * Fewer granular neighbours in the local search from FEW_LS_NEIGHBOURS_MIN_STOPS stops on
   * (params.ts, FEW_LS_NEIGHBOURS_BY_DEFAULT, says why: on Gehring–Homberger 1,000 the polish took
   * 80% of the search, but a 1,000-stop project whose moves are priced exactly lost 8–11% of
   * working time). Absent: on where windows bind and moves are priced by the segment summaries
   * (fewNeighboursPay in ls/local-search.ts). False for the bench's ablation row
   * (`npm run bench -- --without few-ls-neighbours`), true to force it (`--with few-ls-neighbours`).
   */
  fewLsNeighbours?: boolean;
  /**
   * SWAP* also pairs a changed route with the routes whose polar sectors around the depot overlap
   * its own (HGS-CVRP's pruning; ls/moves/sectors.ts), beside those holding its stops' near
   * neighbours. Absent: off (params.ts, SWAP_STAR_SECTORS, says why). True for the bench's row with
   * it (`npm run bench -- --with swap-star-sectors`).
   */
  swapStarSectors?: boolean;
  /**
   * A wider ruin where no window binds: AVG_REMOVED_WITHOUT_WINDOWS stops on average instead of
   * AVG_REMOVED (windowless.ts). Absent: WIDER_RUIN_BY_DEFAULT (params.ts says why). False for the
   * bench's ablation row (`npm run bench -- --without wider-ruin`).
   */
  widerRuin?: boolean;
  /**
   * The string swaps (HGS-CVRP's SWAP(2,1) and SWAP(2,2), ls/moves/swap-strings.ts) in the local
   * search where no window binds (windowless.ts). Absent: STRING_SWAPS_BY_DEFAULT (params.ts says
   * why). True for the bench's row with them (`npm run bench -- --with string-swaps`).
   */
  stringSwaps?: boolean;
  /**
   * Where no window binds, from FEW_LS_NEIGHBOURS_MIN_STOPS stops on, the polish after a ruin and
   * recreate examines only the stops of the changed routes (windowless.ts,
   * changedRoutesOnlyWithoutWindows). Absent: CHANGED_ROUTES_ONLY_WITHOUT_WINDOWS (params.ts says
   * why). False for the bench's ablation row (`npm run bench -- --without changed-routes-only`).
   */
  changedRoutesOnly?: boolean;
  /**
   * Where no window binds, from SWAP_STAR_NEAR_ONLY_MIN_STOPS stops on, SWAP* trades a stop only into
   * a route holding one of its granular neighbours (windowless.ts, swapStarNearOnlyWithoutWindows).
   * Absent: SWAP_STAR_NEAR_ONLY_WITHOUT_WINDOWS (params.ts says why). False for the bench's ablation
   * row (`npm run bench -- --without swap-star-near-only`).
   */
  swapStarNearOnly?: boolean;
  /**
   * Where no window binds, from CHANGED_STOPS_ONLY_MIN_STOPS stops on, the local search skips a pair
   * of stops neither of whose surroundings changed since the first was last examined (windowless.ts,
   * changedStopsOnlyWithoutWindows; ls/changed-stops.ts). Absent: CHANGED_STOPS_ONLY_WITHOUT_WINDOWS
   * (params.ts says why: off). True for the bench's row with it (`npm run bench -- --with changed-stops-only`).
   */
  changedStopsOnly?: boolean;
  /**
   * Where no window binds, from PENALISED_CAPACITY_MIN_STOPS stops on, the polish after each ruin and
   * recreate may load vehicles above their capacity at a penalty a unit of excess, then repairs
   * (search/penalised-polish.ts, HGS-CVRP's penalised local search). Absent:
   * PENALISED_CAPACITY_BY_DEFAULT (params.ts). `npm run bench -- --with penalised-capacity` /
   * `--without penalised-capacity`.
   */
  penalisedCapacity?: boolean;
  /**
   * The solver's own numbering of locations, near locations near in the matrix, from
   * LOCAL_ORDER_MIN_LOCATIONS on (local-order.ts): the same plans, read from fewer cache lines.
   * Absent: LOCAL_ORDER_BY_DEFAULT. False for the bench's ablation row (`--without local-order`).
   */
  localOrder?: boolean;
  /**
   * A longer cooling where no window binds, from COOL_LONGER_MIN_STOPS stops on (windowless.ts,
   * coolWorkFor), for a search that may stop by itself. Absent: LONGER_COOLING_BY_DEFAULT (params.ts
   * says why). The bench's in-process solves do not stop by themselves: compare a build with it on
   * in fresh processes (`--process --baseline`).
   */
  longerCooling?: boolean;
  /**
   * The final prize pass's share of work (search/claim.ts), its time kept back before the
   * deadline. Absent: on. False for the bench's ablation row (`npm run bench -- --without
   * prize-claim`): the pass then runs until half the output reserve past the deadline, as before.
   */
  prizeClaim?: boolean;
  /**
   * Experimental, off by default: the local search on problems above 1,000 stops whose moves are
   * priced by the exact evaluator (breaks, several windows, lateness…: LocalSearch.create), on
   * fewer neighbours and within the exact polish's budget of work. Kept for the bench to measure
   * (`npm run bench -- --with large-ls`): on the generated 5,000-stop problem at 60 s, on a machine
   * at a load of 14–20, two rounds went one each way (3.66 M vs 3.72 M s of working time, then
   * 3.72 M vs 3.60 M), every run ending at 0 iterations: not shown to pay.
   */
  largeLocalSearch?: boolean;
  /**
   * Restarts of a stalled ruin-and-recreate trajectory from children of an elite pool (SREX
   * crossover, HGS's diversity management: search/restarts.ts). Absent: POPULATION_BY_DEFAULT
   * (params.ts, with the measurement behind it). False for the bench's ablation row
   * (`npm run bench -- --without population`).
   */
  population?: boolean;
  /**
   * The fleet minimisation once during the search (SISR's: a route taken out, its stops fitted into
   * the others by ruin and recreate; search/fleet.ts), where windows bind, from FLEET_MIN_STOPS stops
   * on. Absent: FLEET_MINIMISATION_BY_DEFAULT (params.ts, off, with the measurement behind it). True
   * for the bench's row with it (`npm run bench -- --with fleet-minimisation`).
   */
  fleetMinimisation?: boolean;
  /**
   * The fleet minimisation where a search stalls, on windowed problems up to FLEET_AT_STALL_MAX_STOPS
   * stops: a plan serving every stop with fewer routes becomes the current one and the search goes on
   * cold for a fresh stall budget (search/fleet-at-stall.ts). Absent: FLEET_AT_STALL_BY_DEFAULT
   * (params.ts). `npm run bench -- --with fleet-at-stall` / `--without fleet-at-stall`.
   */
  fleetAtStall?: boolean;
  /** Count the local search's moves per operator into `stats.operators` (`npm run bench -- --stats`); off by default, since counting costs time in the hottest loop. */
  operatorStats?: boolean;
  /**
   * The clock the limits are read on, in milliseconds (performance.now() when absent): tests make
   * it slow to show that a search that stops by itself gives the same plan however long it took.
   * Stays on the calling thread (a function does not cross to a worker).
   */
  clock?: () => number;
}

export interface SolveProgress {
  elapsedMs: number;
  iterations: number;
  served: number;
  unserved: number;
  routesUsed: number;
  /** Level-4 cost of the best plan (working time or distance, in problem units). */
  cost: number;
}

export interface StopVisit {
  kind: 'stop';
  stop: number;
  /** Driving time and distance of the leg into this stop (break pauses excluded). */
  travel: number;
  distance: number;
  arrival: number;
  start: number;
  finish: number;
  /** How far `finish` is past the end of the window used (0 when on time). */
  late: number;
  /** Cumulative load served on this route after this visit, per dimension. */
  loadAfter: Float64Array;
}

export interface BreakVisit {
  kind: 'break';
  start: number;
  finish: number;
}

export type Visit = StopVisit | BreakVisit;

export interface RouteSchedule {
  vehicle: number;
  /** Departure from the start location. */
  start: number;
  /** Arrival at the end location; for an open route the finish of the last service. */
  end: number;
  /** The leg from the last stop to the end location (0 for an open route). */
  endTravel: number;
  endDistance: number;
  /** Stops and breaks in time order. */
  visits: Visit[];
  distance: number;
  driving: number;
  service: number;
  waiting: number;
  breakTime: number;
  /** end − start. */
  working: number;
  overtime: number;
  lateness: number;
  /** Sum over dimensions of load above capacity (only with allowOverload). */
  overload: number;
  /** Total load per dimension. */
  load: Float64Array;
}

export type UnservedReason =
  | 'no_compatible_vehicle'
  | 'duration_exceeds_window'
  | 'load_exceeds_capacity'
  | 'unreachable_in_shift'
  | 'missing_location'
  | 'dropped_for_capacity_or_time'
  | 'locked_driver_cannot_serve';

export interface UnservedStop {
  stop: number;
  reason: UnservedReason;
  message: string;
  /**
   * Up to three single changes that would serve it in this plan, smallest first (unserved-hints.ts);
   * absent when the limit left no time to look for them.
   */
  hints?: UnservedHint[];
}

/** What one hint changes (decisions.md "Unserved reasons"): of the stop, or of one driver. */
export type { UnservedHintKind };

/**
 * One change that would let an unserved stop be served in this plan, every served stop kept:
 * found by trial insertion under the changed rule and checked by the route evaluator with the
 * change applied, the amount rounded up to whole minutes (time units on benchmark instances)
 * or whole load units.
 */
export interface UnservedHint {
  kind: UnservedHintKind;
  /** Minutes for the time kinds, load units for `driver_capacity`, 1 for `driver_type`. */
  amount: number;
  /** The driver whose route serves it (every kind: where the checked insertion went). */
  vehicle: number;
  /** The stop's window changed (index among its windows), for the window kinds. */
  window?: number;
  /** The load dimension raised (index into Problem.dimensions), for `driver_capacity`. */
  dimension?: number;
  /** The type (project) or tag (one-off) the driver would have, for `driver_type`. */
  label?: string;
  /** The changed value: the new window end or start, duration or shift end (time units), or capacity. */
  value?: number;
  /** One line for people, e.g. "its window ending 25 min later (11:25)". */
  text: string;
}

export interface OperatorStats {
  name: string;
  /** Moves priced. */
  tries: number;
  /** Moves applied. */
  improvements: number;
  /** The local search's time, split among the operators by sampled calls. */
  ms: number;
}

export interface SolveResult {
  /** Only the routes that serve at least one stop, in vehicle order. */
  routes: RouteSchedule[];
  /** In stop order. */
  unserved: UnservedStop[];
  stats: {
    elapsedMs: number;
    iterations: number;
    /** When the first complete plan (construction and fill) was ready, since the solve began. */
    firstPlanMs: number;
    /** When the search last found a better plan, since the solve began. */
    bestFoundMs: number;
    /** The seed and the searches run (threads). */
    seed: number;
    threads: number;
    /** Why the search stopped. */
    stoppedBy: 'time' | 'iterations' | 'no_improvement' | 'aborted' | 'complete';
    /**
     * How a command's `--time-limit`, which counts from the command's start, was spent (set by
     * `routeplan solve`): the limit, when the solve began since the command's start (the loading's
     * share), and the time kept back for the output. All in milliseconds.
     */
    command?: { limitMs: number; solveStartMs: number; outputReserveMs: number };
    /** Local-search counters per operator, when a local search ran (not part of the plan output). */
    operators?: OperatorStats[];
  };
}
