/**
 * GET /v2/schedules: the calling key's actions, newest first, a page at a time (issue 28, "Jobs a
 * team can see"), so that a failed action can be found and submitted again without reading logs.
 * The query and the answer are zod schemas, the one description of their shapes: the route
 * validates with them and the OpenAPI document is made from them. The cursor is opaque to clients:
 * the position after the page's last action (its creation time and id, the order's own keys), so a
 * page stays right while newer actions arrive.
 */
import { z } from 'zod';
import { actionRecordSchema, actionStatusSchema } from './api-schemas/actions.js';

export const ACTION_LIST_LIMIT = { default: 50, max: 200 } as const;
/** Far longer than any cursor this service makes; a longer one is no cursor of ours. */
const MAX_CURSOR_LENGTH = 512;

export const actionListQuerySchema = z
  .object({
    status: actionStatusSchema.optional().describe('only the actions with this status; all when absent'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(ACTION_LIST_LIMIT.max)
      .default(ACTION_LIST_LIMIT.default)
      .describe(`actions per page (default ${ACTION_LIST_LIMIT.default}, at most ${ACTION_LIST_LIMIT.max})`),
    cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).optional().describe("the previous page's next_cursor"),
  })
  .strict();

/** An action as the list shows it: the record's own fields, without its request, plan or progress. */
/** An action as the list shows it: the record's own fields and a failed one's error, without its request, plan or progress. */
export const actionListItemSchema = actionRecordSchema.pick({
  actionUuid: true,
  actionName: true,
  status: true,
  created_at: true,
  updated_at: true,
  started_at: true,
  finished_at: true,
  project_id: true,
  kind: true,
  /** A failed action's error (`cancelled` for a cancelled one). */
  error: true,
});

export const actionListAnswerSchema = z.object({
  actions: z.array(actionListItemSchema),
  /** Where the next page starts; null on the last page. */
  next_cursor: z.string().nullable(),
});

export type ActionListQuery = z.infer<typeof actionListQuerySchema>;
export type ActionListItem = z.infer<typeof actionListItemSchema>;
export type ActionListAnswer = z.infer<typeof actionListAnswerSchema>;

/** Where a page starts: after the action created at `created_at` with this id (newest first, ids descending within one instant). */
export interface ListPosition {
  created_at: string;
  actionUuid: string;
}

/** What a store is asked for: at most `limit` of the owner's actions, from `after` on. */
export interface ActionListRequest {
  status?: ActionListItem['status'];
  limit: number;
  after?: ListPosition;
}

const positionSchema = z.object({ c: z.iso.datetime(), i: z.string().min(1).max(64) }).strict();

export function cursorOf(item: ActionListItem): string {
  return Buffer.from(JSON.stringify({ c: item.created_at, i: item.actionUuid })).toString('base64url');
}

/** The position a cursor names, or null when it is none of ours (damaged, or made up). */
export function positionOf(cursor: string): ListPosition | null {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = positionSchema.safeParse(decoded);
  return parsed.success ? { created_at: parsed.data.c, actionUuid: parsed.data.i } : null;
}

/** Whether `item` comes after `position` in the list's order (newest first, then ids descending). */
export function isAfter(item: ListPosition, position: ListPosition): boolean {
  if (item.created_at !== position.created_at) return item.created_at < position.created_at;
  return item.actionUuid < position.actionUuid;
}

/** The list's order: newest first, then ids descending (two actions of one millisecond keep one order). */
export function newestFirst(a: ListPosition, b: ListPosition): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.actionUuid < b.actionUuid ? 1 : a.actionUuid > b.actionUuid ? -1 : 0;
}
