/**
 * The error body of decisions.md and the warnings beside a result, as zod schemas: errors.ts
 * derives its types from them and the service's OpenAPI document describes every error with them.
 */
import { z } from 'zod';

export const errorDetailSchema = z.object({
  /** Where in the input, e.g. `stops[3].priority` (a header's name for a header, `If-Match`). */
  path: z.string(),
  message: z.string(),
});

export const errorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.array(errorDetailSchema) }),
});

/** A warning about the input that does not stop the solve (unknown fields, rounding, …). */
export const warningSchema = z.object({ path: z.string(), message: z.string() });
