/**
 * The HTTP service on plain node:http. Its surface is seven routes, so a router table is enough;
 * a framework would add dependencies (and their updates) for nothing the service needs.
 *
 * Routes (every one but /healthz needs `Authorization: Bearer <key>` when keys are configured):
 *   POST /schedules                         one-off problem → 202 action
 *   GET  /v2/schedules/{actionUuid}         the action record (+ `progress` while it runs)
 *   GET  /v2/schedules/{actionUuid}/solution  the plan alone (409 until finished)
 *   POST /v2/schedules/{actionUuid}/cancel  → 200 the record, failed with code `cancelled` (409 not_cancellable once ended)
 *   POST /v1.0/project                      create a project → 201 project record (+ `optimizations`, newest first)
 *   GET  /v1.0/project/{id}                 a project record (+ `optimizations`, newest first)
 *   GET  /v1.0/projects                     the caller's projects (+ `latest_optimization` each)
 *   POST /v1.0/project/{id}/optimize        INTERNAL: what the project page's Optimize control calls → 202 action
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InputError, RouteplanError, type Warning } from '../errors.js';
import type { DocumentKind, LoadOptions } from '../input/index.js';
import { HttpError, readJsonBody, sendError, sendJson } from './http.js';
import type { KeyRing } from './auth.js';
import type { ActionService } from './actions.js';
import type { ProjectService } from './projects.js';
import { QueueFullError } from './queue.js';

export interface AppContext {
  keys: KeyRing;
  /** Accepts a request body: its warnings, or throws the InputError (job.ts validateRequest). */
  validate: (kind: DocumentKind, document: unknown, options: LoadOptions) => Warning[];
  actions: ActionService;
  projects: ProjectService;
  bodyLimitBytes: number;
  loadOptions: LoadOptions;
  isShuttingDown: () => boolean;
  log: (event: Record<string, unknown>) => void;
}

/** Per-request facts for the request log line. */
interface RequestNotes {
  actionId?: string;
  projectId?: string;
  errorCode?: string;
}

interface RouteCall {
  req: IncomingMessage;
  res: ServerResponse;
  params: string[];
  owner: string;
  notes: RequestNotes;
}

interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handle: (ctx: AppContext, call: RouteCall) => Promise<void>;
}

const ID = '([A-Za-z0-9-]{1,64})';

const ROUTES: Route[] = [
  { method: 'POST', pattern: /^\/schedules$/, handle: createSchedule },
  { method: 'GET', pattern: new RegExp(`^/v2/schedules/${ID}$`), handle: getAction },
  { method: 'GET', pattern: new RegExp(`^/v2/schedules/${ID}/solution$`), handle: getSolution },
  { method: 'POST', pattern: new RegExp(`^/v2/schedules/${ID}/cancel$`), handle: cancelAction },
  { method: 'POST', pattern: /^\/v1\.0\/project$/, handle: createProject },
  { method: 'GET', pattern: /^\/v1\.0\/projects$/, handle: listProjects },
  { method: 'GET', pattern: new RegExp(`^/v1\\.0/project/${ID}$`), handle: getProject },
  { method: 'POST', pattern: new RegExp(`^/v1\\.0/project/${ID}/optimize$`), handle: optimizeProject },
];

export function createRequestHandler(ctx: AppContext): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const startedAt = process.hrtime.bigint();
    const path = pathOf(req.url);
    const notes: RequestNotes = {};
    res.on('finish', () => {
      ctx.log({
        method: req.method,
        path,
        status: res.statusCode,
        duration_ms: Number((process.hrtime.bigint() - startedAt) / 1000n) / 1000,
        ...(notes.actionId ? { action_id: notes.actionId } : {}),
        ...(notes.projectId ? { project_id: notes.projectId } : {}),
        ...(notes.errorCode ? { error: notes.errorCode } : {}),
      });
    });
    dispatch(ctx, req, res, path, notes).catch((error: unknown) => answerError(ctx, res, error, notes));
  };
}

