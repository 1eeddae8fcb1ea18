import { describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveOptionsFrom } from '../../src/cli/commands/serve.js';
import { InputError } from '../../src/errors.js';
import { SERVE_DEFAULTS } from '../../src/server/index.js';
import { DEFAULT_TIME_LIMIT_SECONDS, parseConfigFlag } from '../../src/config/config.js';
import { assertBuilt, runCli } from './built.js';

/** No config files and no ROUTEPLAN_* variables from the developer's machine. */
const isolatedEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  XDG_CONFIG_HOME: '/nonexistent-routeplan-test-config',
  ...extra,
});

describe('routeplan serve options', () => {
  it('defaults: 127.0.0.1, ./.routeplan-data, 10 MB bodies, no keys', async () => {
    const options = await serveOptionsFrom({}, isolatedEnv());
    expect(options).toMatchObject({
      host: '127.0.0.1',
      dataDir: './.routeplan-data',
      bodyLimitBytes: 10 * 1024 * 1024,
      queueSize: SERVE_DEFAULTS.queueSize,
      timeLimitMs: SERVE_DEFAULTS.timeLimitSeconds * 1000,
      keys: [],
    });
    expect(options.concurrency).toBeGreaterThanOrEqual(1);
  });

  it('an optimization has the same default time limit as routeplan solve (decisions.md: the same settings and time limit as the CLI)', async () => {
    const options = await serveOptionsFrom({}, isolatedEnv());
    expect(options.timeLimitMs).toBe(DEFAULT_TIME_LIMIT_SECONDS * 1000);
    expect(DEFAULT_TIME_LIMIT_SECONDS).toBe(5);
  });

  it('keys come from ROUTEPLAN_SERVER_KEYS (comma-separated) and --keys-file (one per line), together', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'routeplan-serve-')), 'keys.txt');
    await writeFile(file, 'file-key-1\n# comment\nfile-key-2\n');
    const options = await serveOptionsFrom({ keysFile: file }, isolatedEnv({ ROUTEPLAN_SERVER_KEYS: 'env-1, env-2' }));
    expect(options.keys).toEqual(['env-1', 'env-2', 'file-key-1', 'file-key-2']);
  });

  it('flags are parsed and bad values name the flag (exit 2)', async () => {
    const options = await serveOptionsFrom(
      { port: '0', concurrency: '3', queueSize: '0', timeLimit: '0.5', bodyLimit: '64k', publicUrl: 'https://routes.example.com/' },
      isolatedEnv(),
    );
    expect(options).toMatchObject({ port: 0, concurrency: 3, queueSize: 0, timeLimitMs: 500, bodyLimitBytes: 65536 });
    expect(options.publicUrl).toBe('https://routes.example.com');
    for (const [flags, flag] of [
      [{ port: '70000' }, '--port'],
      [{ concurrency: '0' }, '--concurrency'],
      [{ queueSize: '-1' }, '--queue-size'],
      [{ timeLimit: 'soon' }, '--time-limit'],
      [{ bodyLimit: 'lots' }, '--body-limit'],
      [{ publicUrl: 'ftp://x' }, '--public-url'],
    ] as const) {
      const error = await serveOptionsFrom(flags, isolatedEnv()).catch((caught: unknown) => caught);
      expect(error, flag).toBeInstanceOf(InputError);
      expect((error as InputError).details[0]!.path).toBe(flag);
    }
  });

  it('--queue-per-key (ROUTEPLAN_QUEUE_PER_KEY) caps one key’s waiting solves; the default is half of --queue-size, at least 1', async () => {
    expect((await serveOptionsFrom({}, isolatedEnv())).queuePerKey).toBe(SERVE_DEFAULTS.queueSize / 2);
    expect((await serveOptionsFrom({ queueSize: '7' }, isolatedEnv())).queuePerKey).toBe(4);
    expect((await serveOptionsFrom({ queueSize: '0' }, isolatedEnv())).queuePerKey).toBe(1);
    expect((await serveOptionsFrom({}, isolatedEnv({ ROUTEPLAN_QUEUE_PER_KEY: '9' }))).queuePerKey).toBe(9);
    expect((await serveOptionsFrom({ queuePerKey: '3' }, isolatedEnv({ ROUTEPLAN_QUEUE_PER_KEY: '9' }))).queuePerKey).toBe(3);
    const error = await serveOptionsFrom({ queuePerKey: '0' }, isolatedEnv()).catch((caught: unknown) => caught);
    expect((error as InputError).details[0]!.path).toBe('--queue-per-key');
  });

  it('--retention <days> (ROUTEPLAN_RETENTION_DAYS) keeps ended actions that long; default 30, fractions allowed, bad values name the flag', async () => {
    expect((await serveOptionsFrom({}, isolatedEnv())).retentionMs).toBe(30 * 86_400_000);
    expect((await serveOptionsFrom({ retention: '7' }, isolatedEnv())).retentionMs).toBe(7 * 86_400_000);
    expect((await serveOptionsFrom({ retention: '0.5' }, isolatedEnv())).retentionMs).toBe(43_200_000);
    expect((await serveOptionsFrom({}, isolatedEnv({ ROUTEPLAN_RETENTION_DAYS: '90' }))).retentionMs).toBe(90 * 86_400_000);
    expect((await serveOptionsFrom({ retention: '1' }, isolatedEnv({ ROUTEPLAN_RETENTION_DAYS: '90' }))).retentionMs).toBe(86_400_000);
    for (const bad of ['0', '-1', 'forever', '']) {
      const error = await serveOptionsFrom({ retention: bad }, isolatedEnv()).catch((caught: unknown) => caught);
      expect((error as InputError).details[0]!.path, bad).toBe('--retention');
    }
  });

  it('routeplan serve --help shows --queue-per-key, --retention and the data directory’s single owner', async () => {
    assertBuilt();
    const help = await runCli(['serve', '--help']);
    expect(help.code).toBe(0);
    const text = help.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('--queue-per-key <n>');
    expect(text).toContain('ROUTEPLAN_QUEUE_PER_KEY');
    expect(text).toContain('--retention <days>');
    expect(text).toContain('ROUTEPLAN_RETENTION_DAYS');
    expect(text).toContain('a second one refuses to start');
  });

  it('ROUTEPLAN_TIME_LIMIT sets the solve time limit when no flag does (flags > environment)', async () => {
    expect((await serveOptionsFrom({}, isolatedEnv({ ROUTEPLAN_TIME_LIMIT: '2' }))).timeLimitMs).toBe(2000);
    expect((await serveOptionsFrom({ timeLimit: '1' }, isolatedEnv({ ROUTEPLAN_TIME_LIMIT: '2' }))).timeLimitMs).toBe(1000);
  });

  it('driver links stay open for --driver-link-grace hours after the project’s date (ROUTEPLAN_DRIVER_LINK_GRACE; default 24)', async () => {
    expect((await serveOptionsFrom({}, isolatedEnv())).driverLinkGraceMs).toBe(24 * 3_600_000);
    expect((await serveOptionsFrom({}, isolatedEnv({ ROUTEPLAN_DRIVER_LINK_GRACE: '6' }))).driverLinkGraceMs).toBe(6 * 3_600_000);
    const flagWins = await serveOptionsFrom({ driverLinkGrace: '0.5' }, isolatedEnv({ ROUTEPLAN_DRIVER_LINK_GRACE: '6' }));
    expect(flagWins.driverLinkGraceMs).toBe(1_800_000);
    for (const bad of ['-1', 'a day', '']) {
      const error = await serveOptionsFrom({ driverLinkGrace: bad }, isolatedEnv()).catch((caught: unknown) => caught);
      expect((error as InputError).details[0]!.path, bad).toBe('--driver-link-grace');
    }
  });

  it('customers are promised the planned arrival ± --eta-margin minutes (ROUTEPLAN_ETA_MARGIN; default 30), whole minutes 0–720', async () => {
    expect((await serveOptionsFrom({}, isolatedEnv())).etaMarginMinutes).toBe(30);
    expect((await serveOptionsFrom({}, isolatedEnv({ ROUTEPLAN_ETA_MARGIN: '45' }))).etaMarginMinutes).toBe(45);
    expect((await serveOptionsFrom({ etaMargin: '0' }, isolatedEnv({ ROUTEPLAN_ETA_MARGIN: '45' }))).etaMarginMinutes).toBe(0);
    for (const bad of ['-5', '12.5', '721', 'half an hour', '']) {
      const error = await serveOptionsFrom({ etaMargin: bad }, isolatedEnv()).catch((caught: unknown) => caught);
      expect(error, bad).toBeInstanceOf(InputError);
      expect((error as InputError).details[0]!.path, bad).toBe('--eta-margin');
    }
    const fromEnv = await serveOptionsFrom({}, isolatedEnv({ ROUTEPLAN_ETA_MARGIN: 'soon' })).catch((caught: unknown) => caught);
    expect((fromEnv as InputError).message).toMatch(/ROUTEPLAN_ETA_MARGIN/);
  });

  it('customer e-mails need --smtp-url (smtp or smtps) and --smtp-from together, from flags or ROUTEPLAN_SMTP_*', async () => {
    expect((await serveOptionsFrom({}, isolatedEnv())).smtp).toBeUndefined();
    const flags = await serveOptionsFrom(
      { smtpUrl: 'smtp://u:secret@mail.example.com:587', smtpFrom: 'routes@example.com' },
      isolatedEnv(),
    );
    expect(flags.smtp).toEqual({ url: 'smtp://u:secret@mail.example.com:587', from: 'routes@example.com' });
    const env = await serveOptionsFrom(
      {},
      isolatedEnv({
        ROUTEPLAN_SMTP_URL: 'smtps://mail.example.com',
        ROUTEPLAN_SMTP_FROM: 'a@example.com',
        ROUTEPLAN_SMTP_TEMPLATES: '/etc/rp',
      }),
    );
    expect(env.smtp).toEqual({ url: 'smtps://mail.example.com', from: 'a@example.com', templatesDir: '/etc/rp' });
    for (const [bad, flag] of [
      [{ smtpUrl: 'smtp://mail.example.com' }, '--smtp-from'],
      [{ smtpFrom: 'a@example.com' }, '--smtp-url'],
      [{ smtpUrl: 'http://u:secret@mail.example.com', smtpFrom: 'a@example.com' }, '--smtp-url'],
      [{ smtpUrl: 'smtp://mail.example.com', smtpFrom: 'nobody' }, '--smtp-from'],
    ] as const) {
      const error = await serveOptionsFrom(bad, isolatedEnv()).catch((caught: unknown) => caught);
      expect((error as InputError).details[0]!.path, JSON.stringify(bad)).toBe(flag);
      expect((error as Error).message).not.toContain('secret');
    }
  });

  it('a server-wide travel source from --travel/--travel-url or ROUTEPLAN_TRAVEL*, the offline model by default', async () => {
    expect((await serveOptionsFrom({}, isolatedEnv())).travel).toBeUndefined();
    const flags = await serveOptionsFrom({ travel: 'valhalla', travelUrl: 'http://valhalla:8002/', travelProfile: 'truck' }, isolatedEnv());
    expect(flags.travel).toEqual({ source: 'valhalla', url: 'http://valhalla:8002', profile: 'truck' });
    const env = await serveOptionsFrom(
      { cache: false },
      isolatedEnv({ ROUTEPLAN_TRAVEL: 'osrm', ROUTEPLAN_TRAVEL_URL: 'http://osrm:5000' }),
    );
    expect(env.travel).toEqual({ source: 'osrm', url: 'http://osrm:5000', profile: 'driving', cache: false });
    const error = await serveOptionsFrom({ travel: 'osrm' }, isolatedEnv()).catch((caught: unknown) => caught);
    expect((error as InputError).details[0]!.path).toBe('--travel-url');
  });

  it('body sizes: bytes, or k/m/g suffixes', () => {
    const parseByteSize = (text: string) => parseConfigFlag('bodyLimitBytes', text);
    expect(parseByteSize('1048576')).toBe(1048576);
    expect(parseByteSize('10m')).toBe(10 * 1024 * 1024);
    expect(parseByteSize('10MB')).toBe(10 * 1024 * 1024);
    expect(parseByteSize('512k')).toBe(512 * 1024);
    expect(() => parseByteSize('0')).toThrow(InputError);
  });
});
