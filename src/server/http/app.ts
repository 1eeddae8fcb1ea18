/**
 * The HTTP service on fastify: the JSON API, the web application's sign-in and pages, and the
 * conventions every answer shares (the error shape, the request log line, 503 while shutting down).
 *
 * Routes (the API needs `Authorization: Bearer <key>` or the session cookie when keys are configured;
 * with the cookie, POSTs also need `X-CSRF-Token` and, when sent, our own `Origin`):
 *   POST /schedules                         one-off problem → 202 action
 *   GET  /v2/schedules/{actionUuid}         the action record (+ `progress` while it runs)
 *   GET  /v2/schedules/{actionUuid}/solution  the plan alone (409 until finished)
 *   POST /v2/schedules/{actionUuid}/cancel  → 200 the record, failed with code `cancelled` (409 not_cancellable once ended)
 *   DELETE /v2/schedules/{actionUuid}       cancels it if pending, then deletes it and its plan → 204
 *   POST /v1.0/project                      create a project → 201 project record (+ `optimizations`, newest first)
 *   GET  /v1.0/project/{id}                 a project record (+ `optimizations`, newest first; `version`, also as ETag)
 *   PATCH /v1.0/project/{id}                name, date, settings (merge patch; If-Match) → 200 the record, one version on
 *   POST /v1.0/project/{id}/stops|drivers   adds one → 201 the record; PATCH, DELETE …/{stopId|driverId} → 200
 *   GET  /v1.0/projects                     the caller's projects (+ `latest_optimization` each)
 *   POST /v1.0/project/{id}/optimize        its page's Optimize, `routeplan optimize`, any API client → 202 action
 *   …/v1.0/project/{id}/dispatch…           dispatch to drivers (routes/dispatch.ts)
 *   POST /v1.0/imports/{stops|drivers}[/items]  a spreadsheet's rows and column guesses, then its items (routes/imports.ts)
 * Drivers (routes/drivers.ts; the token in the path is the credential, never logged):
 *   GET  /drivers/{token}, …/route, POST …/stops/{stopId}  the driver page, their route, their reports
 * Customers (routes/track.ts; the same for the token):
 *   GET  /track/{token}, …/status         a stop's tracking page and its status
 * The web application (routes/session.ts, routes/pages.ts):
 *   POST /login                             form {key, next} → 303 with the session cookie
 *   POST /logout                            ends the session (CSRF token as form field `csrf` or header) → 303 /
 *   GET  /session                           {owner, csrfToken, expiresAt, openAccess, tiles, timeLimitSeconds}
 *   GET  /                                  sign-in and project list (dist/web/index.html)
 *   GET  /projects/{id}, /projects/{id}/print  the project page, its printable driver sheets (303 to / without a session)
 *   GET  /assets/{file}                     scripts, styles and images of the pages
 *   GET  /tiles/basemap.pmtiles              the --tiles PMTiles extract in byte ranges (routes/tiles.ts), when given
 *   GET  /healthz                           liveness, the store and the queue, without credentials
 *   GET  /metrics                           Prometheus metrics: --metrics-token's Bearer token, or loopback clients only (routes/metrics.ts)
 *   GET  /openapi.json                      the OpenAPI 3.1 document of all of the above (routes/openapi.ts), without credentials
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { InputError, RouteplanError } from '../../errors.js';
import { HttpError, pathOf, sendError, sendJson } from './replies.js';
import { QueueFullError, StoreUnavailableError } from '../store/errors.js';
import type { QueueStats } from '../store/ports.js';
import type { HealthView, QueueView } from '../api-schemas/health.js';
import { IdempotencyConflictError } from '../services/idempotency.js';
import type { AppContext, RequestNotes } from './context.js';
import { registerApi } from './routes/api.js';
import { registerSession } from './routes/session.js';
import { registerPages } from './routes/pages.js';
import { registerDispatch } from './routes/dispatch.js';
import { registerDrivers } from './routes/drivers.js';
import { registerTiles } from './routes/tiles.js';
import { registerImports } from './routes/imports.js';
import { answerClientError, createGuardedServer } from './connections.js';
import { RateLimitedLog } from '../rate-limited-log.js';
import { registerTrack } from './routes/track.js';
import { registerProofFiles } from './routes/proof-files.js';
import { registerDriverOffline } from './routes/driver-offline.js';
import { registerMetrics } from './routes/metrics.js';
import { countRequest, currentRequestId, echoRequestId, echoRequestIds, elapsedNs, withRequestIds } from './observe.js';
import { registerOpenApi } from './routes/openapi.js';
import { installTap } from './tap.js';

export type { AppContext } from './context.js';

/**
 * Connections that send nothing, or send a request too slowly, are closed (408) instead of being
 * held for minutes; beyond maxConnections new ones are refused at once (connections.ts).
 */
