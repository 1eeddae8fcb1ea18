/**
 * `routeplan serve` as a library: start the service, get its URL, stop it gracefully.
 * The CLI command (src/cli/commands/serve.ts) and the tests both go through startServer().
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { InputError } from '../errors.js';
import { SERVE_DEFAULTS } from '../config/serve-settings.js';
import { createKeyRing, isLoopbackHost } from './http/auth.js';
import type { Stores } from './store/ports.js';
import { WorkerSolveRunner, type SolveRunner } from './services/solve-runner.js';
import { ActionService, type SolveSettings } from './services/actions/service.js';
import { ProjectService } from './services/projects.js';
import { openStores } from './store/open.js';
import type { ServeOptions, ServeRole } from './serve-options.js';
import { buildApp, type AppContext } from './http/app.js';
import { validateRequest } from './services/job.js';
import { Access } from './http/access.js';
import { GuessLimiter } from './http/guess-limit.js';
import { SessionService } from './services/sessions.js';
import { defaultWebRoot, isWebBuilt } from './http/web.js';
import type { TravelSettings } from '../travel/types.js';
import type { GeocoderSettings } from '../geocode/types.js';
import { DispatchService } from './services/dispatch/service.js';
import { ProjectRetimer } from './services/dispatch/retimer.js';
import { TrackingService } from './services/dispatch/tracking.js';
import { createNotifications, type Notifications } from './services/notify/index.js';
import { ProjectGeocoding } from './services/geocoding.js';
import { ProofFiles, proofSettingOf } from './services/dispatch/proof.js';
import { ProjectEraser } from './services/project-erase.js';
import { PrometheusMetrics } from './prometheus-metrics.js';
import { countingStoreErrors } from './store/counted.js';
import { logIds } from './log-context.js';
import { createWebhooks, type Webhooks } from './services/webhooks/index.js';
import { allListeners } from './services/dispatch/listeners.js';

/** The defaults are the settings table's (config/serve-settings.ts). */
export { SERVE_DEFAULTS, defaultConcurrency } from '../config/serve-settings.js';

const DAY_MS = 86_400_000;

export { SERVE_ROLES, type ServeOptions, type ServeRole } from './serve-options.js';

export interface RunningServer {
  /** `http://host:port` as bound (port 0 resolved). */
  url: string;
  server: Server;
  /** Stops accepting, waits for running solves (bounded), leaves the rest pending on disk. */
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const log = jsonLog(options.logLine ?? ((line: string) => process.stderr.write(`${line}\n`)));
  const role = options.role ?? 'all';
  if (role !== 'worker') guardOpenAccess(options, log);
  const metrics = new PrometheusMetrics();
  const stores = countingStoreErrors(await openStores(options, log), metrics);
  metrics.watchQueue(() => stores.queue.stats());
  try {
    return await startOn(stores, options, role, { log, metrics });
  } catch (error) {
    await stores.queue.stop(0).catch(() => undefined);
    await stores.close();
    throw error;
  }
}

