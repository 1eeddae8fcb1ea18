/** `routeplan serve`: run the routing service (see src/server/app.ts for its routes). */
import type { Command } from 'commander';
import { InputError } from '../../errors.js';
import { parseKeyList, readKeysFile } from '../../server/http/auth.js';
import { SERVE_DEFAULTS, SERVE_ROLES, defaultConcurrency, startServer, type ServeOptions, type ServeRole } from '../../server/index.js';
import { defaultPerKey } from '../../server/store/ports.js';
import { parseConfigFlag, resolveConfig, type RouteplanConfig } from '../../config/config.js';
import { runCommand } from '../present.js';
import { addTravelOptions, parseTravelFlags, type TravelFlags } from '../options.js';
import { travelSettingsFrom } from '../../travel/settings.js';
import { geocoderSettingsFrom } from '../../geocode/settings.js';
import { packageVersion } from '../version.js';
import { tilesOrigin, type TileSource } from '../../server/http/web.js';
import type { SmtpSettings } from '../../server/services/notify/settings.js';

interface ServeFlags extends TravelFlags {
  port?: string;
  host?: string;
  dataDir?: string;
  database?: string;
  role?: string;
  keysFile?: string;
  concurrency?: string;
  queueSize?: string;
  queuePerKey?: string;
  retention?: string;
  timeLimit?: string;
  seed?: string;
  bodyLimit?: string;
  shutdownTimeout?: string;
  publicUrl?: string;
  sessionTtl?: string;
  tiles?: string;
  tilesAttribution?: string;
  driverLinkGrace?: string;
  smtpUrl?: string;
  smtpFrom?: string;
  smtpTemplates?: string;
}

export function registerServe(program: Command): void {
  const command = program
    .command('serve')
    .description(
      'run the routing service and its web application: POST /schedules, GET /v2/schedules/{id}, POST /v1.0/project, pages at /, …',
    )
    .option('--port <port>', `TCP port, 0 = any free port (default ${SERVE_DEFAULTS.port})`)
    .option('--host <host>', `interface to bind (default ${SERVE_DEFAULTS.host})`)
    .option(
      '--data-dir <dir>',
      `where projects and actions are stored, by one serve at a time: a second one refuses to start (default ${SERVE_DEFAULTS.dataDir})`,
    )
    .option('--keys-file <file>', 'API keys, one per line (also ROUTEPLAN_SERVER_KEYS, comma-separated)')
    .option('--concurrency <n>', `solves running at once (default ${defaultConcurrency()} here: one per core, less one)`)
    .option('--queue-size <n>', `solves that may wait; beyond it requests get 429 (default ${SERVE_DEFAULTS.queueSize})`)
    .option(
      '--queue-per-key <n>',
      'solves one API key may have waiting; beyond it that key gets 429 while others still get in (default half of --queue-size; also ROUTEPLAN_QUEUE_PER_KEY)',
    )
    .option(
      '--retention <days>',
      `delete ended actions (their requests and plans) this many days after they ended; fractions allowed (default ${SERVE_DEFAULTS.retentionDays}; also ROUTEPLAN_RETENTION_DAYS)`,
    )
    .option('--time-limit <seconds>', `time limit of each solve (default ${SERVE_DEFAULTS.timeLimitSeconds})`)
    .option('--seed <n>', 'seed of each solve (default 0)')
    .option('--body-limit <size>', 'largest request body, in bytes or with k/m suffix (default 10m)')
    .option(
      '--shutdown-timeout <seconds>',
      `on SIGTERM/SIGINT, wait this long for running solves (default ${SERVE_DEFAULTS.shutdownTimeoutSeconds})`,
    )
    .option('--public-url <url>', 'base of the project page URLs (default: the bound URL)')
    .option('--session-ttl <hours>', `how long a web sign-in lasts (default ${SERVE_DEFAULTS.sessionTtlHours})`)
    .option(
      '--tiles <url>',
      'map tiles for the web pages, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png (default: none, a plain map)',
    )
    .option('--tiles-attribution <text>', 'the attribution the tiles require, shown on the map (needed with --tiles)')
    .option(
      '--driver-link-grace <hours>',
      `how long after the project's date a driver link still opens (default ${SERVE_DEFAULTS.driverLinkGraceHours}; also ROUTEPLAN_DRIVER_LINK_GRACE)`,
    )
    .option('--smtp-url <url>', 'send customer e-mails through this SMTP server, smtp:// or smtps:// (also ROUTEPLAN_SMTP_URL)')
    .option('--smtp-from <address>', 'the From address of customer e-mails, needed with --smtp-url (also ROUTEPLAN_SMTP_FROM)')
    .option('--smtp-templates <dir>', 'planned.txt and delivered.txt replacing the built-in e-mail texts (also ROUTEPLAN_SMTP_TEMPLATES)')
    .action(async (flags: ServeFlags) => {
      await runCommand({}, async () => {
        const options = await serveOptionsFrom(flags);
        const running = await startServer(options);
        process.stderr.write(`listening on ${running.url}\n`);
        await untilSignalled(() => running.close());
      });
    });
  addScaleOutOptions(command);
  addTravelOptions(command);
}

