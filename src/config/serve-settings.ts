/**
 * The settings of `routeplan serve` alone: flags, and for some an environment variable (flag >
 * environment); none is in a configuration file. Durations are parsed straight into milliseconds.
 */
import { availableParallelism } from 'node:os';
import {
  bearerSecret,
  inMilliseconds,
  integerIn,
  numberIn,
  oneOf,
  parseByteSize,
  parseEmail,
  parseKeyList,
  parsePath,
  parsePostgresUrl,
  httpUrl,
  textFor,
  urlOf,
  urlListOf,
  secretOf,
} from './parse.js';
import { setting } from './setting.js';
import { DEFAULT_TIME_LIMIT_SECONDS, MAX_THREADS } from './shared-settings.js';

export const SERVE_DEFAULTS = {
  port: 8080,
  host: '127.0.0.1',
  dataDir: './.routeplan-data',
  queueSize: 100,
  timeLimitSeconds: DEFAULT_TIME_LIMIT_SECONDS,
  bodyLimitBytes: 10 * 1024 * 1024,
  shutdownTimeoutSeconds: 30,
  /** The service's own default when none is given (server/session.ts). */
  sessionTtlHours: 12,
  driverLinkGraceHours: 24,
  /** Customers are promised the planned arrival ± this, widened to quarter hours (decisions.md, "The live day"). */
  etaMarginMinutes: 30,
  retentionDays: 30,
} as const;

/** What a process does: answer the API, run solves, or both (decisions.md, "Running the service on more than one machine"). */
export type ServeRole = 'api' | 'worker' | 'all';
export const SERVE_ROLES: readonly ServeRole[] = ['api', 'worker', 'all'];
const DEFAULT_ROLE: ServeRole = 'all';