export const CONNECTION_LIMITS = { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, maxConnections: 2_048 } as const;

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const limits = { ...CONNECTION_LIMITS, ...ctx.connectionLimits };
  const edgeLog = new RateLimitedLog(ctx.log);
  const app = Fastify({
    routerOptions: { ignoreTrailingSlash: true },
    serverFactory: (handler) => createGuardedServer(withRequestIds(handler), limits, edgeLog),
    genReqId: currentRequestId,
    clientErrorHandler: (error, socket) => answerClientError(error, socket, edgeLog),
    // request.ip: the socket's address, or with --trust-proxy N the address the outermost of those N
    // proxies saw (X-Forwarded-For read from the right); what a client writes there itself is never believed.
    trustProxy: ctx.trustProxyHops > 0 ? (_address: string, hop: number) => hop < ctx.trustProxyHops : false,
    // Our own 503 (the error shape, Retry-After) answers requests that arrive while closing.
    return503OnClosing: false,
    frameworkErrors: (error, request, reply) => refuseMalformed(ctx, request, reply, error),
  });
  if (ctx.tap) installTap(app, ctx.tap);
  app.addHook('onClose', (_app, done) => {
    edgeLog.flush();
    done();
  });
  leaveBodiesUnread(app);
  // Set per request in onRequest; a request refused before it (a malformed URL) keeps the null.
  app.decorateRequest('notes', null as unknown as RequestNotes);
  app.decorateRequest('startedAt', 0n);
  app.decorateRequest('session', null);
  echoRequestIds(app);
  app.addHook('onRequest', (request, _reply, done) => {
    request.notes = {};
    request.startedAt = process.hrtime.bigint();
    done(ctx.isShuttingDown() && !isHealthCheck(request) ? shuttingDown() : undefined);
  });
  app.addHook('onResponse', (request, reply, done) => {
    recordAnswer(ctx, request, reply);
    done();
  });
  app.setErrorHandler((error, _request, reply) => answerError(ctx, reply, error));
  app.setNotFoundHandler((request, reply) => {
    request.notes.errorCode = 'not_found';
    sendError(reply, new HttpError(404, 'not_found', `no such route: ${pathOf(request.url)}`));
  });
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      ctx.access.checkHost(request);
      // A state-changing request a browser sends from another site says so in Origin. Only a Bearer
      // key proves more than the browser's ambient credentials (a cookie, or open access: none at all).
      if (request.method !== 'GET' && request.method !== 'HEAD' && request.headers.authorization === undefined) {
        ctx.access.checkOrigin(request);
      }
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  if (ctx.web.secureCookies) addStrictTransportSecurity(app);
  await app.register(fastifyCookie);
  app.addHook('onRequest', (request) => ctx.access.resolveSession(request));
  app.get('/healthz', async (_request, reply) => answerHealth(ctx, reply));
  registerMetrics(app, ctx);
  if (ctx.role === 'worker') return app;
  await registerRoutes(app, ctx);
  return app;
}

/** Everything but the health check, which a worker process answers too. */
async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerApi(app, ctx);
  registerDispatch(app, ctx);
  registerDrivers(app, ctx);
  registerTrack(app, ctx);
  registerImports(app, ctx);
  registerProofFiles(app, ctx);
  registerDriverOffline(app, ctx);
  registerSession(app, ctx);
  registerTiles(app, ctx);
  registerOpenApi(app);
  await registerPages(app, ctx);
}

/**
 * Served over https (the public URL says so), every answer tells the browser to use https only for
 * a year, so that a network attacker cannot downgrade a later visit to plain http.
 */
function addStrictTransportSecurity(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    void reply.header('strict-transport-security', 'max-age=31536000');
    done(null, payload);
  });
}

/**
 * Handlers read their bodies themselves (replies.ts), with the size limit, the drain before a 413 and
 * the error shape of the service; so fastify parses none and leaves every body on the stream.
 */
function leaveBodiesUnread(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}

/** A request fastify cannot route (a malformed URL): 400, logged like any other though no hook runs for it. */
function refuseMalformed(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, error: FastifyError): void {
  request.notes = { errorCode: 'bad_request' };
  request.startedAt = process.hrtime.bigint();
  echoRequestId(request, reply);
  reply.raw.once('finish', () => {
    recordAnswer(ctx, request, reply);
  });
  sendError(reply, new HttpError(400, 'bad_request', error.message));
}

function isHealthCheck(request: FastifyRequest): boolean {
  return pathOf(request.url) === '/healthz' && (request.method === 'GET' || request.method === 'HEAD');
}

