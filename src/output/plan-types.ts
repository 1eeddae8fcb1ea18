/**
 * The JSON plan, contract version 1: the types of the shapes plan-schema.ts describes (the one
 * description, which the service's OpenAPI document is made from too).
 */
import type { z } from 'zod';
import type {
  loadValueSchema,
  planBreakVisitSchema,
  planChangesSchema,
  planDriverChangeSchema,
  planEndpointSchema,
  planFigureChangeSchema,
  planGeometrySchema,
  planHintSchema,
  planLocationSchema,
  planRouteSchema,
  planSchema,
  planSolverSchema,
  planStopChangeSchema,
  planStopVisitSchema,
  planSummarySchema,
  planTravelSchema,
  planUnservedSchema,
  planVisitSchema,
  planWarningSchema,
} from './plan-schema.js';

export type LoadValue = z.infer<typeof loadValueSchema>;
export type PlanLocation = z.infer<typeof planLocationSchema>;
export type PlanStopVisit = z.infer<typeof planStopVisitSchema>;
export type PlanBreakVisit = z.infer<typeof planBreakVisitSchema>;
export type PlanVisit = z.infer<typeof planVisitSchema>;
export type PlanEndpoint = z.infer<typeof planEndpointSchema>;
export type PlanRoute = z.infer<typeof planRouteSchema>;
export type PlanGeometry = z.infer<typeof planGeometrySchema>;
export type PlanUnserved = z.infer<typeof planUnservedSchema>;
export type PlanHint = z.infer<typeof planHintSchema>;
export type PlanSummary = z.infer<typeof planSummarySchema>;
export type PlanTravel = z.infer<typeof planTravelSchema>;
export type PlanSolver = z.infer<typeof planSolverSchema>;
export type Plan = z.infer<typeof planSchema>;
export type PlanWarning = z.infer<typeof planWarningSchema>;
export type PlanDriverChange = z.infer<typeof planDriverChangeSchema>;
export type PlanStopChange = z.infer<typeof planStopChangeSchema>;
export type PlanFigureChange = z.infer<typeof planFigureChangeSchema>;
export type PlanChanges = z.infer<typeof planChangesSchema>;
