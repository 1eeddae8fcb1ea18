/**
 * The webhook settings (issue 28): `--webhook-url` repeatable (or ROUTEPLAN_WEBHOOK_URLS, separated
 * by commas), http(s) only, and `--webhook-secret` (or ROUTEPLAN_WEBHOOK_SECRET) required with a
 * URL; a problem stops `serve` at start with exit 2 and a message that names the flag and never
 * repeats the URL (a receiver's URL often holds its own token) nor the secret.
 */
import { describe, expect, it } from 'vitest';
import { serveOptionsFrom } from '../../src/cli/commands/serve.js';
import { InputError } from '../../src/errors.js';
import { assertBuilt, runCli } from './built.js';

const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  XDG_CONFIG_HOME: '/nonexistent-routeplan-test-config',
  ...extra,
});
const SECRET = 'a-secret-of-20-chars';

async function problemOf(flags: Record<string, unknown>, extra: Record<string, string> = {}): Promise<InputError> {
  const error = await serveOptionsFrom(flags as never, env(extra)).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

describe('webhook settings', () => {
  it('several URLs from the repeated flag, or from the variable separated by commas; none: no webhooks', async () => {
    const flags = { webhookUrl: ['https://hooks.example.com/a', 'http://10.0.0.5:8080/b/'], webhookSecret: SECRET };
    expect((await serveOptionsFrom(flags as never, env())).webhooks).toEqual({
      urls: ['https://hooks.example.com/a', 'http://10.0.0.5:8080/b'],
      secret: SECRET,
    });
    const fromEnv = await serveOptionsFrom(
      {},
      env({ ROUTEPLAN_WEBHOOK_URLS: 'https://a.example/x, https://b.example/y', ROUTEPLAN_WEBHOOK_SECRET: SECRET }),
    );
    expect(fromEnv.webhooks).toEqual({ urls: ['https://a.example/x', 'https://b.example/y'], secret: SECRET });
    expect((await serveOptionsFrom({}, env())).webhooks).toBeUndefined();
  });

  it('refuses a URL without a secret, a secret without a URL, a short secret and a URL that is not http(s), naming the flag', async () => {
    const noSecret = await problemOf({ webhookUrl: ['https://hooks.example.com/a'] });
    expect(noSecret.details.map((detail) => detail.path)).toEqual(['--webhook-secret']);
    expect(noSecret.message).toContain('webhooks are signed');
    const noUrl = await problemOf({ webhookSecret: SECRET });
    expect(noUrl.details.map((detail) => detail.path)).toEqual(['--webhook-url']);
    const short = await problemOf({ webhookUrl: ['https://hooks.example.com/a'], webhookSecret: 'short' });
    expect(short.message).toMatch(/--webhook-secret.*at least 16 characters/s);
    expect(short.message).not.toContain('"short"');
    const ftp = await problemOf({ webhookUrl: ['https://ok.example/a', 'ftp://files.example/token-123'], webhookSecret: SECRET });
    expect(ftp.message).toMatch(/--webhook-url.*URL 2: expected an http:\/\/ or https:\/\/ URL/s);
    expect(ftp.message).not.toContain('token-123');
  });

  it('routeplan serve exits 2 at start on a webhook URL that is not http(s), and takes the flag twice', async () => {
    assertBuilt();
    const bad = await runCli(['serve', '--port', '0', '--webhook-url', 'mailto:ops@example.com', '--webhook-secret', SECRET]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--webhook-url');
    // Repeated, commander collects both: the second is the one refused.
    const twice = await runCli([
      'serve',
      '--port',
      '0',
      '--webhook-url',
      'https://ok.example/a',
      '--webhook-url',
      'ftp://x.example/b',
      '--webhook-secret',
      SECRET,
    ]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('URL 2');
    const help = await runCli(['serve', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('--webhook-url <url...>');
  });
});
