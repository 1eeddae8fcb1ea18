/**
 * The JSON plan, contract version 1. Later versions may add fields, never rename or remove
 * these. Times are seconds since midnight of the plan's day (they may exceed 86,400 for
 * overnight plans); each `*_s` time has an `HH:mm` twin. For benchmark instances, times and
 * distances are in the instance's own units.
 */
import type { UnservedHintKind } from '../model/hint-kinds.js';
import type { TravelSourceName } from '../model/travel-sources.js';

export type LoadValue = number | Record<string, number>;

export interface PlanLocation {
  lat: number;
  lng: number;
}

export interface PlanStopVisit {
  kind: 'stop';
  stop: string;
  stop_index: number;
  location: PlanLocation;
  travel_s: number;
  distance_m: number;
  /** null for a project stop without a duration (the interface returns no ETAs then). */
  arrival_s: number | null;
  start_s: number | null;
  finish_s: number | null;
  arrival: string | null;
  start: string | null;
  finish: string | null;
  late_s: number;
  load_after: LoadValue;
  /** Carried through unchanged when given: notes, custom_notes, phone_number, email, displayOrderId, customerOrderNumber. */
  [passthrough: string]: unknown;
}

export interface PlanBreakVisit {
  kind: 'break';
  start_s: number;
  finish_s: number;
  start: string;
  finish: string;
}

export type PlanVisit = PlanStopVisit | PlanBreakVisit;

export interface PlanEndpoint {
  time_s: number;
  time: string;
  /** null at the end of an open route. */
  location: PlanLocation | null;
}

export interface PlanRoute {
  vehicle: string;
  vehicle_index: number;
  start: PlanEndpoint;
  visits: PlanVisit[];
  end: PlanEndpoint & { travel_s: number; distance_m: number };
  distance_m: number;
  driving_s: number;
  service_s: number;
  waiting_s: number;
  break_s: number;
  working_s: number;
  overtime_s: number;
  lateness_s: number;
  load: LoadValue;
  /**
   * Added in version 1 after its first release, only with `allowCapacityOverload`: the load above
   * the vehicle's capacity, per dimension (0 where within it).
   */
  overload?: LoadValue;
  /**
   * Added in version 1 after its first release, with road travel (OSRM, Valhalla): the route along
   * the roads, from its start through its stops to its end, as the provider's route service drew it.
   */
  geometry?: PlanGeometry;
  /** Carried through unchanged from the driver when given: phone_number. */
  [passthrough: string]: unknown;
}

/** A GeoJSON LineString (RFC 7946): positions are [lng, lat]. */
export interface PlanGeometry {
  type: 'LineString';
  coordinates: [number, number][];
}

export interface PlanUnserved {
  stop: string;
  stop_index: number;
  reason: string;
  message: string;
  /** Added in version 1 after its first release: where the stop is (null when it has none), for maps. */
  location?: PlanLocation | null;
  /**
   * Added in version 1 after its first release: up to three single changes that would let the stop
   * be served in this plan, every served stop kept, smallest first (empty when none helps; absent
   * when the time limit left no time to look for them).
   */
  hints?: PlanHint[];
  /** Carried through unchanged, as on a served visit (e.g. the customer's phone_number). */
  [passthrough: string]: unknown;
}

/**
 * One fix hint of an unserved stop (decisions.md "Unserved reasons"), checked by the solver on this
 * plan: with the change applied, the stop fits `driver`'s route as it stands.
 */
export interface PlanHint {
  kind: UnservedHintKind;
  /** One line for people: "Window ending 25 min later (11:25), on Camille's route". */
  text: string;
  /** The driver whose route would take the stop; for the driver kinds, the driver changed. */
  driver: string;
  /** The time kinds: by how many whole minutes (time units on a benchmark instance). */
  minutes?: number;
  /** The window kinds: which of the stop's windows (0 = its first). */
  window?: number;
  /** `window_end_later`, `window_start_earlier`, `shift_end_later`: the new time. */
  time_s?: number;
  time?: string;
  /** `duration_shorter`: the new service duration. */
  duration_s?: number;
  /** `driver_capacity`: by how much, the new capacity and, with named loads, the dimension. */
  amount?: number;
  capacity?: number;
  dimension?: string;
  /** `driver_type`: the type (a tag on a one-off request) the driver would have. */
  type?: string;
}

export interface PlanSummary {
  routes_used: number;
  served: number;
  unserved: number;
  priority_served: number;
  distance_m: number;
  driving_s: number;
  service_s: number;
  waiting_s: number;
  break_s: number;
  working_s: number;
  lateness_s: number;
  overtime_s: number;
  /** Added in version 1 after its first release, only with `allowCapacityOverload`: the routes' overloads added up per dimension. */
  overload?: LoadValue;
}

/** Where the plan's travel times came from (added in version 1 after its first release; absent for benchmarks). */
export interface PlanTravel {
  source: TravelSourceName;
  profile?: string;
  /** The provider's base URL, or the matrix file as given. */
  url?: string;
}

/** How the solver ran (added in version 1 after its first release): for people and scripts, never compared. */
export interface PlanSolver {
  iterations: number;
  /** When the first complete plan was ready, and when the search last improved it, in seconds since the solve began. */
  first_plan_s: number;
  best_found_s: number;
  elapsed_s: number;
  /** `no_improvement` (the search had stalled), `time`, `iterations`, `aborted`, or `complete` (nothing to search). */
  stop_reason: string;
  threads: number;
  seed: number;
  /**
   * From `routeplan solve` (added in version 1 later still): the command's `--time-limit`, when the
   * solve began and the time kept for the output, in seconds since the command started. The limit
   * bounds the whole command, so the solve's share is time_limit_s − solve_started_s − output_reserve_s.
   */
  time_limit_s?: number;
  solve_started_s?: number;
  output_reserve_s?: number;
}

export interface Plan {
  version: 1;
  summary: PlanSummary;
  routes: PlanRoute[];
  unserved: PlanUnserved[];
  travel?: PlanTravel;
  solver?: PlanSolver;
  /**
   * Added in version 1 after its first release, on a project's plans after its first: what changed
   * against the plan before it (plan-changes.ts), fixed when the plan is recorded.
   */
  changes?: PlanChanges;
  /** Added in version 1 after its first release: what went wrong but left a plan (e.g. no road geometry: straight lines). */
  warnings?: PlanWarning[];
}

export interface PlanWarning {
  path: string;
  message: string;
}

/** A stop that is on a route in both plans, with another driver now. */
export interface PlanDriverChange {
  stop: string;
  from: string;
  to: string;
}

/** A stop served in one plan and not in the other: `driver` is the one serving it in the plan that does. */
export interface PlanStopChange {
  stop: string;
  driver: string;
}

/** A total of the two plans: `delta` is after − before (negative: down). */
export interface PlanFigureChange {
  before: number;
  after: number;
  delta: number;
}

/** What changed between a project's plan and the plan before it (decisions.md, "Editing a project and re-planning the day"). */
export interface PlanChanges {
  /** The actionUuid of the plan before. */
  against: string;
  driver_changed: PlanDriverChange[];
  /** Served now, not before (a new stop, or one that was unserved). */
  added: PlanStopChange[];
  /** Served before, not now (removed from the project, or unserved). */
  removed: PlanStopChange[];
  working_s: PlanFigureChange;
  distance_m: PlanFigureChange;
}