/** One solve per core, keeping one core for the HTTP loop on bigger machines. */
export function defaultConcurrency(): number {
  const cores = availableParallelism();
  return Math.max(1, cores > 2 ? cores - 1 : cores);
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const MAX_HOURS = 24 * 366;
const SERVE = ['serve'] as const;

const LISTENING = [
  setting({
    key: 'port',
    flag: '--port <port>',
    parse: integerIn(0, 65_535),
    default: SERVE_DEFAULTS.port,
    help: `TCP port, 0 = any free port (default ${SERVE_DEFAULTS.port})`,
    commands: SERVE,
  }),
  setting({
    key: 'host',
    flag: '--host <host>',
    parse: textFor('a host name or address'),
    default: SERVE_DEFAULTS.host,
    help: `interface to bind (default ${SERVE_DEFAULTS.host})`,
    commands: SERVE,
  }),
  setting({
    key: 'trustProxy',
    flag: '--trust-proxy <hops>',
    parse: integerIn(0, 10),
    default: 0,
    help: 'reverse proxies in front of the service whose X-Forwarded-For names the client, for the limit on wrong keys per address (default 0: none)',
    commands: SERVE,
  }),
  setting({
    key: 'metricsToken',
    flag: '--metrics-token <token>',
    env: 'ROUTEPLAN_METRICS_TOKEN',
    parse: bearerSecret('a metrics token'),
    help: 'GET /metrics asks for "Authorization: Bearer <token>"; without it /metrics answers loopback clients only (prefer ROUTEPLAN_METRICS_TOKEN: a flag shows in ps)',
    commands: SERVE,
  }),
  setting({
    key: 'dataDir',
    flag: '--data-dir <dir>',
    parse: parsePath,
    default: SERVE_DEFAULTS.dataDir,
    help: `where projects and actions are stored, by one serve at a time: a second one refuses to start (default ${SERVE_DEFAULTS.dataDir})`,
    commands: SERVE,
  }),
  setting({
    key: 'keysFile',
    flag: '--keys-file <file>',
    parse: parsePath,
    help: 'API keys, one per line (also ROUTEPLAN_SERVER_KEYS, comma-separated)',
    commands: SERVE,
  }),
  /** Not a flag: keys on the command line would show in `ps`; the file and the variable add up. */
  setting({ key: 'serverKeys', env: 'ROUTEPLAN_SERVER_KEYS', parse: parseKeyList, help: '', commands: SERVE }),
] as const;

const SOLVING = [
  setting({
    key: 'concurrency',
    flag: '--concurrency <n>',
    parse: integerIn(1, MAX_THREADS),
    default: defaultConcurrency(),
    help: `solves running at once (default ${defaultConcurrency()} here: one per core, less one)`,
    commands: SERVE,
  }),
  setting({
    key: 'queueSize',
    flag: '--queue-size <n>',
    parse: integerIn(0, 1_000_000),
    default: SERVE_DEFAULTS.queueSize,
    help: `solves that may wait; beyond it requests get 429 (default ${SERVE_DEFAULTS.queueSize})`,
    commands: SERVE,
  }),
  setting({
    key: 'queuePerKey',
    flag: '--queue-per-key <n>',
    env: 'ROUTEPLAN_QUEUE_PER_KEY',
    parse: integerIn(1, 1_000_000),
    help: 'solves one API key may have waiting; beyond it that key gets 429 while others still get in (default half of --queue-size; also ROUTEPLAN_QUEUE_PER_KEY)',
    commands: SERVE,
  }),
  setting({
    key: 'retentionMs',
    flag: '--retention <days>',
    env: 'ROUTEPLAN_RETENTION_DAYS',
    parse: inMilliseconds(numberIn({ min: 0, minInclusive: false, max: 36_500 }, 'days'), DAY_MS, 1),
    default: SERVE_DEFAULTS.retentionDays * DAY_MS,
    help: `delete ended actions (their requests and plans) this many days after they ended; fractions allowed (default ${SERVE_DEFAULTS.retentionDays}; also ROUTEPLAN_RETENTION_DAYS)`,
    commands: SERVE,
  }),
  setting({
    key: 'projectRetentionMs',
    flag: '--project-retention <days>',
    env: 'ROUTEPLAN_PROJECT_RETENTION_DAYS',
    parse: inMilliseconds(numberIn({ min: 0, minInclusive: false, max: 36_500 }, 'days'), DAY_MS, 1),
    help: 'delete projects (with their optimizations, dispatch, proofs and customer messages) this many days after their date; fractions allowed (default: kept until deleted; also ROUTEPLAN_PROJECT_RETENTION_DAYS)',
    commands: SERVE,
  }),
  setting({
    key: 'bodyLimitBytes',
    flag: '--body-limit <size>',
    parse: parseByteSize,
    default: SERVE_DEFAULTS.bodyLimitBytes,
    help: 'largest request body, in bytes or with k/m suffix (default 10m)',
    commands: SERVE,
  }),
  setting({
    key: 'shutdownTimeoutMs',
    flag: '--shutdown-timeout <seconds>',
    parse: inMilliseconds(integerIn(0, 86_400), 1000),
    default: SERVE_DEFAULTS.shutdownTimeoutSeconds * 1000,
    help: `on SIGTERM/SIGINT, wait this long for running solves (default ${SERVE_DEFAULTS.shutdownTimeoutSeconds})`,
    commands: SERVE,
  }),
] as const;

const WEB = [
  setting({
    key: 'publicUrl',
    flag: '--public-url <url>',
    parse: httpUrl('https://routes.example.com'),
    help: 'base of the project page URLs (default: the bound URL)',
    commands: SERVE,
  }),
  setting({
    key: 'sessionTtlMs',
    flag: '--session-ttl <hours>',
    parse: inMilliseconds(numberIn({ min: 0, minInclusive: false, max: MAX_HOURS }, 'hours'), HOUR_MS),
    help: `how long a web sign-in lasts (default ${SERVE_DEFAULTS.sessionTtlHours})`,
    commands: SERVE,
  }),
  setting({
    key: 'tiles',
    flag: '--tiles <source>',
    parse: textFor('"none", a .pmtiles file or a URL template with {z}, {x} and {y}'),
    help: 'the maps\' basemap: a tile URL template, a local .pmtiles extract served by routeplan, or "none" for a plain offline background (default: OpenStreetMap\'s standard tiles)',
    commands: SERVE,
  }),
  setting({
    key: 'tilesAttribution',
    flag: '--tiles-attribution <text>',
    parse: textFor('the attribution the tiles require (e.g. "© OpenStreetMap contributors")'),
    help: "the attribution the tiles require, shown on the map (needed with a --tiles template; default for a .pmtiles extract: OpenStreetMap's)",
    commands: SERVE,
  }),
  setting({
    key: 'driverLinkGraceMs',
    flag: '--driver-link-grace <hours>',
    env: 'ROUTEPLAN_DRIVER_LINK_GRACE',
    parse: inMilliseconds(numberIn({ min: 0, minInclusive: true, max: MAX_HOURS }, 'hours'), HOUR_MS),
    default: SERVE_DEFAULTS.driverLinkGraceHours * HOUR_MS,
    help: `how long after the project's date a driver link still opens (default ${SERVE_DEFAULTS.driverLinkGraceHours}; also ROUTEPLAN_DRIVER_LINK_GRACE)`,
    commands: SERVE,
  }),
  setting({
    key: 'etaMarginMinutes',
    flag: '--eta-margin <minutes>',
    env: 'ROUTEPLAN_ETA_MARGIN',
    parse: integerIn(0, 720),
    default: SERVE_DEFAULTS.etaMarginMinutes,
    help: `customers are promised the planned arrival ± this many minutes, widened to quarter hours (default ${SERVE_DEFAULTS.etaMarginMinutes}; also ROUTEPLAN_ETA_MARGIN)`,
    commands: SERVE,
  }),
] as const;

const MAIL = [
  setting({
    key: 'smtpUrl',
    flag: '--smtp-url <url>',
    env: 'ROUTEPLAN_SMTP_URL',
    parse: urlOf({ protocols: ['smtp:', 'smtps:'], example: 'smtp://user:password@mail.example.com:587', secret: true }),
    help: 'send customer e-mails through this SMTP server, smtp:// or smtps:// (also ROUTEPLAN_SMTP_URL)',
    commands: SERVE,
  }),
  setting({
    key: 'smtpFrom',
    flag: '--smtp-from <address>',
    env: 'ROUTEPLAN_SMTP_FROM',
    parse: parseEmail,
    help: 'the From address of customer e-mails, needed with --smtp-url (also ROUTEPLAN_SMTP_FROM)',
    commands: SERVE,
  }),
  setting({
    key: 'smtpTemplates',
    flag: '--smtp-templates <dir>',
    env: 'ROUTEPLAN_SMTP_TEMPLATES',
    parse: parsePath,
    help: 'planned.txt and delivered.txt replacing the built-in e-mail texts (also ROUTEPLAN_SMTP_TEMPLATES)',
    commands: SERVE,
  }),
] as const;

/** Webhooks (decisions.md, "The live day"): where events are POSTed, and the key that signs them. */
const WEBHOOKS = [
  setting({
    key: 'webhookUrls',
    flag: '--webhook-url <url...>',
    env: 'ROUTEPLAN_WEBHOOK_URLS',
    // A receiver's URL often carries its own token in the path: never repeated in a problem.
    parse: urlListOf({ protocols: ['http:', 'https:'], example: 'https://hooks.example.com/routeplan', secret: true }),
    help: 'POST every event (optimization.finished, project.dispatched, stop.done, …) to this http(s) URL, signed with --webhook-secret; repeat it for several (also ROUTEPLAN_WEBHOOK_URLS, separated by commas)',
    commands: SERVE,
  }),
  setting({
    key: 'webhookSecret',
    flag: '--webhook-secret <secret>',
    env: 'ROUTEPLAN_WEBHOOK_SECRET',
    parse: secretOf(16),
    help: "the key of the webhooks' HMAC-SHA256 signatures (Routeplan-Signature), at least 16 characters; needed with --webhook-url (also ROUTEPLAN_WEBHOOK_SECRET)",
    commands: SERVE,
  }),
] as const;

/** Several serve processes on one PostgreSQL (decisions.md, "Running the service on more than one machine"). */
const SCALE_OUT = [
  setting({
    key: 'database',
    flag: '--database <url>',
    env: 'ROUTEPLAN_DATABASE_URL',
    parse: parsePostgresUrl,
    help: 'keep projects, actions and the solve queue in PostgreSQL (postgres://user:password@host/db), shared by any number of serve processes; the data directory is then unused (also ROUTEPLAN_DATABASE_URL)',
    commands: SERVE,
  }),
  setting({
    key: 'role',
    flag: '--role <role>',
    parse: oneOf(SERVE_ROLES, 'a role'),
    default: DEFAULT_ROLE,
    help: 'all: answer the API and run solves; api: answer only; worker: run solves only (and /healthz); api and worker need --database (default all)',
    commands: SERVE,
  }),
] as const;

export const SERVE_SETTINGS = [...LISTENING, ...SOLVING, ...WEB, ...MAIL, ...WEBHOOKS, ...SCALE_OUT] as const;