/** Several serve processes on one PostgreSQL (decisions.md, "Running the service on more than one machine"). */
function addScaleOutOptions(command: Command): void {
  command
    .option(
      '--database <url>',
      'keep projects, actions and the solve queue in PostgreSQL (postgres://user:password@host/db), shared by any number of serve processes; the data directory is then unused (also ROUTEPLAN_DATABASE_URL)',
    )
    .option(
      '--role <role>',
      'all: answer the API and run solves; api: answer only; worker: run solves only (and /healthz); api and worker need --database (default all)',
    );
}

export async function serveOptionsFrom(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env): Promise<ServeOptions> {
  const configFlags: RouteplanConfig = {};
  if (flags.timeLimit !== undefined) configFlags.timeLimit = parseConfigFlag('timeLimit', flags.timeLimit);
  if (flags.seed !== undefined) configFlags.seed = parseConfigFlag('seed', flags.seed);
  Object.assign(configFlags, parseTravelFlags(flags));
  const config = resolveConfig(configFlags, env);
  const travel = travelSettingsFrom(config);
  const geocoder = geocoderSettingsFrom(config, packageVersion());
  const keys = [...parseKeyList(env.ROUTEPLAN_SERVER_KEYS), ...(flags.keysFile ? await readKeysFile(flags.keysFile) : [])];
  const queueSize = integerFlag(flags.queueSize, '--queue-size', SERVE_DEFAULTS.queueSize, 0, 1_000_000);
  return {
    port: integerFlag(flags.port, '--port', SERVE_DEFAULTS.port, 0, 65_535),
    host: flags.host ?? SERVE_DEFAULTS.host,
    dataDir: flags.dataDir ?? SERVE_DEFAULTS.dataDir,
    ...databaseFrom(flags.database ?? env.ROUTEPLAN_DATABASE_URL),
    role: parseRole(flags.role),
    keys,
    concurrency: integerFlag(flags.concurrency, '--concurrency', defaultConcurrency(), 1, 256),
    queueSize,
    queuePerKey: integerFlag(flags.queuePerKey ?? env.ROUTEPLAN_QUEUE_PER_KEY, '--queue-per-key', defaultPerKey(queueSize), 1, 1_000_000),
    retentionMs: parseRetention(flags.retention ?? env.ROUTEPLAN_RETENTION_DAYS),
    timeLimitMs: Math.round((config.timeLimit ?? SERVE_DEFAULTS.timeLimitSeconds) * 1000),
    seed: config.seed ?? 0,
    bodyLimitBytes: flags.bodyLimit !== undefined ? parseByteSize(flags.bodyLimit) : SERVE_DEFAULTS.bodyLimitBytes,
    shutdownTimeoutMs: integerFlag(flags.shutdownTimeout, '--shutdown-timeout', SERVE_DEFAULTS.shutdownTimeoutSeconds, 0, 86_400) * 1000,
    ...(flags.publicUrl !== undefined ? { publicUrl: parsePublicUrl(flags.publicUrl) } : {}),
    ...(flags.sessionTtl !== undefined ? { sessionTtlMs: parseSessionTtl(flags.sessionTtl) } : {}),
    ...tilesFrom(flags),
    driverLinkGraceMs: parseLinkGrace(flags.driverLinkGrace ?? env.ROUTEPLAN_DRIVER_LINK_GRACE),
    ...smtpSettingsFrom(flags, env),
    ...(config.roadFactor !== undefined ? { roadFactor: config.roadFactor } : {}),
    ...(config.baseSpeed !== undefined ? { baseSpeedKmh: config.baseSpeed } : {}),
    ...(travel.source !== 'haversine' ? { travel } : {}),
    ...(geocoder ? { geocoder } : {}),
  };
}

function databaseFrom(url: string | undefined): { database?: string } {
  if (url === undefined || url === '') return {};
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new InputError('invalid --database: expected a PostgreSQL URL, postgres://user:password@host:5432/database', [
      { path: '--database', message: 'expected postgres:// or postgresql://' },
    ]);
  }
  return { database: url };
}

function parseRole(text: string | undefined): ServeRole {
  if (text === undefined) return 'all';
  const role = SERVE_ROLES.find((candidate) => candidate === text);
  if (role === undefined) {
    throw new InputError(`invalid --role "${text}": expected ${SERVE_ROLES.join(', ')}`, [
      { path: '--role', message: `expected one of ${SERVE_ROLES.join(', ')}` },
    ]);
  }
  return role;
}

/** Resolves after the first SIGTERM/SIGINT has shut the service down; a second one exits at once. */
function untilSignalled(close: () => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (signalled) {
        process.stderr.write(`routeplan: ${signal} again, exiting without waiting\n`);
        process.exit(130);
      }
      signalled = true;
      process.stderr.write(`routeplan: ${signal}: stopping (running solves may finish; the rest stay pending)\n`);
      close().then(resolve, reject);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

function integerFlag(text: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    throw new InputError(`invalid ${flag} "${text}": expected a whole number from ${min} to ${max}`, [
      { path: flag, message: `expected a whole number from ${min} to ${max}` },
    ]);
  }
  return value;
}

