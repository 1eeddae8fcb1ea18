/** The JSON API (decisions.md, "The service"): one-off schedules, actions, projects. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, readJsonBody, sendJson } from '../replies.js';
import type { AppContext } from '../context.js';
import type { ApiCall } from './api-call.js';
import { addPath, idParam, type Handler, type Method } from './table.js';
import type { ProjectView } from '../../services/projects.js';
import type { Accepted } from '../../services/actions/service.js';
import { idempotencyClaimOf } from '../idempotency-header.js';
import { projectAnswer, projectNotFound } from './project-answer.js';
import { restOfDayDocument } from '../../services/dispatch/reoptimize.js';
import { addItemRoute, changeItemRoute, changeProject, etagOf, removeItemRoute } from './project-edits.js';
import { evaluatePlanRoute, keepPlanRoute } from './hand-plans.js';
import { listActionsRoute } from './action-list.js';

export { projectNotFound } from './project-answer.js';

export type { ApiCall } from './api-call.js';

type ApiHandler = (ctx: AppContext, call: ApiCall) => Promise<void>;

export function registerApi(app: FastifyInstance, ctx: AppContext): void {
  const on = (handle: ApiHandler): Handler => apiHandler(ctx, handle);
  const add = apiPath(app, ctx);
  add('/schedules', { POST: on(createSchedule) });
  add('/v2/schedules', { GET: on(listActionsRoute) });
  add(`/v2/schedules/${idParam('id')}`, { GET: on(getAction), DELETE: on(deleteAction) });
  add(`/v2/schedules/${idParam('id')}/solution`, { GET: on(getSolution) });
  add(`/v2/schedules/${idParam('id')}/cancel`, { POST: on(cancelAction) });
  add('/v1.0/project', { POST: on(createProject) });
  add('/v1.0/projects', { GET: on(listProjects) });
  add(`/v1.0/project/${idParam('id')}`, { GET: on(getProject), PATCH: on(changeProject), DELETE: on(deleteProject) });
  for (const list of ['stops', 'drivers'] as const) {
    add(`/v1.0/project/${idParam('id')}/${list}`, { POST: on(addItemRoute(list)) });
    add(`/v1.0/project/${idParam('id')}/${list}/${idParam('itemId')}`, {
      PATCH: on(changeItemRoute(list)),
      DELETE: on(removeItemRoute(list)),
    });
  }
  add(`/v1.0/project/${idParam('id')}/optimize`, { POST: on(optimizeProject) });
  add(`/v1.0/project/${idParam('id')}/reoptimize`, { POST: on(reoptimizeProject) });
  add(`/v1.0/project/${idParam('id')}/plans`, { POST: on(keepPlanRoute) });
  add(`/v1.0/project/${idParam('id')}/plans/evaluate`, { POST: on(evaluatePlanRoute) });
}

/** addPath for the API: the caller is authenticated before the method is matched. */
export function apiPath(app: FastifyInstance, ctx: AppContext): (url: string, handlers: Partial<Record<Method, Handler>>) => void {
  return (url, handlers) => addPath(app, url, handlers, { before: (request) => ctx.access.requireCaller(request) });
}

/** Authenticates the call (key, or session cookie with its CSRF checks) before the handler runs. */
export function apiHandler(ctx: AppContext, handle: ApiHandler): Handler {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const owner = ctx.access.apiOwner(request);
    const params = request.params as Record<string, string | undefined>;
    return handle(ctx, { req: request.raw, reply, id: params.id ?? '', params, owner, notes: request.notes });
  };
}

/** Deletes the project and everything made from it (project-erase.ts) → 204; another key's or an unknown one is 404. */
async function deleteProject(ctx: AppContext, call: ApiCall): Promise<void> {
  if (!(await ctx.eraser.erase(call.owner, call.id))) throw projectNotFound(call.id);
  call.notes.projectId = call.id;
  await call.reply.code(204).header('cache-control', 'no-store').send();
}

async function createSchedule(ctx: AppContext, call: ApiCall): Promise<void> {
  const body = await readJsonBody(call.req, ctx.bodyLimitBytes);
  const idempotency = idempotencyClaimOf(call.req, body);
  const warnings = ctx.validate('oneoff', body, ctx.loadOptions);
  const accepted = await ctx.actions.accept(
    { owner: call.owner, kind: 'oneoff', document: body, actionName: 'schedule', warnings },
    idempotency,
  );
  sendAccepted(call, accepted, accepted.record.warnings ? { warnings: accepted.record.warnings } : {});
}

/**
 * 202 with the action as accepted, pending, and `extra`; a replay answers what the first request
 * was answered. Location is where to poll it.
 */
function sendAccepted(call: ApiCall, accepted: Accepted, extra: Record<string, unknown>): void {
  const record = accepted.record;
  call.notes.actionId = record.actionUuid;
  const headers = { location: `/v2/schedules/${record.actionUuid}`, ...(accepted.replayed ? { 'idempotent-replayed': 'true' } : {}) };
  sendJson(call.reply, 202, { actionUuid: record.actionUuid, actionName: record.actionName, status: 'pending', ...extra }, headers);
}

async function getAction(ctx: AppContext, call: ApiCall): Promise<void> {
  const record = await ctx.actions.get(call.owner, call.id);
  if (!record) throw actionNotFound(call.id);
  call.notes.actionId = record.actionUuid;
  sendJson(call.reply, 200, record);
}

