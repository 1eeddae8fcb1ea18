/**
 * GET /v2/schedules?status=failed|pending|finished&limit=&cursor=: the calling key's actions, newest
 * first, a page at a time (action-list.ts holds the query's and the answer's schemas). A query the
 * schema refuses is 400 `invalid_query` naming each parameter at fault.
 */
import type { AppContext } from '../context.js';
import type { ApiCall } from './api-call.js';
import { HttpError, sendJson } from '../replies.js';
import { actionListQuerySchema, positionOf, type ActionListRequest } from '../../action-list.js';

export async function listActionsRoute(ctx: AppContext, call: ApiCall): Promise<void> {
  sendJson(call.reply, 200, await ctx.actions.list(call.owner, listRequestOf(call.req.url)));
}

function listRequestOf(url: string | undefined): ActionListRequest {
  const parsed = actionListQuerySchema.safeParse(queryOf(url));
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({ path: issuePath(issue), message: issue.message }));
    throw invalidQuery(details);
  }
  const { status, limit, cursor } = parsed.data;
  const after = cursor === undefined ? undefined : positionOf(cursor);
  if (after === null) throw invalidQuery([{ path: 'cursor', message: "not a cursor of this list: pass a page's next_cursor as it is" }]);
  return { limit, ...(status !== undefined ? { status } : {}), ...(after !== undefined ? { after } : {}) };
}

/** The query's parameters; one given twice is kept as a list, which the schema refuses (which of the two was meant?). */
function queryOf(url: string | undefined): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URL(url ?? '/', 'http://local').searchParams) {
    const earlier = query[name];
    query[name] = earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  return query;
}

/** The parameter an issue is about; an unknown parameter's issue names it in `keys`. */
function issuePath(issue: { path: PropertyKey[]; code: string; keys?: string[] }): string {
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) return issue.keys.join(', ');
  return issue.path.map(String).join('.') || 'query';
}

function invalidQuery(details: { path: string; message: string }[]): HttpError {
  const message = `invalid query: ${details.map((detail) => `${detail.path}: ${detail.message}`).join('; ')}`;
  return new HttpError(400, 'invalid_query', message, details);
}