/** `10485760`, `512k`, `10m`, `10MB` → bytes. */
export function parseByteSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)i?b?\s*$/i.exec(text);
  const factor = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match?.[2] ?? '').toLowerCase() as '' | 'k' | 'm' | 'g'];
  const bytes = match ? Math.floor(Number(match[1]) * factor) : NaN;
  if (!Number.isFinite(bytes) || bytes < 1) {
    throw new InputError(`invalid --body-limit "${text}": expected a size such as 10m, 512k or 1048576`, [
      { path: '--body-limit', message: 'expected bytes, or a number with a k, m or g suffix' },
    ]);
  }
  return bytes;
}

/** Days, fractions allowed (a test may keep actions for seconds), up to a hundred years. */
function parseRetention(text: string | undefined): number {
  if (text === undefined) return SERVE_DEFAULTS.retentionDays * 86_400_000;
  const days = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(days) || days <= 0 || days > 36_500) {
    throw new InputError(`invalid --retention "${text}": expected days, more than 0 and at most 36500`, [
      { path: '--retention', message: 'expected a number of days, more than 0 and at most 36500' },
    ]);
  }
  return Math.max(1, Math.round(days * 86_400_000));
}

/** Hours, fractions allowed, up to a year. */
function parseSessionTtl(text: string): number {
  const hours = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(hours) || hours <= 0 || hours > 24 * 366) {
    throw new InputError(`invalid --session-ttl "${text}": expected hours, more than 0 and at most 8784`, [
      { path: '--session-ttl', message: 'expected a number of hours, more than 0 and at most 8784' },
    ]);
  }
  return Math.round(hours * 3_600_000);
}

/** Customer e-mails: an smtp(s) URL and a From address together, or neither (flags > environment). */
function smtpSettingsFrom(flags: ServeFlags, env: NodeJS.ProcessEnv): { smtp?: SmtpSettings } {
  const url = flags.smtpUrl ?? env.ROUTEPLAN_SMTP_URL;
  const from = flags.smtpFrom ?? env.ROUTEPLAN_SMTP_FROM;
  const templatesDir = flags.smtpTemplates ?? env.ROUTEPLAN_SMTP_TEMPLATES;
  if (url === undefined || url.trim() === '') {
    if (from !== undefined || templatesDir !== undefined) throw smtpError('--smtp-url', 'is needed with --smtp-from and --smtp-templates');
    return {};
  }
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    // reported below, without echoing the URL (it may carry a password)
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:')
    throw smtpError('--smtp-url', 'expected an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587');
  if (from === undefined || !/^[^\s@<>]+@[^\s@<>]+$/.test(from.trim())) {
    throw smtpError('--smtp-from', 'customer e-mails need a From address, e.g. --smtp-from deliveries@bakery.example');
  }
  return { smtp: { url, from: from.trim(), ...(templatesDir !== undefined ? { templatesDir } : {}) } };
}

function smtpError(flag: string, message: string): InputError {
  return new InputError(`invalid ${flag}: ${message}`, [{ path: flag, message }]);
}

/** Hours after the end of the project's date; 0 ends links at midnight UTC. */
function parseLinkGrace(text: string | undefined): number {
  if (text === undefined) return SERVE_DEFAULTS.driverLinkGraceHours * 3_600_000;
  const hours = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(hours) || hours < 0 || hours > 24 * 366) {
    throw new InputError(`invalid --driver-link-grace "${text}": expected hours from 0 to 8784`, [
      { path: '--driver-link-grace', message: 'expected a number of hours from 0 to 8784' },
    ]);
  }
  return Math.round(hours * 3_600_000);
}

/** The tile template must be http(s) and place the tile ({z}, {x}, {y}); an attribution is required with it. */
function tilesFrom(flags: ServeFlags): { tiles?: TileSource } {
  if (flags.tiles === undefined) {
    if (flags.tilesAttribution !== undefined) throw tilesError('--tiles-attribution', 'only makes sense with --tiles');
    return {};
  }
  const url = flags.tiles.trim();
  if (tilesOrigin(url) === null || !['{z}', '{x}', '{y}'].every((part) => url.includes(part))) {
    throw tilesError('--tiles', `expected an http(s) URL template with {z}, {x} and {y}, got "${flags.tiles}"`);
  }
  const attribution = flags.tilesAttribution?.trim() ?? '';
  if (attribution === '') throw tilesError('--tiles-attribution', 'tiles need their attribution (e.g. "© OpenStreetMap contributors")');
  return { tiles: { url, attribution } };
}

function tilesError(flag: string, message: string): InputError {
  return new InputError(`invalid ${flag}: ${message}`, [{ path: flag, message }]);
}

function parsePublicUrl(text: string): string {
  let cause: unknown;
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href.replace(/\/+$/, '');
  } catch (error) {
    cause = error; // reported below
  }
  throw new InputError(
    `invalid --public-url "${text}": expected an http(s) URL`,
    [{ path: '--public-url', message: 'expected an http(s) URL' }],
    undefined,
    { cause },
  );
}
