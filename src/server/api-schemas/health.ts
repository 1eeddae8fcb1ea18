/** What GET /healthz answers: a zod schema app.ts's answer is typed by and the OpenAPI document describes. */
import { z } from 'zod';

/** The solve queue's counts; per key by owner id (a digest prefix of the API key, never the key). */
export const queueViewSchema = z.object({
  running: z.number().int(),
  waiting: z.number().int(),
  concurrency: z.number().int(),
  capacity: z.number().int(),
  per_key: z.number().int(),
  waiting_by_key: z.record(z.string(), z.number().int()),
});

const storeKindSchema = z.enum(['data_dir', 'postgres']);

/** 200 `ok`; 503 `unhealthy` (the store cannot write, the queue unread) or `shutting_down`. */
export const healthSchema = z.union([
  z.object({ status: z.literal('ok'), store: z.object({ kind: storeKindSchema, writable: z.literal(true) }), queue: queueViewSchema }),
  z.object({
    status: z.literal('unhealthy'),
    store: z.object({ kind: storeKindSchema, writable: z.literal(false), reason: z.string().optional() }),
    queue: queueViewSchema.nullable(),
  }),
  z.object({ status: z.literal('shutting_down') }),
]);

export type HealthView = z.infer<typeof healthSchema>;
export type QueueView = z.infer<typeof queueViewSchema>;