/** 200 while the service can take work; 503 while shutting down or while its store cannot write (a full disk). */
async function answerHealth(ctx: AppContext, reply: FastifyReply): Promise<void> {
  if (ctx.isShuttingDown()) return sendJson(reply, 503, { status: 'shutting_down' } satisfies HealthView);
  const store = await ctx.storeHealth();
  const kind = store.kind ?? 'data_dir';
  // The queue's counts come from the store too when it is PostgreSQL: unreadable then, if it is down.
  if (!store.writable) {
    const unhealthy: HealthView = { status: 'unhealthy', store: { kind, writable: false, reason: store.reason }, queue: null };
    return sendJson(reply, 503, unhealthy);
  }
  const healthy: HealthView = { status: 'ok', store: { kind, writable: true }, queue: queueView(await ctx.queueStats()) };
  sendJson(reply, 200, healthy);
}

/** The queue as /healthz shows it: per key, by owner id (a digest prefix, never the key). */
function queueView(stats: QueueStats): QueueView {
  return {
    running: stats.running,
    waiting: stats.waiting,
    concurrency: stats.concurrency,
    capacity: stats.capacity,
    per_key: stats.perKey,
    waiting_by_key: stats.waitingByKey,
  };
}

function shuttingDown(): HttpError {
  return new HttpError(503, 'shutting_down', 'the service is shutting down; retry shortly', [], {
    'retry-after': '5',
    connection: 'close',
  });
}

/** What every answered request leaves: its log line and its count for /metrics, over one measured duration. */
function recordAnswer(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): void {
  const elapsed = elapsedNs(request);
  logRequest(ctx, request, reply, elapsed);
  countRequest(ctx.metrics, request, reply, elapsed);
}

/** One JSON line per request; one fastify refused before our hooks ran has no notes and no start time. */
function logRequest(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, elapsed: bigint): void {
  const notes = request.notes ?? {};
  ctx.log({
    // Named here: the answer's 'finish' may fire outside the request's own asynchronous context.
    request_id: request.id,
    method: request.method,
    path: redactedPath(pathOf(request.url)),
    status: reply.statusCode,
    duration_ms: Number(elapsed / 1000n) / 1000,
    ...(notes.actionId ? { action_id: notes.actionId } : {}),
    ...(notes.projectId ? { project_id: notes.projectId } : {}),
    ...(notes.errorCode ? { error: notes.errorCode } : {}),
  });
}

/** A driver link's or a tracking link's token is a credential: it never reaches the log. */
function redactedPath(path: string): string {
  return path.replace(/^\/(drivers|track)\/[^/]+/, '/$1/<redacted>');
}

function answerError(ctx: AppContext, reply: FastifyReply, error: unknown): void {
  const httpError = toHttpError(error);
  if (reply.request.notes) reply.request.notes.errorCode = httpError.code;
  if (httpError.status >= 500 && httpError.code === 'internal_error') {
    ctx.log({ event: 'internal_error', message: (error as Error)?.message, stack: (error as Error)?.stack });
  }
  if (reply.raw.headersSent) {
    reply.raw.destroy();
    return;
  }
  sendError(reply, httpError);
}

function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof QueueFullError) {
    const headers = { 'retry-after': String(error.retryAfterSeconds) };
    if (error.scope === 'key') {
      const message = `this key already has ${error.perKey} solves waiting, its share of the queue; retry later`;
      return new HttpError(429, 'key_quota_exceeded', message, [], headers);
    }
    return new HttpError(429, 'queue_full', 'too many solves are waiting; retry later', [], headers);
  }
  if (error instanceof IdempotencyConflictError) {
    const detail = { path: 'Idempotency-Key', message: `already used for ${error.created.kind} ${error.created.id}` };
    return new HttpError(409, 'idempotency_conflict', error.message, [detail]);
  }
  if (error instanceof StoreUnavailableError) {
    return new HttpError(503, 'storage_unavailable', error.message, [], { 'retry-after': String(error.retryAfterSeconds) });
  }
  if (error instanceof InputError) return new HttpError(400, error.code, error.message, error.details);
  if (error instanceof RouteplanError && error.code === 'unauthorized') return new HttpError(401, error.code, error.message);
  return fromFramework(error as FastifyError) ?? new HttpError(500, 'internal_error', 'the service failed to handle the request');
}

/** A client error fastify or a plugin found (a malformed request): its status, in our shape. */
function fromFramework(error: FastifyError): HttpError | null {
  const status = error?.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  return new HttpError(status, status === 404 ? 'not_found' : 'bad_request', error.message);
}
