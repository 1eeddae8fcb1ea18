/**
 * `routeplan serve` as a library: start the service, get its URL, stop it gracefully.
 * The CLI command (src/cli/commands/serve.ts) and the tests both go through startServer().
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { availableParallelism } from 'node:os';
import { InputError } from '../errors.js';
import { DEFAULT_TIME_LIMIT_SECONDS } from '../config/config.js';
import { createKeyRing, isLoopbackHost } from './auth.js';
import { JsonStore } from './store.js';
import { DataDirActionStore } from './action-store.js';
import { JobQueue, defaultPerKey } from './queue.js';
import { WorkerSolveRunner, type SolveRunner } from './solve-runner.js';
import { ActionService } from './actions.js';
import { ProjectService } from './projects.js';
import { buildApp, type AppContext } from './app.js';
import { validateRequest } from './job.js';
import { Access } from './access.js';
import { DEFAULT_SESSION_TTL_HOURS, SessionService } from './session.js';
import { defaultWebRoot, isWebBuilt, type TileSource } from './web.js';
import type { SmtpSettings } from './notify/settings.js';
import type { TravelSettings } from '../travel/types.js';
import type { GeocoderSettings } from '../geocode/types.js';
import { DispatchService } from './dispatch/service.js';
import { createNotifications, type Notifications } from './notify/index.js';
import { ProjectGeocoding } from './geocoding.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';

export interface ServeOptions {
  port: number;
  host: string;
  dataDir: string;
  /** API keys; empty = open access, allowed on a loopback host only. */
  keys: string[];
  concurrency: number;
  queueSize: number;
  /** Most solves one API key may have waiting (default: half of queueSize, at least one). */
  queuePerKey?: number;
  /** How long ended actions are kept (default 30 days); a sweep at start and then periodically deletes older ones. */
  retentionMs?: number;
  timeLimitMs: number;
  seed: number;
  bodyLimitBytes: number;
  /** How long a shutdown waits for running solves before leaving them pending for the next start. */
  shutdownTimeoutMs: number;
  /** Base of project page URLs; defaults to the bound URL. An https one makes the session cookie Secure. */
  publicUrl?: string;
  /** Lifetime of a browser session (default 12 h). */
  sessionTtlMs?: number;
  /** Map tiles for the web application's map; without them it draws on a plain background. */
  tiles?: TileSource;
  /** The built web application (default: dist/web/ beside the compiled service). */
  webRoot?: string;
  roadFactor?: number;
  baseSpeedKmh?: number;
  /** Road travel times for every solve (a server-wide setting); the offline model when absent. */
  travel?: TravelSettings;
  /** Geocodes stops given by address only, when each action is solved; without it they are refused at creation. */
  geocoder?: GeocoderSettings;
  /** Where the JSON log lines go (default: stderr). */
  logLine?: (line: string) => void;
  /** Replaces the worker-thread runner (tests). */
  runner?: SolveRunner;
  /** Customer e-mails on dispatch and delivery; without it nothing is sent and the pages say so. */
  smtp?: SmtpSettings;
  /** How long after the end of the project's date (UTC) a driver link still opens (default 24 h). */
  driverLinkGraceMs?: number;
  /** The clock of link expiry and stop statuses (tests). */
  now?: () => Date;
  /** Overrides of the connection limits (tests): headers and request timeouts, connection cap. */
  connectionLimits?: AppContext['connectionLimits'];
  /** Waits between retries of a finished action's failed write (tests; actions.ts SAVE_RETRY_DELAYS_MS). */
  saveRetryDelaysMs?: readonly number[];
}

export const SERVE_DEFAULTS = {
  port: 8080,
  host: '127.0.0.1',
  dataDir: './.routeplan-data',
  queueSize: 100,
  timeLimitSeconds: DEFAULT_TIME_LIMIT_SECONDS,
  bodyLimitBytes: 10 * 1024 * 1024,
  shutdownTimeoutSeconds: 30,
  sessionTtlHours: DEFAULT_SESSION_TTL_HOURS,
  driverLinkGraceHours: 24,
  retentionDays: 30,
} as const;

const DAY_MS = 86_400_000;

/** One solve per core, keeping one core for the HTTP loop on bigger machines. */
export function defaultConcurrency(): number {
  const cores = availableParallelism();
  return Math.max(1, cores > 2 ? cores - 1 : cores);
}

export interface RunningServer {
  /** `http://host:port` as bound (port 0 resolved). */
  url: string;
  server: Server;
  /** Stops accepting, waits for running solves (bounded), leaves the rest pending on disk. */
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const log = jsonLog(options.logLine ?? ((line: string) => process.stderr.write(`${line}\n`)));
  guardOpenAccess(options, log);

