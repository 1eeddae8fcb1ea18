/**
 * The shapes the JSON API answers with, for the service that writes them and the web page that
 * reads them (src/web imports these as types only, so nothing here may need Node). Each is derived
 * from its zod schema in api-schemas/, the one description of the shape, which the OpenAPI
 * document (openapi/) is made from too.
 */
import type { z } from 'zod';
import type {
  actionNameSchema,
  actionProgressSchema,
  actionRecordSchema,
  actionStatusSchema,
  handPlanBodySchema,
  optimizationSummarySchema,
  planEvaluationSchema,
  planKindSchema,
} from './api-schemas/actions.js';
import type { geocodingCandidateSchema, geocodingFailureSchema } from './api-schemas/projects.js';
import type { sessionViewSchema, tilesViewSchema } from './api-schemas/session.js';
import type {
  dispatchStopViewSchema,
  dispatchViewSchema,
  driverLinkViewSchema,
  driverPositionSchema,
  driverRouteViewSchema,
  driverStopViewSchema,
  failureReasonCodeSchema,
  notificationKindSchema,
  notificationsViewSchema,
  notificationViewSchema,
  promisedWindowSchema,
  proofSettingSchema,
  stopProofSchema,
  stopStatusSchema,
  stopStatusUpdateSchema,
  trackingViewSchema,
} from './api-schemas/dispatch.js';

export type { PlanViolation, ViolationKind } from '../output/plan-violations.js';

export type ActionStatus = z.infer<typeof actionStatusSchema>;
export type ActionName = z.infer<typeof actionNameSchema>;
export type PlanKind = z.infer<typeof planKindSchema>;
export type ActionProgress = z.infer<typeof actionProgressSchema>;
export type ActionRecord = z.infer<typeof actionRecordSchema>;
export type HandPlanBody = z.infer<typeof handPlanBodySchema>;
export type PlanEvaluation = z.infer<typeof planEvaluationSchema>;
export type OptimizationSummary = z.infer<typeof optimizationSummarySchema>;

export type GeocodingFailure = z.infer<typeof geocodingFailureSchema>;
export type GeocodingCandidate = z.infer<typeof geocodingCandidateSchema>;

export type SessionView = z.infer<typeof sessionViewSchema>;
export type TilesView = z.infer<typeof tilesViewSchema>;

export type StopStatus = z.infer<typeof stopStatusSchema>;
export type DispatchStopView = z.infer<typeof dispatchStopViewSchema>;
export type FailureReasonCode = z.infer<typeof failureReasonCodeSchema>;
export type DriverPosition = z.infer<typeof driverPositionSchema>;
export type StopProof = z.infer<typeof stopProofSchema>;
export type DriverLinkView = z.infer<typeof driverLinkViewSchema>;
export type DispatchView = z.infer<typeof dispatchViewSchema>;
export type NotificationKind = z.infer<typeof notificationKindSchema>;
export type NotificationView = z.infer<typeof notificationViewSchema>;
export type NotificationsView = z.infer<typeof notificationsViewSchema>;
export type DriverStopView = z.infer<typeof driverStopViewSchema>;
export type DriverRouteView = z.infer<typeof driverRouteViewSchema>;
export type ProofSetting = z.infer<typeof proofSettingSchema>;
export type StopStatusUpdate = z.infer<typeof stopStatusUpdateSchema>;
export type PromisedWindowView = z.infer<typeof promisedWindowSchema>;
export type TrackingView = z.infer<typeof trackingViewSchema>;
