/**
 * The JSON plan, contract version 1, as zod schemas: the one description of its shape, from which
 * plan-types.ts derives the TypeScript types and the service's OpenAPI document its JSON Schema
 * (src/server/openapi/). Later versions may add fields, never rename or remove these. Times are
 * seconds since midnight of the plan's day (they may exceed 86,400 for overnight plans); each `*_s`
 * time has an `HH:mm` twin. For benchmark instances, times and distances are in the instance's own
 * units. Nothing validates plans with these at run time: the solver's output is trusted; the
 * tests check the service's answers against the document made from them.
 */
import { z } from 'zod';
import { TRAVEL_SOURCE_NAMES } from '../model/travel-sources.js';
import { HINT_KINDS } from '../model/hint-kinds.js';

/** A number (the scalar dimension) or named dimensions (`{weight: 12, volume: 0.4}`). */
export const loadValueSchema = z.union([z.number(), z.record(z.string(), z.number())]);

export const planLocationSchema = z.object({ lat: z.number(), lng: z.number() });

/** Carried fields (notes, custom_notes, phone_number, email, displayOrderId, customerOrderNumber) ride along unchanged. */
export const planStopVisitSchema = z.looseObject({
  kind: z.literal('stop'),
  stop: z.string(),
  stop_index: z.number().int(),
  location: planLocationSchema,
  travel_s: z.number(),
  distance_m: z.number(),
  /** null for a project stop without a duration (the interface returns no ETAs then). */
  arrival_s: z.number().nullable(),
  start_s: z.number().nullable(),
  finish_s: z.number().nullable(),
  arrival: z.string().nullable(),
  start: z.string().nullable(),
  finish: z.string().nullable(),
  late_s: z.number(),
  load_after: loadValueSchema,
});

export const planBreakVisitSchema = z.object({
  kind: z.literal('break'),
  start_s: z.number(),
  finish_s: z.number(),
  start: z.string(),
  finish: z.string(),
});

export const planVisitSchema = z.discriminatedUnion('kind', [planStopVisitSchema, planBreakVisitSchema]);

export const planEndpointSchema = z.object({
  time_s: z.number(),
  time: z.string(),
  /** null at the end of an open route. */
  location: planLocationSchema.nullable(),
});

/** A GeoJSON LineString (RFC 7946): positions are [lng, lat]. */
export const planGeometrySchema = z.object({
  type: z.literal('LineString'),
  coordinates: z.array(z.tuple([z.number(), z.number()])),
});

/** Carried through unchanged from the driver when given: phone_number. */
export const planRouteSchema = z.looseObject({
  vehicle: z.string(),
  vehicle_index: z.number().int(),
  start: planEndpointSchema,
  visits: z.array(planVisitSchema),
  end: planEndpointSchema.extend({ travel_s: z.number(), distance_m: z.number() }),
  distance_m: z.number(),
  driving_s: z.number(),
  service_s: z.number(),
  waiting_s: z.number(),
  break_s: z.number(),
  working_s: z.number(),
  overtime_s: z.number(),
  lateness_s: z.number(),
  load: loadValueSchema,
  /** Added after version 1's first release, only with `allowCapacityOverload`: the load above capacity per dimension. */
  overload: loadValueSchema.optional(),
  /** Added after version 1's first release, with road travel: the route along the roads as the provider drew it. */
  geometry: planGeometrySchema.optional(),
});

/** Carried fields ride along as on a served visit (e.g. the customer's phone_number). */
/**
 * One fix hint of an unserved stop (decisions.md "Unserved reasons"), checked by the solver on this
 * plan: with the change applied, the stop fits `driver`'s route as it stands.
 */
export const planHintSchema = z.object({
  kind: z.enum(HINT_KINDS),
  /** One line for people: "Window ending 25 min later (11:25), on Camille's route". */
  text: z.string(),
  /** The driver whose route would take the stop; for the driver kinds, the driver changed. */
  driver: z.string(),
  /** The time kinds: by how many whole minutes (time units on a benchmark instance). */
  minutes: z.number().optional(),
  /** The window kinds: which of the stop's windows (0 = its first). */
  window: z.number().int().optional(),
  /** `window_end_later`, `window_start_earlier`, `shift_end_later`: the new time. */
  time_s: z.number().optional(),
  time: z.string().optional(),
  /** `duration_shorter`: the new service duration. */
  duration_s: z.number().optional(),
  /** `driver_capacity`: by how much, the new capacity and, with named loads, the dimension. */
  amount: z.number().optional(),
  capacity: z.number().optional(),
  dimension: z.string().optional(),
  /** `driver_type`: the type (a tag on a one-off request) the driver would have. */
  type: z.string().optional(),
});

