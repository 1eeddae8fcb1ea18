/** What the HTTP layer's routes share: the services behind them and the service's settings. */
import type { Warning } from '../../errors.js';
import type { DocumentKind, LoadOptions } from '../../input/index.js';
import type { Access } from './access.js';
import type { GuessLimiter } from './guess-limit.js';
import type { ActionService } from '../services/actions/service.js';
import type { ProjectService } from '../services/projects.js';
import type { ProjectEraser } from '../services/project-erase.js';
import type { DispatchService } from '../services/dispatch/service.js';
import type { TrackingService } from '../services/dispatch/tracking.js';
import type { ProjectGeocoding } from '../services/geocoding.js';
import type { ProjectMessages } from '../services/dispatch/events.js';
import type { Session, SessionService } from '../services/sessions.js';
import type { TileSource } from './web.js';
import type { QueueStats, StoreHealth } from '../store/ports.js';
import type { ConnectionLimits, ServeRole } from '../serve-options.js';
import type { MetricsEndpoint, ServiceMetrics } from '../metrics.js';
import type { HttpTap } from './tap.js';

export interface AppContext {
  /** A `worker` answers /healthz only; `api` and `all` the whole service. */
  role: ServeRole;
  access: Access;
  /** Counts wrong keys and links per client address (guess-limit.ts); tracking links use it too. */
  guesses: GuessLimiter;
  /** Proxies in front of the service whose X-Forwarded-For is believed (--trust-proxy); 0: the socket's address is the client. */
  trustProxyHops: number;
  sessions: SessionService;
  /** Accepts a request body: its warnings, or throws the InputError (job.ts validateRequest). */
  validate: (kind: DocumentKind, document: unknown, options: LoadOptions) => Warning[];
  actions: ActionService;
  projects: ProjectService;
  /** Deletes a project with everything made from it (DELETE /v1.0/project/{id}). */
  eraser: ProjectEraser;
  dispatch: DispatchService;
  /** Customers' tracking links (one stop each). */
  tracking: TrackingService;
  /** Geocodes new projects' addresses in the background (when the service has a geocoder). */
  geocoding: ProjectGeocoding;
  /** Each project's customer messages (notify/), or none when no SMTP is configured. */
  messages: ProjectMessages;
  bodyLimitBytes: number;
  loadOptions: LoadOptions;
  /** Each solve's limit, which the page shows before it starts one (GET /session answers it in seconds). */
  timeLimitMs: number;
  web: WebSettings;
  isShuttingDown: () => boolean;
  /** Whether records can be written (Stores.health): /healthz reports a full disk or an unreachable database. */
  storeHealth: () => Promise<StoreHealth>;
  /** The solve queue's counts, for /healthz. */
  queueStats: () => Promise<QueueStats>;
  /** Overrides of app.ts's CONNECTION_LIMITS (tests). */
  connectionLimits?: ConnectionLimits;
  /** Watches the routes and answers (tests: the OpenAPI document's checks). */
  tap?: HttpTap;
  log: (event: Record<string, unknown>) => void;
  /** Where the HTTP layer reports each answered request (metrics.ts). */
  metrics: ServiceMetrics;
  /** What GET /metrics answers, and to whom. */
  metricsEndpoint: MetricsEndpoint;
}

export interface WebSettings {
  /** The built web application (dist/web/ by default). */
  root: string;
  tiles: TileSource | null;
  /** Cookies get `Secure`, and answers `Strict-Transport-Security`, when the service's public URL is https. */
  secureCookies: boolean;
}

/** Per-request facts for the request log line. */
export interface RequestNotes {
  actionId?: string;
  projectId?: string;
  errorCode?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    notes: RequestNotes;
    startedAt: bigint;
    /** The session of the request's cookie (Access.resolveSession), or null. */
    session: Session | null;
  }
}