async function startOn(stores: Stores, options: ServeOptions, role: ServeRole, observed: Observed): Promise<RunningServer> {
  const { log, metrics } = observed;
  const runner = options.runner ?? new WorkerSolveRunner(options.concurrency);
  const webhooks = webhooksOf(stores, options, observed);
  const actions = new ActionService(webhooks.watchActions(stores.actions), stores.queue, runner, solveSettingsOf(options), log, metrics);
  let publicUrl = options.publicUrl?.replace(/\/+$/, '') ?? '';
  const projects = new ProjectService(stores.projects, (id) => `${publicUrl}/projects/${id}`, actions.optimizations);
  const sessions = new SessionService(stores.sessions, options.sessionTtlMs ?? SERVE_DEFAULTS.sessionTtlHours * 3_600_000, log);
  const day = await dispatchServices(stores, { actions, projects, webhooks }, options, observed, () => publicUrl);
  const { dispatch, notifications } = day;
  const geocoding = new ProjectGeocoding(options.geocoder, projects, log);
  const eraser = new ProjectEraser({ projects: stores.projects, actions, dispatch, outbox: stores.outbox, log });

  let shuttingDown = false;
  const guesses = new GuessLimiter(options.guessLimits);
  const app = await buildApp({
    role,
    access: new Access(createKeyRing(options.keys), sessions, () => new URL(publicUrl).origin, guesses),
    guesses,
    trustProxyHops: options.trustProxyHops ?? 0,
    sessions,
    validate: validateRequest,
    actions,
    projects,
    eraser,
    dispatch,
    tracking: day.tracking,
    geocoding,
    messages: notifications.messages,
    bodyLimitBytes: options.bodyLimitBytes,
    loadOptions: travelFlags(options),
    timeLimitMs: options.timeLimitMs,
    web: { root: builtWebRoot(options, log), tiles: options.tiles ?? null, secureCookies: publicUrl.startsWith('https:') },
    isShuttingDown: () => shuttingDown,
    storeHealth: () => stores.health(),
    queueStats: () => stores.queue.stats(),
    ...testOverridesOf(options),
    log,
    metrics,
    metricsEndpoint: { render: () => metrics.render(), contentType: metrics.contentType, token: options.metricsToken ?? null },
  });

  const found = await stores.start();
  await sessions.start();
  const retention = role === 'worker' ? noRetention() : await startRetention({ actions, dispatch, eraser, webhooks }, options, log);
  const url = await listenOrUndo(app, options, async () => void [await retention.stop(), sessions.stop()]);
  if (publicUrl === '') publicUrl = url;
  // Stored solves restart only once the port is ours, so a failed start never runs (and counts) them.
  if (role !== 'api') await actions.work();
  if (role !== 'worker') await geocoding.resume();
  await webhooks.recover();
  const started = { url, role, store: stores.kind, actions: found.actions, requeued: found.requeued };
  log({ event: 'started', ...started, concurrency: role === 'api' ? 0 : options.concurrency });

  const timeoutMs = options.shutdownTimeoutMs;
  const shutdown = { app, actions, stores, runner, sessions, notifications, webhooks, geocoding, retention, log, timeoutMs };
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    shuttingDown = true;
    closing ??= stopServer(shutdown);
    return closing;
  };
  return { url, server: app.server, close };
}

type Log = (event: Record<string, unknown>) => void;

/** Where the service's parts report: the JSON log and the metrics of `/metrics`. */
interface Observed {
  log: Log;
  metrics: PrometheusMetrics;
}

interface Retention {
  stop(): Promise<void>;
}

/** What the retention sweeps delete from: ended actions, old proofs, old projects. */
interface Swept {
  actions: ActionService;
  dispatch: DispatchService;
  eraser: ProjectEraser;
  webhooks: Webhooks;
}

/** A worker answers no API, so it deletes nothing: the API processes sweep. */
function noRetention(): Retention {
  return { stop: () => Promise.resolve() };
}

/**
 * Retention of ended actions: one sweep now (before the service answers, so nothing past its time
 * is served), then one every tenth of the retention period (at least every second, at most every
 * hour). A sweep that fails (the store cannot be written) is logged and tried again next time.
 * Each sweep also tells the dispatch's events left untold, so the first tells what the last run left.
 */
