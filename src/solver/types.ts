/** What the solver is asked and what it answers. The solver core reads only `Problem`. */
import type { UnservedHintKind } from '../model/hint-kinds.js';
import type { Levers } from './levers.js';

/** The levers (levers.ts) are switched here too: absent, each takes its default (params.ts). */
export interface SolveOptions extends Levers {
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
  /**
   * Stop after this many search iterations (reproducible stop); each search with one route fewer
   * (fewer-routes.ts) gets as many again, and the stats count the iterations of them all.
   */
  maxIterations?: number;
  /** Stop after this many iterations without improving the best plan. */
  maxNoImprove?: number;
  /**
   * Stop once the search stalls (stop/plateau.ts), well before the time limit when the plan is
   * done. Default: on, unless `maxIterations` is given. The stall counts iterations and work,
   * never time: a seed reproduces the plan of a search that stopped by itself.
   */
  stopWhenStalled?: boolean;
  /**
   * Search for the whole time limit (`--full-time`): a search that stops by itself is followed by
   * another from a new first plan while time is left, and the best plan wins (restart-at-stall.ts); with
   * threads, each search does so, and a decomposition runs on to the limit. Default: off.
   */
  fullTime?: boolean;
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
