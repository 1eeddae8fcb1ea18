/**
 * The shapes of a dispatched day (decisions.md, "Dispatch to drivers" and "The live day") as the
 * dispatcher, a driver's link and a customer's tracking link see them: zod schemas that
 * api-types.ts derives its types from and the OpenAPI document (../openapi/) describes.
 */
import { z } from 'zod';
import { planGeometrySchema } from '../../output/plan-schema.js';
import { PROOF_SETTINGS } from '../../input/schema/proof-setting.js';
import { tilesViewSchema } from './session.js';

/** A dispatched stop's progress, as the driver reported it. */
export const stopStatusSchema = z.enum(['planned', 'done', 'failed']);

/** The reasons a driver picks from when a stop fails. */
export const failureReasonCodeSchema = z.enum(['not_at_home', 'refused', 'address_not_found', 'damaged', 'other']);

/** A device reports its accuracy in metres; beyond this it is no position worth keeping. */
export const MAX_ACCURACY_M = 100_000;

/** A date and time as ISO 8601 writes it (`2026-11-23T09:41:00Z`, an offset allowed). */
const isoDateTime = z
  .string()
  .refine((text) => /^\d{4}-\d{2}-\d{2}T/.test(text) && Number.isFinite(Date.parse(text)))
  .meta({ description: 'an ISO 8601 date and time, e.g. 2026-11-23T09:41:00Z' });

/** A driver's last shared position (opt-in on the driver page); also what the page posts, checked with it (position.ts). */
export const driverPositionSchema = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  /** When the device took it. */
  at: isoDateTime,
  accuracy_m: z.number().min(0).max(MAX_ACCURACY_M).optional(),
});

/** Proof of delivery of a done stop: URLs answer only to the project's owner and that driver's link. */
export const stopProofSchema = z.object({
  photo_url: z.string().optional(),
  signature_url: z.string().optional(),
  recipient: z.string().optional(),
});

/** A window promised to a customer: seconds since midnight of the project's date (past 86,400 the next day). */
export const promisedWindowSchema = z.object({ start_s: z.number(), end_s: z.number() });

/** One stop of a dispatched plan, in the dispatch's `stops`. */
export const dispatchStopViewSchema = z.object({
  stop_id: z.string(),
  status: stopStatusSchema,
  /** When the driver marked it (the device's time of the tap); null while planned. */
  at: z.string().nullable(),
  /** Why a stop failed, as the driver wrote it. */
  reason: z.string().optional(),
  /** The driver whose route holds the stop. */
  driver_id: z.string(),
  /** Planned arrival as dispatched (seconds since midnight of the project's date; null without a duration). */
  arrival_s: z.number().nullable().optional(),
  /** The failure's reason from the driver page's list (`reason` keeps the driver's text). */
  reason_code: failureReasonCodeSchema.optional(),
  /** Current estimated arrival, re-timed after each report; absent before any. */
  eta_s: z.number().nullable().optional(),
  /** Whether the current estimate passes the stop's window end. */
  late: z.boolean().optional(),
  /** What the driver gave as proof of delivery, fetchable by the project's owner. */
  proof: stopProofSchema.optional(),
  /** The window its customer was last promised (absent without planned times). */
  promised: promisedWindowSchema.optional(),
  /** The customer's tracking page, `<public url>/track/<token>`. */
  tracking_url: z.string().optional(),
});

/** One driver's link to their driver page, shown to the dispatcher only. */
export const driverLinkViewSchema = z.object({
  driver_id: z.string(),
  driver_name: z.string(),
  /** The driver page, `<public url>/drivers/<token>`; absent once revoked (until a new link is made). */
  url: z.string().optional(),
  phone_number: z.string().optional(),
  expires_at: z.string(),
  revoked: z.boolean(),
  /** Stops on the driver's dispatched route. */
  stops: z.number().int(),
  /** The driver's last shared position, when they share it. */
  position: driverPositionSchema.optional(),
});

/** A project's dispatch (GET …/dispatch, and the project record's `dispatch`). */
export const dispatchViewSchema = z.object({
  /** The optimization whose plan was frozen as the day's routes. */
  actionUuid: z.string(),
  dispatched_at: z.string(),
  /** Only stops on a route (unserved stops are not dispatched), in route order. */
  stops: z.array(dispatchStopViewSchema),
  drivers: z.array(driverLinkViewSchema),
});

/** What POST /v1.0/project/{id}/dispatch takes (the body may be left out). */
export const dispatchRequestSchema = z.object({
  /** One of the project's finished optimizations; default: the latest. */
  actionUuid: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/)
    .optional(),
  /** Dispatch again over an earlier dispatch. */
  redispatch: z.boolean().optional(),
});

/** `planned` on dispatch, `revised` when the estimate leaves the promised window, `delivered` when done. */
export const notificationKindSchema = z.enum(['planned', 'delivered', 'revised']);