async function startRetention(swept: Swept, options: ServeOptions, log: Log): Promise<Retention> {
  const { actions, dispatch, eraser, webhooks } = swept;
  const retentionMs = options.retentionMs ?? SERVE_DEFAULTS.retentionDays * DAY_MS;
  const projectRetentionMs = options.projectRetentionMs;
  const now = options.now ?? ((): Date => new Date());
  let sweeping: Promise<void> | null = null;
  const sweep = (): Promise<void> => {
    sweeping ??= actions
      .sweep(now(), retentionMs)
      .then(
        (deleted) => {
          if (deleted > 0) log({ event: 'retention_sweep', deleted, retention_days: retentionMs / DAY_MS });
        },
        (error: unknown) => log({ event: 'retention_sweep_failed', reason: (error as Error).message }),
      )
      // Proof of delivery files go the same number of days after their dispatch's links expired.
      .then(() => dispatch.sweepProofs(now(), retentionMs))
      .then(
        (swept) => {
          if (swept > 0) log({ event: 'retention_sweep', proofs_deleted: swept, retention_days: retentionMs / DAY_MS });
        },
        (error: unknown) => log({ event: 'retention_sweep_failed', reason: (error as Error).message }),
      )
      // Events that a failure or the end of a process left untold (dispatch/notices.ts, webhooks/action-endings.ts).
      .then(async () => (await dispatch.tellUntold()) + (await webhooks.tellUntold()))
      .then(
        (told) => {
          if (told > 0) log({ event: 'untold_events_told', told });
        },
        (error: unknown) => log({ event: 'untold_events_not_told', reason: (error as Error).message }),
      )
      // Projects (--project-retention, off by default) go with everything made from them.
      .then(() => (projectRetentionMs === undefined ? 0 : eraser.sweep(now(), projectRetentionMs)))
      .then(
        (erased) => {
          if (erased > 0) log({ event: 'retention_sweep', projects_deleted: erased, project_retention_days: projectRetentionMs! / DAY_MS });
        },
        (error: unknown) => log({ event: 'retention_sweep_failed', reason: (error as Error).message }),
      )
      .finally(() => (sweeping = null));
    return sweeping;
  };
  await sweep();
  const timer = setInterval(() => void sweep(), Math.min(3_600_000, Math.max(1_000, retentionMs / 10)));
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await sweeping;
    },
  };
}

/** The web application's files; the JSON API works without them, so a missing build is only a warning. */
function builtWebRoot(options: ServeOptions, log: Log): string {
  const webRoot = options.webRoot ?? defaultWebRoot();
  if (!isWebBuilt(webRoot))
    log({ event: 'warning', message: `the web application is not built (no index.html in ${webRoot}): run npm run build` });
  return webRoot;
}

/** What tests may set in the HTTP layer: shorter connection limits, a tap on the routes and answers. */
function testOverridesOf(options: ServeOptions): Pick<AppContext, 'connectionLimits' | 'tap'> {
  return {
    ...(options.connectionLimits ? { connectionLimits: options.connectionLimits } : {}),
    ...(options.httpTap ? { tap: options.httpTap } : {}),
  };
}

/** What every solve of this service is given: its limit, its seed, the travel flags. */
function solveSettingsOf(options: ServeOptions): SolveSettings {
  return { timeLimitMs: options.timeLimitMs, seed: options.seed, ...travelFlags(options) };
}

/** Webhooks, when URLs are configured: their events recorded in the store, delivered by every process. */
function webhooksOf(stores: Stores, options: ServeOptions, { log, metrics }: Observed): Webhooks {
  return createWebhooks(options.webhooks, stores.webhooks, log, {
    ...(options.webhookSchedule ? { schedule: options.webhookSchedule } : {}),
    metrics,
  });
}

/** Dispatch to drivers, and the customer messages it sends when SMTP is configured. */
async function dispatchServices(
  stores: Stores,
  { actions, projects, webhooks }: { actions: ActionService; projects: ProjectService; webhooks: Webhooks },
  options: ServeOptions,
  { log, metrics }: Observed,
  baseUrl: () => string,
): Promise<{ dispatch: DispatchService; tracking: TrackingService; notifications: Notifications }> {
  const store = stores.records;
  const now = options.now ?? ((): Date => new Date());
  // Revised promises are kept in the dispatch record, which the dispatch made after the messages owns.
  let dispatch: DispatchService | null = null;
  const promises = { revise: (projectId: string, stopId: string, eta_s: number) => dispatch!.revisePromise(projectId, stopId, eta_s) };
  const trackingUrl = (token: string): string => `${baseUrl()}/track/${token}`;
  const notifications = await createNotifications(options.smtp, stores.outbox, log, { promises, trackingUrl, metrics });
  options.tapDispatchListener?.(notifications.listener);
  dispatch = new DispatchService(
    store,
    actions,
    allListeners([notifications.listener, webhooks.listener], log),
    {
      graceMs: options.driverLinkGraceMs ?? SERVE_DEFAULTS.driverLinkGraceHours * 3_600_000,
      now,
      linkUrl: (token) => `${baseUrl()}/drivers/${token}`,
      trackingUrl,
      etaMarginS: (options.etaMarginMinutes ?? SERVE_DEFAULTS.etaMarginMinutes) * 60,
      log,
      retimer: new ProjectRetimer(projects, withoutGeocoder(travelFlags(options)), log),
      proofSetting: async (_owner, projectId) => proofSettingOf((await stores.projects.load(projectId))?.record.settings),
    },
    new ProofFiles(stores.blobs),
  );
  const tracking = new TrackingService(store, { now, log });
  await dispatch.recover();
  await tracking.recover();
  await notifications.recover();
  return { dispatch, tracking, notifications };
}

