/** `routeplan serve`: run the routing service (see src/server/http/app.ts for its routes). */
import type { Command } from 'commander';
import { InputError } from '../../errors.js';
import { readKeysFile } from '../../server/http/auth.js';
import { startServer, type ServeOptions } from '../../server/index.js';
import { defaultPerKey } from '../../server/store/ports.js';
import { timeLimitMsOf, type RouteplanConfig } from '../../config/config.js';
import { runCommand } from '../present.js';
import { inFlagTermsOf } from '../flag-terms.js';
import { addSettingOptions, commandSettings } from '../options.js';
import { travelSettingsFrom } from '../../travel/settings.js';
import { geocoderSettingsFrom } from '../../geocode/settings.js';
import { packageVersion } from '../version.js';
import { tilesOrigin, type TileSource } from '../../server/http/web.js';
import type { SmtpSettings } from '../../server/services/notify/settings.js';

/** Commander's options of `serve`: each flag's text, or false for a `--no-…` flag given. */
export type ServeFlags = Partial<Record<string, string | boolean>>;

export function registerServe(program: Command): void {
  const command = program
    .command('serve')
    .description(
      'run the routing service and its web application: POST /schedules, GET /v2/schedules/{id}, POST /v1.0/project, pages at /, …',
    )
    .action(async (flags: ServeFlags) => {
      await runCommand({}, async () => {
        const options = await serveOptionsFrom(flags);
        const running = await startServer(options);
        // The handlers first: a supervisor may signal as soon as it reads the line.
        const stopped = untilSignalled(() => running.close());
        process.stderr.write(`listening on ${running.url}\n`);
        await stopped;
      });
    });
  addSettingOptions(command, 'serve');
}

/** The service's options: the settings table's rows of `serve` (flags > environment > config files, then defaults). */
export async function serveOptionsFrom(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env): Promise<ServeOptions> {
  const settings = commandSettings('serve', flags, env);
  const travel = inFlagTermsOf(() => travelSettingsFrom(settings));
  const geocoder = inFlagTermsOf(() => geocoderSettingsFrom(settings, packageVersion()));
  const queueSize = settings.queueSize;
  return {
    port: settings.port,
    host: settings.host,
    trustProxyHops: settings.trustProxy,
    dataDir: settings.dataDir,
    ...(settings.database !== undefined ? { database: settings.database } : {}),
    role: settings.role,
    keys: [...(settings.serverKeys ?? []), ...(settings.keysFile !== undefined ? await readKeysFile(settings.keysFile) : [])],
    concurrency: settings.concurrency,
    queueSize,
    queuePerKey: settings.queuePerKey ?? defaultPerKey(queueSize),
    retentionMs: settings.retentionMs,
    timeLimitMs: timeLimitMsOf(settings),
    seed: settings.seed,
    bodyLimitBytes: settings.bodyLimitBytes,
    shutdownTimeoutMs: settings.shutdownTimeoutMs,
    ...(settings.publicUrl !== undefined ? { publicUrl: settings.publicUrl } : {}),
    ...(settings.sessionTtlMs !== undefined ? { sessionTtlMs: settings.sessionTtlMs } : {}),
    ...tilesFrom(settings),
    driverLinkGraceMs: settings.driverLinkGraceMs,
    etaMarginMinutes: settings.etaMarginMinutes,
    ...smtpSettingsFrom(settings),
    ...(settings.roadFactor !== undefined ? { roadFactor: settings.roadFactor } : {}),
    ...(settings.baseSpeed !== undefined ? { baseSpeedKmh: settings.baseSpeed } : {}),
    ...(travel.source !== 'haversine' ? { travel } : {}),
    ...(geocoder ? { geocoder } : {}),
  };
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

/** Customer e-mails: an smtp(s) URL and a From address together, or neither; each checked by its row. */
function smtpSettingsFrom(settings: RouteplanConfig): { smtp?: SmtpSettings } {
  const { smtpUrl: url, smtpFrom: from, smtpTemplates: templatesDir } = settings;
  if (url === undefined) {
    if (from !== undefined || templatesDir !== undefined) throw flagError('--smtp-url', 'is needed with --smtp-from and --smtp-templates');
    return {};
  }
  if (from === undefined) {
    throw flagError('--smtp-from', 'customer e-mails need a From address, e.g. --smtp-from deliveries@bakery.example');
  }
  return { smtp: { url, from, ...(templatesDir !== undefined ? { templatesDir } : {}) } };
}

/** The tile template must be http(s) and place the tile ({z}, {x}, {y}); an attribution is required with it. */
function tilesFrom(settings: RouteplanConfig): { tiles?: TileSource } {
  const { tiles: url, tilesAttribution: attribution } = settings;
  if (url === undefined) {
    if (attribution !== undefined) throw flagError('--tiles-attribution', 'only makes sense with --tiles');
    return {};
  }
  if (tilesOrigin(url) === null || !['{z}', '{x}', '{y}'].every((part) => url.includes(part))) {
    throw flagError('--tiles', `expected an http(s) URL template with {z}, {x} and {y}, got "${url}"`);
  }
  if (attribution === undefined) {
    throw flagError('--tiles-attribution', 'tiles need their attribution (e.g. "© OpenStreetMap contributors")');
  }
  return { tiles: { url, attribution } };
}

function flagError(flag: string, message: string): InputError {
  return new InputError(`invalid ${flag}: ${message}`, [{ path: flag, message }]);
}
