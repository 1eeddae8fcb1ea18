/** `routeplan serve`: run the routing service (see src/server/http/app.ts for its routes). */
import type { Command } from 'commander';
import { resolve } from 'node:path';
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
import { OSM_TILES, PMTILES_ATTRIBUTION, tilesOrigin, type TileSource } from '../../server/http/web.js';
import { readPmtilesHeader } from '../../server/http/pmtiles.js';
import type { SmtpSettings } from '../../server/services/notify/settings.js';
import type { WebhookSettings } from '../../server/services/webhooks/index.js';

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
    ...(settings.metricsToken !== undefined ? { metricsToken: settings.metricsToken } : {}),
    dataDir: settings.dataDir,
    ...(settings.database !== undefined ? { database: settings.database } : {}),
    role: settings.role,
    keys: [...(settings.serverKeys ?? []), ...(settings.keysFile !== undefined ? await readKeysFile(settings.keysFile) : [])],
    concurrency: settings.concurrency,
    queueSize,
    queuePerKey: settings.queuePerKey ?? defaultPerKey(queueSize),
    retentionMs: settings.retentionMs,
    ...(settings.projectRetentionMs !== undefined ? { projectRetentionMs: settings.projectRetentionMs } : {}),
    timeLimitMs: timeLimitMsOf(settings),
    seed: settings.seed,
    bodyLimitBytes: settings.bodyLimitBytes,
    shutdownTimeoutMs: settings.shutdownTimeoutMs,
    ...(settings.publicUrl !== undefined ? { publicUrl: settings.publicUrl } : {}),
    ...(settings.sessionTtlMs !== undefined ? { sessionTtlMs: settings.sessionTtlMs } : {}),
    ...(await tilesFrom(settings)),
    driverLinkGraceMs: settings.driverLinkGraceMs,
    etaMarginMinutes: settings.etaMarginMinutes,
    ...smtpSettingsFrom(settings),
    ...webhookSettingsFrom(settings),
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

/** Webhooks: URLs and a secret together, or neither (an unsigned event could be sent by anyone). */
function webhookSettingsFrom(settings: RouteplanConfig): { webhooks?: WebhookSettings } {
  const { webhookUrls: urls, webhookSecret: secret } = settings;
  if (urls === undefined) {
    if (secret !== undefined) throw flagError('--webhook-url', 'is needed with --webhook-secret: where should the events go?');
    return {};
  }
  if (secret === undefined) {
    throw flagError(
      '--webhook-secret',
      'webhooks are signed: give a secret of at least 16 characters with --webhook-url (or ROUTEPLAN_WEBHOOK_SECRET)',
    );
  }
  return { webhooks: { urls, secret } };
}

/**
 * The basemap (decisions.md, "The live day"): OpenStreetMap's tiles by default, `none` for the plain
 * offline background, a `.pmtiles` file (checked now: a PMTiles v3 vector extract) or an http(s)
 * template placing the tile ({z}, {x}, {y}). Another template needs its attribution; an extract
 * has OpenStreetMap's unless one is given.
 */
async function tilesFrom(settings: RouteplanConfig): Promise<{ tiles?: TileSource }> {
  const { tiles: given, tilesAttribution: attribution } = settings;
  if (given === undefined || given === 'none') {
    if (attribution !== undefined) throw flagError('--tiles-attribution', 'needs a tile source: --tiles <url template|file.pmtiles>');
    return given === 'none' ? {} : { tiles: { ...OSM_TILES } };
  }
  if (given.toLowerCase().endsWith('.pmtiles') && tilesOrigin(given) === null) {
    const facts = await readPmtilesHeader(given);
    if ('problem' in facts) throw flagError('--tiles', facts.problem);
    return { tiles: { kind: 'pmtiles', file: resolve(given), attribution: attribution ?? PMTILES_ATTRIBUTION, maxZoom: facts.maxZoom } };
  }
  if (tilesOrigin(given) === null || !['{z}', '{x}', '{y}'].every((part) => given.includes(part))) {
    throw flagError('--tiles', `expected "none", a .pmtiles file or an http(s) URL template with {z}, {x} and {y}, got "${given}"`);
  }
  if (attribution === undefined) {
    if (given === OSM_TILES.url) return { tiles: { ...OSM_TILES } };
    throw flagError('--tiles-attribution', 'tiles need their attribution (e.g. "© OpenStreetMap contributors")');
  }
  return { tiles: { kind: 'raster', url: given, attribution } };
}

function flagError(flag: string, message: string): InputError {
  return new InputError(`invalid ${flag}: ${message}`, [{ path: flag, message }]);
}
