/**
 * The shapes of actions (schedules, optimizations, hand-made plans) as the API answers them: zod
 * schemas that api-types.ts derives its types from and the OpenAPI document (../openapi/) describes.
 */
import { z } from 'zod';
import { errorBodySchema, warningSchema } from '../../error-schema.js';
import { planSchema, planViolationSchema } from '../../output/plan-schema.js';

/** The action's status as decisions.md names them; a cancel is `failed` with the code `cancelled`. */
export const actionStatusSchema = z.enum(['pending', 'finished', 'failed']);

export const actionNameSchema = z.enum(['schedule', 'optimize', 'reoptimize']);

/**
 * How a project's plan was made: `optimized` by its optimize action, `edited` by hand (POST
 * /v1.0/project/{id}/plans, kept as a finished action), `reoptimized` for the rest of a dispatched
 * day. A record from before kinds reads `optimized`.
 */
export const planKindSchema = z.enum(['optimized', 'edited', 'reoptimized']);

/** The solver's best plan so far, as GET /v2/schedules/{actionUuid} shows it while the action runs. */
export const actionProgressSchema = z.object({
  elapsed_ms: z.number(),
  iterations: z.number(),
  served: z.number(),
  unserved: z.number(),
  routes_used: z.number(),
  cost: z.number(),
});

/** What GET /v2/schedules/{actionUuid} answers. */
export const actionRecordSchema = z.object({
  actionUuid: z.string(),
  actionName: actionNameSchema,
  status: actionStatusSchema,
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().optional(),
  finished_at: z.string().optional(),
  /** For a project's actions: the project optimized. */
  project_id: z.string().optional(),
  /** For a project's actions: the project's version optimized (its stops and drivers as they were then). */
  project_version: z.number().int().optional(),
  /** For a project's actions: how its plan was made. */
  kind: planKindSchema.optional(),
  /** For an `edited` plan: the plan it was edited from, when the request named one. */
  based_on: z.string().optional(),
  warnings: z.array(warningSchema).optional(),
  solution: planSchema.optional(),
  error: errorBodySchema.shape.error.optional(),
  /** While pending and once the solver reported: its best plan so far (never stored). */
  progress: actionProgressSchema.optional(),
});

/** The 202 of POST /schedules, …/optimize and …/reoptimize: poll the action at its Location. */
export const acceptedActionSchema = z.object({
  actionUuid: z.string(),
  actionName: actionNameSchema,
  status: z.literal('pending'),
  /** POST /schedules: what validation noticed without refusing the request. */
  warnings: z.array(warningSchema).optional(),
  /** A project's optimization: the project. */
  project_id: z.string().optional(),
});

/** A project's routes as a user arranged them: driver id → the ids of the stops it serves, in order (POST …/plans). */
export const handPlanBodySchema = z.object({
  routes: z.record(z.string(), z.array(z.string())),
  unserved: z.array(z.string()).optional(),
  /** The plan the user started from (an actionUuid of the project). */
  base: z.string().optional(),
});

/** What POST /v1.0/project/{id}/plans/evaluate answers: the routes re-timed and every rule they break. */
export const planEvaluationSchema = z.object({
  project_version: z.number().int(),
  plan: planSchema,
  violations: z.array(planViolationSchema),
});

/** What POST /v1.0/project/{id}/plans answers: the plan kept as a finished action, with the rules it breaks. */
export const keptPlanSchema = actionRecordSchema.extend({ violations: z.array(planViolationSchema) });

/** One optimize action of a project, as the project's answers list it. */
export const optimizationSummarySchema = z.object({
  actionUuid: z.string(),
  status: actionStatusSchema,
  created_at: z.string(),
  kind: planKindSchema,
});