/** One customer e-mail, as recorded on the project. */
export const notificationViewSchema = z.object({
  id: z.string(),
  kind: notificationKindSchema,
  stop_id: z.string(),
  to: z.string(),
  subject: z.string(),
  created_at: z.string(),
  status: z.enum(['queued', 'sent', 'failed']),
  attempts: z.number().int(),
  sent_at: z.string().optional(),
  /** The last failure (SMTP reply or network error), when there was one. */
  error: z.string().optional(),
});

/** The project record's `notifications`: whether customers are notified, and every message. */
export const notificationsViewSchema = z.object({
  /** False when the service has no SMTP configured: nothing is sent. */
  enabled: z.boolean(),
  /** Newest first. */
  messages: z.array(notificationViewSchema),
});

/** One stop on a driver page (GET /drivers/{token}/route), in route order; also POST …/stops/{stopId}'s answer. */
export const driverStopViewSchema = z.object({
  stop_id: z.string(),
  /** The stop's (customer's) name as given. */
  name: z.string(),
  address: z.string().optional(),
  lat: z.number(),
  lng: z.number(),
  /** The customer's phone number, for tap to call. */
  phone_number: z.string().optional(),
  notes: z.string().optional(),
  custom_notes: z.record(z.string(), z.unknown()).optional(),
  /**
   * Planned arrival, service start and finish, seconds since midnight of the project's date (may pass
   * 86,400 on overnight routes); null when the project gives the stop no duration (no ETAs then).
   */
  arrival_s: z.number().nullable(),
  start_s: z.number().nullable(),
  finish_s: z.number().nullable(),
  status: stopStatusSchema,
  at: z.string().nullable(),
  reason: z.string().optional(),
  reason_code: failureReasonCodeSchema.optional(),
  /** Current estimated arrival after the day's reports (as on the dispatch's stops). */
  eta_s: z.number().nullable().optional(),
  late: z.boolean().optional(),
  proof: stopProofSchema.optional(),
});

/** `settings.proof`: what a driver must give on Done. */
export const proofSettingSchema = z.enum(PROOF_SETTINGS);

const routeEndSchema = z.object({ lat: z.number(), lng: z.number(), time_s: z.number() });

/** What a driver's link reads: their own route only, never another driver's or the project's. */
export const driverRouteViewSchema = z.object({
  project: z.object({ name: z.string(), date: z.string() }),
  driver: z.object({ id: z.string(), name: z.string() }),
  dispatched_at: z.string(),
  expires_at: z.string(),
  /** Where the day starts and ends, when the driver has them. */
  start: routeEndSchema.optional(),
  end: routeEndSchema.optional(),
  /** The route along the roads (a GeoJSON LineString, [lng, lat]), when it was planned with road travel. */
  geometry: planGeometrySchema.optional(),
  stops: z.array(driverStopViewSchema),
  /** What the project's `settings.proof` asks for on Done (absent: nothing). */
  proof_required: proofSettingSchema.optional(),
  /** The basemap of the page's small map, as the dispatcher's page has it (GET /session `tiles`). */
  tiles: tilesViewSchema.nullable().optional(),
});

/** What the driver page posts for a stop (POST /drivers/{token}/stops/{stopId}); status-update.ts checks it. */
export const stopStatusUpdateSchema = z.object({
  status: z.enum(['done', 'failed', 'planned']),
  /** For `failed`: the driver's words (at most 500 characters); `other` needs it. */
  reason: z.string().max(500).optional(),
  /** The device's time of the tap (ISO 8601); the server's time when absent or in the future. */
  at: z.string().optional(),
  /** For `failed`: the reason from the list; `other` needs `reason`. A bare `reason` (older pages) counts as `other`. */
  reason_code: failureReasonCodeSchema.optional(),
  /** For `done`: who took the delivery (at most 200 characters). */
  recipient: z.string().max(200).optional(),
  /** For `done`: the photo, base64 (or a data: URL) of a JPEG, PNG or WebP of at most 2.5 MB. */
  photo: z.string().optional(),
  /** For `done`: the drawn signature, base64 (or a data: URL) of a PNG, JPEG or WebP of at most 200 kB. */
  signature: z.string().optional(),
});

/** What POST /drivers/{token}/position answers: the position as kept, and whether it was newer than the one kept. */
export const sharedPositionSchema = z.object({ position: driverPositionSchema, kept: z.boolean() });

/** What a customer's tracking link reads (GET /track/{token}/status): their own stop, nothing of anyone else's. */
export const trackingViewSchema = z.object({
  /** The stop's (customer's own) name. */
  name: z.string(),
  project: z.object({ name: z.string(), date: z.string() }),
  status: stopStatusSchema,
  /** When the driver marked it done or failed; null while planned. */
  at: z.string().nullable(),
  /** Only when failed: why, in words for the customer (never the driver's own text). */
  failure: z.string().optional(),
  /** What the customer was last promised; null for a stop without planned times. */
  promised: promisedWindowSchema.nullable(),
  /** Estimated arrival: the live re-timing's when there is one, else the planned arrival; null once done or failed. */
  eta_s: z.number().nullable(),
  /** Stops of the same route before this one that are still to do (0 once it is done or failed). */
  stops_before: z.number().int(),
});