export const planUnservedSchema = z.looseObject({
  stop: z.string(),
  stop_index: z.number().int(),
  reason: z.string(),
  message: z.string(),
  /** Added after version 1's first release: where the stop is (null when it has none), for maps. */
  location: planLocationSchema.nullable().optional(),
  /**
   * Added after version 1's first release: up to three single changes that would let the stop be
   * served in this plan, every served stop kept, smallest first (empty when none helps; absent when
   * the time limit left no time to look for them).
   */
  hints: z.array(planHintSchema).optional(),
});

export const planSummarySchema = z.object({
  routes_used: z.number().int(),
  served: z.number().int(),
  unserved: z.number().int(),
  priority_served: z.number(),
  distance_m: z.number(),
  driving_s: z.number(),
  service_s: z.number(),
  waiting_s: z.number(),
  break_s: z.number(),
  working_s: z.number(),
  lateness_s: z.number(),
  overtime_s: z.number(),
  /** Only with `allowCapacityOverload`: the routes' overloads added up per dimension. */
  overload: loadValueSchema.optional(),
});

/** Where the plan's travel times came from (absent for benchmarks). */
export const planTravelSchema = z.object({
  source: z.enum(TRAVEL_SOURCE_NAMES as [(typeof TRAVEL_SOURCE_NAMES)[number], ...(typeof TRAVEL_SOURCE_NAMES)[number][]]),
  profile: z.string().optional(),
  /** The provider's base URL, or the matrix file as given. */
  url: z.string().optional(),
});

/** How the solver ran: for people and scripts, never compared. */
export const planSolverSchema = z.object({
  iterations: z.number(),
  /** When the first complete plan was ready, and when the search last improved it, in seconds since the solve began. */
  first_plan_s: z.number(),
  best_found_s: z.number(),
  elapsed_s: z.number(),
  /** `no_improvement` (the search had stalled), `time`, `iterations`, `aborted`, or `complete` (nothing to search). */
  stop_reason: z.string(),
  threads: z.number().int(),
  seed: z.number(),
  /**
   * From `routeplan solve`: the command's `--time-limit`, when the solve began and the time kept for
   * the output, in seconds since the command started (the solve's share is the difference).
   */
  time_limit_s: z.number().optional(),
  solve_started_s: z.number().optional(),
  output_reserve_s: z.number().optional(),
});

export const planWarningSchema = z.object({ path: z.string(), message: z.string() });

/** A stop that is on a route in both plans, with another driver now. */
export const planDriverChangeSchema = z.object({ stop: z.string(), from: z.string(), to: z.string() });

/** A stop served in one plan and not in the other: `driver` is the one serving it in the plan that does. */
export const planStopChangeSchema = z.object({ stop: z.string(), driver: z.string() });

/** A total of the two plans: `delta` is after − before (negative: down). */
export const planFigureChangeSchema = z.object({ before: z.number(), after: z.number(), delta: z.number() });

/** What changed between a project's plan and the plan before it (plan-changes.ts). */
export const planChangesSchema = z.object({
  /** The actionUuid of the plan before. */
  against: z.string(),
  driver_changed: z.array(planDriverChangeSchema),
  /** Served now, not before (a new stop, or one that was unserved). */
  added: z.array(planStopChangeSchema),
  /** Served before, not now (removed from the project, or unserved). */
  removed: z.array(planStopChangeSchema),
  working_s: planFigureChangeSchema,
  distance_m: planFigureChangeSchema,
});

export const planSchema = z.object({
  version: z.literal(1),
  summary: planSummarySchema,
  routes: z.array(planRouteSchema),
  unserved: z.array(planUnservedSchema),
  travel: planTravelSchema.optional(),
  solver: planSolverSchema.optional(),
  /** On a project's plans after its first: what changed against the plan before it, fixed when recorded. */
  changes: planChangesSchema.optional(),
  /** What went wrong but left a plan (e.g. no road geometry: straight lines). */
  warnings: z.array(planWarningSchema).optional(),
});

export const violationKindSchema = z.enum(['late', 'overtime', 'overload', 'incompatible_types', 'lock_broken']);

/** A rule a plan made by hand breaks (plan-violations.ts), per stop or per route. */
export const planViolationSchema = z.object({
  kind: violationKindSchema,
  /** The route's driver (vehicle) name and index. */
  driver: z.string(),
  vehicle_index: z.number().int(),
  /** The stop concerned; absent for a route's own violation (overtime, overload). */
  stop: z.string().optional(),
  stop_index: z.number().int().optional(),
  /** How much: seconds for `late` and `overtime`, load units for `overload`. */
  amount: z.number().optional(),
  /** The load dimension of an overload ('' for a number load). */
  dimension: z.string().optional(),
  /**
   * Whether the project permits it (`max_stop_lateness`, `max_driver_overtime`, one-off allow*
   * flags): an optimized plan may have it too. The others the solver never makes.
   */
  permitted: z.boolean(),
  message: z.string(),
});
