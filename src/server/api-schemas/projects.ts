/**
 * The shapes of projects as the API answers them (and the store keeps them): zod schemas that
 * api-types.ts and store/ports.ts derive their types from and the OpenAPI document describes.
 */
import { z } from 'zod';
import { warningSchema } from '../../error-schema.js';
import { optimizationSummarySchema } from './actions.js';
import { dispatchViewSchema, notificationsViewSchema } from './dispatch.js';

/** A place the geocoder offered for an address. */
export const geocodingCandidateSchema = z.object({
  lat: z.number(),
  lng: z.number(),
  /** The geocoder's name for the place. */
  label: z.string(),
});

/** An address of a project that the geocoder could not place well (decisions.md, "Geocoding"). */
export const geocodingFailureSchema = z.object({
  /** The stop's or driver's name. */
  stop: z.string(),
  address: z.string(),
  /** not_found (left out of optimization until fixed), ambiguous or outlier (placed, worth a look), failed. */
  problem: z.enum(['not_found', 'ambiguous', 'outlier', 'failed']),
  message: z.string(),
  /** Where in the project, e.g. `stops[3].location`. */
  path: z.string(),
  /** The places the geocoder offered, best first (at most 5; none when not found): the page lets the user pick one. */
  candidates: z.array(geocodingCandidateSchema).optional(),
});

/** A stop or a driver as given, with the id the service gave it (kept for good). */
const itemWithIdSchema = z.looseObject({ id: z.string() });

/** A project as stored: the user's fields as given, its ids, version and geocoding. */
export const projectRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  date: z.string(),
  drivers: z.array(itemWithIdSchema),
  stops: z.array(itemWithIdSchema),
  settings: z.record(z.string(), z.unknown()),
  /** The project's page, where it is optimized. */
  url: z.string(),
  created_at: z.string(),
  /**
   * 1 at creation, one more per change of its contents (name, date, settings, stops, drivers); the
   * answers' ETag. A record stored before versions existed has none: it reads as version 1.
   */
  version: z.number().int().optional(),
  warnings: z.array(warningSchema).optional(),
  /** Only for a project with addresses to geocode: `pending` until the geocoder is through. */
  geocoding_status: z.enum(['pending', 'done']).optional(),
  /** The addresses the geocoder could not place well, once done. */
  geocoding: z.array(geocodingFailureSchema).optional(),
});

/** A project as every route that answers one shows it: with its plans, dispatch and customer messages. */
export const projectAnswerSchema = projectRecordSchema.extend({
  /** Its plans, newest first, status current. */
  optimizations: z.array(optimizationSummarySchema),
  /** Once dispatched. */
  dispatch: dispatchViewSchema.optional(),
  notifications: notificationsViewSchema,
});

/** A project in the caller's list (GET /v1.0/projects), with its latest plan. */
export const projectListItemSchema = projectRecordSchema.pick({ id: true, name: true, date: true, url: true, created_at: true }).extend({
  drivers: z.number().int(),
  stops: z.number().int(),
  latest_optimization: optimizationSummarySchema.nullable(),
});

export const projectListSchema = z.object({ projects: z.array(projectListItemSchema) });
