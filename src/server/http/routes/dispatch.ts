/**
 * Dispatch, for the dispatcher (decisions.md, "Dispatch to drivers"); authenticated like every
 * /v1.0 route:
 *   POST /v1.0/project/{id}/dispatch         {actionUuid?, redispatch?} → 201 (first) / 200 (re-dispatch) DispatchView
 *   GET  /v1.0/project/{id}/dispatch         DispatchView, 404 not_dispatched
 *   GET  /v1.0/project/{id}/dispatch/solution  the frozen plan
 *   POST /v1.0/project/{id}/dispatch/drivers/{driverId}/revoke  withdraws the driver's link
 *   POST /v1.0/project/{id}/dispatch/drivers/{driverId}/link    a new link (the old one is withdrawn)
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError, readOptionalJsonBody, sendJson } from '../replies.js';
import type { DispatchRequest } from '../../services/dispatch/service.js';
import type { ProjectRecord } from '../../services/projects.js';
import { apiHandler, apiPath, projectNotFound, type ApiCall } from './api.js';
import { idParam } from './table.js';
import { dispatchRequestSchema } from '../../api-schemas/dispatch.js';

export function registerDispatch(app: FastifyInstance, ctx: AppContext): void {
  const project = `/v1.0/project/${idParam('id')}/dispatch`;
  const driver = `${project}/drivers/${idParam('driverId')}`;
  const add = apiPath(app, ctx);
  add(project, { POST: apiHandler(ctx, dispatchProject), GET: apiHandler(ctx, getDispatch) });
  add(`${project}/solution`, { GET: apiHandler(ctx, getDispatchedPlan) });
  add(`${driver}/revoke`, { POST: apiHandler(ctx, revokeLink) });
  add(`${driver}/link`, { POST: apiHandler(ctx, renewLink) });
}

async function dispatchProject(ctx: AppContext, call: ApiCall): Promise<void> {
  const project = await ownProject(ctx, call);
  const request = dispatchRequestOf(await readOptionalJsonBody(call.req, ctx.bodyLimitBytes));
  const { view, created } = await ctx.dispatch.dispatch(call.owner, project, request);
  call.notes.actionId = view.actionUuid;
  sendJson(call.reply, created ? 201 : 200, view, { location: `/v1.0/project/${project.id}/dispatch` });
}

async function getDispatch(ctx: AppContext, call: ApiCall): Promise<void> {
  const project = await ownProject(ctx, call);
  const view = await ctx.dispatch.viewOf(project.id);
  if (view === null) throw new HttpError(404, 'not_dispatched', `project ${project.id} is not dispatched yet`);
  sendJson(call.reply, 200, view);
}

async function getDispatchedPlan(ctx: AppContext, call: ApiCall): Promise<void> {
  const project = await ownProject(ctx, call);
  sendJson(call.reply, 200, await ctx.dispatch.frozenPlan(project.id));
}

async function revokeLink(ctx: AppContext, call: ApiCall): Promise<void> {
  const project = await ownProject(ctx, call);
  sendJson(call.reply, 200, await ctx.dispatch.revoke(project.id, call.params.driverId ?? ''));
}

async function renewLink(ctx: AppContext, call: ApiCall): Promise<void> {
  const project = await ownProject(ctx, call);
  sendJson(call.reply, 200, await ctx.dispatch.renewLink(project.id, call.params.driverId ?? ''));
}

async function ownProject(ctx: AppContext, call: ApiCall): Promise<ProjectRecord> {
  const found = await ctx.projects.find(call.owner, call.id);
  if (!found) throw projectNotFound(call.id);
  call.notes.projectId = found.record.id;
  return found.record;
}

/** The body checked against the schema the OpenAPI document shows; each field's problem in its own words. */
function dispatchRequestOf(body: unknown): DispatchRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('', 'expected a JSON object');
  const parsed = dispatchRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const path = String(parsed.error.issues[0]!.path[0] ?? '');
  throw badRequest(
    path,
    path === 'redispatch' ? 'expected true or false' : 'expected the actionUuid of one of the project’s optimizations',
  );
}

function badRequest(path: string, message: string): HttpError {
  return new HttpError(400, 'invalid_request', `invalid dispatch request: ${path || 'body'}: ${message}`, [{ path, message }]);
}