async function dispatch(ctx: AppContext, req: IncomingMessage, res: ServerResponse, path: string, notes: RequestNotes): Promise<void> {
  if (path === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
    sendJson(res, 200, { status: ctx.isShuttingDown() ? 'shutting_down' : 'ok' });
    return;
  }
  if (ctx.isShuttingDown()) {
    throw new HttpError(503, 'shutting_down', 'the service is shutting down; retry shortly', [], {
      'retry-after': '5',
      connection: 'close',
    });
  }
  const matches = ROUTES.map((route) => ({ route, match: route.pattern.exec(path) })).filter((m) => m.match !== null);
  if (matches.length === 0) throw new HttpError(404, 'not_found', `no such route: ${path}`);
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  const chosen = matches.find((m) => m.route.method === method);
  if (!chosen) {
    const allowed = [...new Set(matches.map((m) => m.route.method))].join(', ');
    throw new HttpError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}; use ${allowed}`, [], {
      allow: allowed,
    });
  }
  const owner = ctx.keys.authenticate(req.headers.authorization);
  await chosen.route.handle(ctx, { req, res, params: chosen.match!.slice(1), owner, notes });
}

function answerError(ctx: AppContext, res: ServerResponse, error: unknown, notes: RequestNotes): void {
  const httpError = toHttpError(error);
  notes.errorCode = httpError.code;
  if (httpError.status >= 500 && httpError.code === 'internal_error') {
    ctx.log({ event: 'internal_error', message: (error as Error)?.message, stack: (error as Error)?.stack });
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendError(res, httpError);
}

function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof QueueFullError) {
    return new HttpError(429, 'queue_full', 'too many solves are waiting; retry later', [], {
      'retry-after': String(error.retryAfterSeconds),
    });
  }
  if (error instanceof InputError) return new HttpError(400, error.code, error.message, error.details);
  if (error instanceof RouteplanError && error.code === 'unauthorized') return new HttpError(401, error.code, error.message);
  return new HttpError(500, 'internal_error', 'the service failed to handle the request');
}

function pathOf(url: string | undefined): string {
  const raw = (url ?? '/').split('?')[0]!;
  return raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
}

async function createSchedule(ctx: AppContext, call: RouteCall): Promise<void> {
  const body = await readJsonBody(call.req, ctx.bodyLimitBytes);
  const warnings = ctx.validate('oneoff', body, ctx.loadOptions);
  const record = await ctx.actions.accept({ owner: call.owner, kind: 'oneoff', document: body, actionName: 'schedule', warnings });
  call.notes.actionId = record.actionUuid;
  sendJson(
    call.res,
    202,
    {
      actionUuid: record.actionUuid,
      actionName: record.actionName,
      status: record.status,
      ...(record.warnings ? { warnings: record.warnings } : {}),
    },
    { location: `/v2/schedules/${record.actionUuid}` },
  );
}

async function getAction(ctx: AppContext, call: RouteCall): Promise<void> {
  const record = await ctx.actions.get(call.owner, call.params[0]!);
  if (!record) throw actionNotFound(call.params[0]!);
  call.notes.actionId = record.actionUuid;
  sendJson(call.res, 200, record);
}

async function getSolution(ctx: AppContext, call: RouteCall): Promise<void> {
  const record = await ctx.actions.get(call.owner, call.params[0]!);
  if (!record) throw actionNotFound(call.params[0]!);
  call.notes.actionId = record.actionUuid;
  if (record.status === 'finished' && record.solution) {
    sendJson(call.res, 200, record.solution);
    return;
  }
  if (record.status === 'failed') {
    throw new HttpError(409, 'action_failed', `the action failed, it has no solution: ${record.error?.message ?? 'unknown error'}`);
  }
  throw new HttpError(409, 'not_ready', 'the action is still pending; poll GET /v2/schedules/{actionUuid}', [], {
    'retry-after': '1',
  });
}

async function cancelAction(ctx: AppContext, call: RouteCall): Promise<void> {
  const cancel = await ctx.actions.cancel(call.owner, call.params[0]!);
  if (cancel.outcome === 'not_found') throw actionNotFound(call.params[0]!);
  call.notes.actionId = call.params[0]!;
  if (cancel.outcome === 'not_cancellable') {
    throw new HttpError(409, 'not_cancellable', `the action already ended (${cancel.status}); only a pending action can be cancelled`);
  }
  sendJson(call.res, 200, cancel.record);
}

async function createProject(ctx: AppContext, call: RouteCall): Promise<void> {
  const body = await readJsonBody(call.req, ctx.bodyLimitBytes);
  // The project schema requires `name` and `date`: validation answers their absence with the rest.
  const warnings = ctx.validate('project', body, ctx.loadOptions);
  const record = await ctx.projects.create(call.owner, body as Record<string, unknown>, warnings);
  call.notes.projectId = record.id;
  sendJson(call.res, 201, record, { location: `/v1.0/project/${record.id}` });
}

async function getProject(ctx: AppContext, call: RouteCall): Promise<void> {
  const found = await ctx.projects.find(call.owner, call.params[0]!);
  if (!found) throw projectNotFound(call.params[0]!);
  call.notes.projectId = found.record.id;
  sendJson(call.res, 200, found.record);
}

function listProjects(ctx: AppContext, call: RouteCall): Promise<void> {
  sendJson(call.res, 200, { projects: ctx.projects.list(call.owner) });
  return Promise.resolve();
}

async function optimizeProject(ctx: AppContext, call: RouteCall): Promise<void> {
  const found = await ctx.projects.find(call.owner, call.params[0]!);
  if (!found) throw projectNotFound(call.params[0]!);
  call.notes.projectId = found.record.id;
  const record = await ctx.actions.accept({
    owner: call.owner,
    kind: 'project',
    document: found.document,
    actionName: 'optimize',
    warnings: [],
    projectId: found.record.id,
  });
  call.notes.actionId = record.actionUuid;
  sendJson(
    call.res,
    202,
    { actionUuid: record.actionUuid, actionName: record.actionName, status: record.status, project_id: found.record.id },
    { location: `/v2/schedules/${record.actionUuid}` },
  );
}

function actionNotFound(id: string): HttpError {
  return new HttpError(404, 'not_found', `no action ${id}`);
}

function projectNotFound(id: string): HttpError {
  return new HttpError(404, 'not_found', `no project ${id}`);
}