  // One process owns the data directory: a second one refuses to start before touching anything.
  const lock = await acquireDataDirLock(options.dataDir, log);
  try {
    return await startLocked(options, log, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function startLocked(options: ServeOptions, log: Log, lock: DataDirLock): Promise<RunningServer> {
  const store = new JsonStore(options.dataDir);
  await store.init();
  const { queue, runner, actions } = actionServices(options, store, log);
  const noteCrash = (): void => void [actions.noteRunningAtExit(), lock.release()];
  process.on('exit', noteCrash);
  let publicUrl = options.publicUrl?.replace(/\/+$/, '') ?? '';
  const projects = new ProjectService(store, (id) => `${publicUrl}/projects/${id}`, log, actions.optimizations);
  const sessions = new SessionService(store, options.sessionTtlMs ?? SERVE_DEFAULTS.sessionTtlHours * 3_600_000, log);
  const { dispatch, notifications } = await dispatchServices(store, actions, options, log, () => publicUrl);
  const geocoding = new ProjectGeocoding(options.geocoder, projects, log);
  const webRoot = builtWebRoot(options, log);

  let shuttingDown = false;
  const app = await buildApp({
    access: new Access(createKeyRing(options.keys), sessions, () => new URL(publicUrl).origin),
    sessions,
    validate: validateRequest,
    actions,
    projects,
    dispatch,
    geocoding,
    messages: notifications.messages,
    bodyLimitBytes: options.bodyLimitBytes,
    loadOptions: travelFlags(options),
    timeLimitSeconds: options.timeLimitMs / 1000,
    web: { root: webRoot, tiles: options.tiles ?? null, secureCookies: publicUrl.startsWith('https:') },
    isShuttingDown: () => shuttingDown,
    storeHealth: () => store.health(),
    queueStats: () => queue.stats(),
    ...(options.connectionLimits ? { connectionLimits: options.connectionLimits } : {}),
    log,
  });

  await projects.recover();
  const recovered = await actions.recover();
  await sessions.recover();
  const retention = await startRetention(actions, options, log);
  await listen(app, options.port, options.host).catch(async (error: unknown) => {
    process.off('exit', noteCrash);
    await retention.stop();
    sessions.stop();
    await app.close();
    throw error;
  });
  const address = app.server.address() as AddressInfo;
  const url = `http://${formatHost(address.address)}:${address.port}`;
  if (publicUrl === '') publicUrl = url;
  // Stored solves restart only once the port is ours, so a failed start never runs (and counts) them.
  await actions.resumePending();
  await geocoding.resume();
  log({ event: 'started', url, actions: recovered.total, requeued: recovered.pending, concurrency: options.concurrency });

  const timeoutMs = options.shutdownTimeoutMs;
  const shutdown = { app, queue, actions, store, runner, sessions, notifications, lock, retention, log, timeoutMs };
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    shuttingDown = true;
    closing ??= stopServer(shutdown).finally(() => process.off('exit', noteCrash));
    return closing;
  };
  return { url, server: app.server, close };
}

type Log = (event: Record<string, unknown>) => void;

interface Retention {
  stop(): Promise<void>;
}

/**
 * Retention of ended actions: one sweep now (before the service answers, so nothing past its time
 * is served), then one every tenth of the retention period (at least every second, at most every
 * hour). A sweep that fails (the store cannot be written) is logged and tried again next time.
 */
async function startRetention(actions: ActionService, options: ServeOptions, log: Log): Promise<Retention> {
  const retentionMs = options.retentionMs ?? SERVE_DEFAULTS.retentionDays * DAY_MS;
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

/** The solve queue (fair between keys), the solver threads and the actions on the data directory's store. */
function actionServices(
  options: ServeOptions,
  store: JsonStore,
  log: Log,
): { queue: JobQueue; runner: SolveRunner; actions: ActionService } {
  const perKey = options.queuePerKey ?? defaultPerKey(options.queueSize);
  const queue = new JobQueue(options.concurrency, options.queueSize, options.timeLimitMs / 1000, perKey);
  const runner = options.runner ?? new WorkerSolveRunner(options.concurrency);
  const solveSettings = { timeLimitMs: options.timeLimitMs, seed: options.seed, ...travelFlags(options) };
  const actions = new ActionService(new DataDirActionStore(store), queue, runner, solveSettings, log, options.saveRetryDelaysMs);
  return { queue, runner, actions };
}

/** The web application's files; the JSON API works without them, so a missing build is only a warning. */
function builtWebRoot(options: ServeOptions, log: Log): string {
  const webRoot = options.webRoot ?? defaultWebRoot();
  if (!isWebBuilt(webRoot))
    log({ event: 'warning', message: `the web application is not built (no index.html in ${webRoot}): run npm run build` });
  return webRoot;
}

/** Dispatch to drivers, and the customer messages it sends when SMTP is configured. */
async function dispatchServices(
  store: JsonStore,
  actions: ActionService,
  options: ServeOptions,
  log: Log,
  baseUrl: () => string,
): Promise<{ dispatch: DispatchService; notifications: Notifications }> {
  const notifications = await createNotifications(options.smtp, store, log);
  const dispatch = new DispatchService(store, actions, notifications.listener, {
    graceMs: options.driverLinkGraceMs ?? SERVE_DEFAULTS.driverLinkGraceHours * 3_600_000,
    now: options.now ?? (() => new Date()),
    linkUrl: (token) => `${baseUrl()}/drivers/${token}`,
    log,
  });
  await dispatch.recover();
  await notifications.recover();
  return { dispatch, notifications };
}

function jsonLog(writeLine: (line: string) => void): Log {
  return (event) => writeLine(JSON.stringify({ time: new Date().toISOString(), ...event }));
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
  queue: JobQueue;
  actions: ActionService;
  store: JsonStore;
  runner: SolveRunner;
  lock: DataDirLock;
  retention: Retention;
  log: Log;
  timeoutMs: number;
}

/** Stops accepting, waits for running solves (bounded), leaves the rest pending on disk. */
async function stopServer(shutdown: Shutdown): Promise<void> {
  const { app, queue, actions, store, runner, sessions, notifications, lock, retention, log, timeoutMs } = shutdown;
  const server = app.server;
  const stopped = app.close();
  server.closeIdleConnections();
  sessions.stop();
  await retention.stop();
  const leftWaiting = queue.stop();
  const drained = await queue.whenIdle(timeoutMs);
  if (!drained) {
    actions.interruptRunning();
    await queue.whenIdle(5_000);
  }
  await notifications.close();
  await store.flush();
  await runner.close?.();
  server.closeAllConnections();
  await stopped;
  lock.release();
  log({ event: 'stopped', left_pending: leftWaiting, interrupted: !drained });
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
