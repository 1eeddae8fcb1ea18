/**
 * What `routeplan serve` is started with (index.ts startServer); the CLI builds it from the settings
 * table's rows of `serve` (cli/commands/serve.ts). Durations are in milliseconds.
 */
import type { SolveRunner } from './services/solve-runner.js';
import type { TileSource } from './http/web.js';
import type { SmtpSettings } from './services/notify/settings.js';
import type { DispatchListener } from './services/dispatch/events.js';
import type { TravelSettings } from '../travel/types.js';
import type { GeocoderSettings } from '../geocode/types.js';
import type { ServeRole } from '../config/serve-settings.js';
import type { GuessLimits } from './http/guess-limit.js';
import type { RetrySchedule, WebhookSettings } from './services/webhooks/index.js';
import type { HttpTap } from './http/tap.js';

/** Overrides of app.ts's CONNECTION_LIMITS (tests). */
export type ConnectionLimits = Partial<{ headersTimeoutMs: number; requestTimeoutMs: number; maxConnections: number }>;

/** What a process does (the `--role` setting, config/serve-settings.ts): answer the API, run solves, or both. */
export { SERVE_ROLES, type ServeRole } from '../config/serve-settings.js';

export interface ServeOptions {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL (`postgres://…`): projects, actions and the queue shared by every process; the data directory is then unused. */
  database?: string;
  /** Default `all`; `api` and `worker` need a database (with a data directory, its one process does both). */
  role?: ServeRole;
  /** API keys; empty = open access, allowed on a loopback host only. */
  keys: string[];
  concurrency: number;
  queueSize: number;
  /** Most solves one API key may have waiting (default: half of queueSize, at least one). */
  queuePerKey?: number;
  /** How long ended actions are kept (default 30 days); a sweep at start and then periodically deletes older ones. */
  retentionMs?: number;
  /** How long projects are kept after their date (default: until deleted); swept with the actions. */
  projectRetentionMs?: number;
  timeLimitMs: number;
  seed: number;
  bodyLimitBytes: number;
  /** How long a shutdown waits for running solves before leaving them pending for the next start. */
  shutdownTimeoutMs: number;
  /** Base of project page URLs; defaults to the bound URL. An https one makes the session cookie Secure. */
  publicUrl?: string;
  /** Lifetime of a browser session (default 12 h). */
  sessionTtlMs?: number;
  /**
   * The maps' basemap; without it they draw on a plain background. `routeplan serve` gives
   * OpenStreetMap's tiles unless told `--tiles none` (cli/commands/serve.ts); tests give none.
   */
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
  /** Customers are promised the planned arrival ± this many minutes, widened to quarter hours (default 30). */
  etaMarginMinutes?: number;
  /** Hands over what the dispatch tells customer messages, so tests can send it the live day's events (etaChanged). */
  tapDispatchListener?: (listener: DispatchListener) => void;
  /** The clock of link expiry and stop statuses (tests). */
  now?: () => Date;
  /** Overrides of the connection limits (tests): headers and request timeouts, connection cap. */
  connectionLimits?: ConnectionLimits;
  /** Proxies in front of the service whose X-Forwarded-For is believed (default 0: none, the socket's address is the client's). */
  trustProxyHops?: number;
  /** The Bearer token GET /metrics asks for; without it /metrics answers loopback clients only. */
  metricsToken?: string;
  /** Overrides of the key-guess limit (tests; http/guess-limit.ts GUESS_LIMITS). */
  guessLimits?: Partial<GuessLimits>;
  /** Webhook URLs and the secret that signs their events; without it no event is recorded. */
  webhooks?: WebhookSettings;
  /** Overrides of the webhooks' retry schedule (tests: short waits and window; services/webhooks/schedule.ts). */
  webhookSchedule?: Partial<RetrySchedule>;
  /** Watches the HTTP layer's routes and answers (tests: the OpenAPI document's checks; http/tap.ts). */
  httpTap?: HttpTap;
}