/** One JSON object a line, with the ids of the request or action under way (log-context.ts). */
function jsonLog(writeLine: (line: string) => void): Log {
  return (event) => writeLine(JSON.stringify({ time: new Date().toISOString(), ...logIds(), ...event }));
}

/** The live estimates place every stop by its coordinates: they never geocode. */
function withoutGeocoder<T extends { geocoder?: unknown }>(flags: T): Omit<T, 'geocoder'> {
  const { geocoder: _geocoder, ...rest } = flags;
  return rest;
}

function travelFlags(options: ServeOptions): {
  roadFactor?: number;
  baseSpeedKmh?: number;
  travel?: TravelSettings;
  geocoder?: GeocoderSettings;
} {
  return {
    ...(options.roadFactor !== undefined ? { roadFactor: options.roadFactor } : {}),
    ...(options.baseSpeedKmh !== undefined ? { baseSpeedKmh: options.baseSpeedKmh } : {}),
    ...(options.travel !== undefined && options.travel.source !== 'haversine' ? { travel: options.travel } : {}),
    ...(options.geocoder !== undefined ? { geocoder: options.geocoder } : {}),
  };
}

interface Shutdown {
  app: FastifyInstance;
  sessions: SessionService;
  notifications: Notifications;
  webhooks: Webhooks;
  geocoding: ProjectGeocoding;
  actions: ActionService;
  stores: Stores;
  runner: SolveRunner;
  retention: Retention;
  log: Log;
  timeoutMs: number;
}

/** Stops accepting, waits for running solves (bounded), leaves the rest pending for the next start or another worker. */
async function stopServer(shutdown: Shutdown): Promise<void> {
  const { app, actions, stores, runner, sessions, notifications, webhooks, geocoding, retention, log, timeoutMs } = shutdown;
  const server = app.server;
  const stopped = app.close();
  server.closeIdleConnections();
  sessions.stop();
  await retention.stop();
  const { leftWaiting, interrupted } = await actions.shutdown(timeoutMs);
  await notifications.close();
  await webhooks.close();
  // A geocoding still running writes its project afterwards (into a closed store, or a data
  // directory already being removed); one cut by the timeout is resumed at the next start.
  await geocoding.whenIdle(timeoutMs);
  await runner.close?.();
  server.closeAllConnections();
  await stopped;
  await stores.close();
  log({ event: 'stopped', left_pending: leftWaiting, interrupted });
}

function guardOpenAccess(options: ServeOptions, log: Log): void {
  if (options.keys.length > 0) return;
  if (!isLoopbackHost(options.host)) {
    throw new InputError(
      `refusing to serve on ${options.host} without API keys: set ROUTEPLAN_SERVER_KEYS or --keys-file, or bind to 127.0.0.1`,
      [{ path: '--host', message: 'a non-loopback host needs API keys' }],
    );
  }
  log({ event: 'warning', message: 'no API keys configured: open access on loopback (set ROUTEPLAN_SERVER_KEYS or --keys-file)' });
}

/** Listens and answers the bound URL; when it cannot, undoes what was started and closes the app. */
async function listenOrUndo(app: FastifyInstance, options: ServeOptions, undo: () => Promise<void>): Promise<string> {
  try {
    await listen(app, options.port, options.host);
  } catch (error) {
    await undo();
    await app.close();
    throw error;
  }
  const address = app.server.address() as AddressInfo;
  return `http://${formatHost(address.address)}:${address.port}`;
}

async function listen(app: FastifyInstance, port: number, host: string): Promise<void> {
  try {
    await app.listen({ port, host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      `cannot listen on ${host}:${port}: ${code ?? (error as Error).message}`,
      [{ path: '--port', message: (error as Error).message }],
      undefined,
      { cause: error },
    );
  }
}

function formatHost(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}