async function getSolution(ctx: AppContext, call: ApiCall): Promise<void> {
  const record = await ctx.actions.get(call.owner, call.id);
  if (!record) throw actionNotFound(call.id);
  call.notes.actionId = record.actionUuid;
  if (record.status === 'finished' && record.solution) {
    sendJson(call.reply, 200, record.solution);
    return;
  }
  if (record.status === 'failed') {
    throw new HttpError(409, 'action_failed', `the action failed, it has no solution: ${record.error?.message ?? 'unknown error'}`);
  }
  throw new HttpError(409, 'not_ready', 'the action is still pending; poll GET /v2/schedules/{actionUuid}', [], {
    'retry-after': '1',
  });
}

async function cancelAction(ctx: AppContext, call: ApiCall): Promise<void> {
  const cancel = await ctx.actions.cancel(call.owner, call.id);
  if (cancel.outcome === 'not_found') throw actionNotFound(call.id);
  call.notes.actionId = call.id;
  if (cancel.outcome === 'not_cancellable') {
    throw new HttpError(409, 'not_cancellable', `the action already ended (${cancel.status}); only a pending action can be cancelled`);
  }
  sendJson(call.reply, 200, cancel.record);
}

/** Deletes the action (cancelling it first if pending) → 204; 404 for an unknown one or another key's. */
async function deleteAction(ctx: AppContext, call: ApiCall): Promise<void> {
  if (!(await ctx.actions.remove(call.owner, call.id))) throw actionNotFound(call.id);
  call.notes.actionId = call.id;
  await call.reply.code(204).header('cache-control', 'no-store').send();
}

async function createProject(ctx: AppContext, call: ApiCall): Promise<void> {
  const body = await readJsonBody(call.req, ctx.bodyLimitBytes);
  // The project schema requires `name` and `date`: validation answers their absence with the rest.
  const warnings = ctx.validate('project', body, ctx.loadOptions);
  const document = body as Record<string, unknown>;
  const geocode = ctx.geocoding.needed(document);
  const idempotency = idempotencyClaimOf(call.req, body);
  const { record, replayed } = idempotency
    ? await ctx.projects.createOnce(call.owner, document, warnings, geocode, idempotency)
    : { record: await ctx.projects.create(call.owner, document, warnings, geocode), replayed: false };
  if (geocode && !replayed) ctx.geocoding.start(record.id, document);
  call.notes.projectId = record.id;
  sendJson(call.reply, 201, await projectAnswer(ctx, record), {
    location: `/v1.0/project/${record.id}`,
    ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
  });
}

async function getProject(ctx: AppContext, call: ApiCall): Promise<void> {
  const found = await ctx.projects.find(call.owner, call.id);
  if (!found) throw projectNotFound(call.id);
  call.notes.projectId = found.record.id;
  sendJson(call.reply, 200, await projectAnswer(ctx, found.record), etagOf(found.record));
}

async function listProjects(ctx: AppContext, call: ApiCall): Promise<void> {
  sendJson(call.reply, 200, { projects: await ctx.projects.list(call.owner) });
}

async function optimizeProject(ctx: AppContext, call: ApiCall): Promise<void> {
  const found = await ctx.projects.find(call.owner, call.id);
  if (!found) throw projectNotFound(call.id);
  call.notes.projectId = found.record.id;
  const idempotency = idempotencyClaimOf(call.req, null);
  refuseUngeocoded(found.record);
  const accepted = await ctx.actions.accept(
    {
      owner: call.owner,
      kind: 'project',
      document: found.document,
      actionName: 'optimize',
      warnings: [],
      projectId: found.record.id,
      ...(found.record.version !== undefined ? { projectVersion: found.record.version } : {}),
    },
    idempotency,
  );
  sendAccepted(call, accepted, { project_id: found.record.id });
}

/** Plans the rest of a dispatched day from now (dispatch/reoptimize.ts); 409 not_dispatched before dispatch. */
async function reoptimizeProject(ctx: AppContext, call: ApiCall): Promise<void> {
  const found = await ctx.projects.find(call.owner, call.id);
  if (!found) throw projectNotFound(call.id);
  call.notes.projectId = found.record.id;
  const idempotency = idempotencyClaimOf(call.req, null);
  refuseUngeocoded(found.record);
  const day = await ctx.dispatch.dayOf(found.record.id);
  const accepted = await ctx.actions.accept(
    {
      owner: call.owner,
      kind: 'project',
      document: restOfDayDocument(found.record, found.document, day, ctx.dispatch.now()),
      actionName: 'reoptimize',
      warnings: [],
      projectId: found.record.id,
      planKind: 'reoptimized',
      ...(found.record.version !== undefined ? { projectVersion: found.record.version } : {}),
    },
    idempotency,
  );
  sendAccepted(call, accepted, { project_id: found.record.id });
}

/** A project still being geocoded, or whose driver's place was not found, cannot be optimized yet. */
function refuseUngeocoded(project: ProjectView): void {
  if (project.geocoding_status === 'pending') {
    throw new HttpError(409, 'geocoding_pending', 'the project’s addresses are still being geocoded; try again in a moment', [], {
      'retry-after': '2',
    });
  }
  const driverPlace = project.geocoding?.find(
    (failure) => failure.path.startsWith('drivers[') && (failure.problem === 'not_found' || failure.problem === 'failed'),
  );
  if (driverPlace) {
    throw new HttpError(
      409,
      'geocoding_failed',
      `${driverPlace.path}: ${driverPlace.message}; a driver's start or end must be placed before optimizing`,
      [{ path: driverPlace.path, message: driverPlace.message }],
    );
  }
}

function actionNotFound(id: string): HttpError {
  return new HttpError(404, 'not_found', `no action ${id}`);
}
