/** The web application's options of `routeplan serve`: --session-ttl, --tiles, --tiles-attribution. */
import { describe, expect, it } from 'vitest';
import { serveOptionsFrom } from '../../src/cli/commands/serve.js';
import { InputError } from '../../src/errors.js';

const isolatedEnv = { XDG_CONFIG_HOME: '/nonexistent-routeplan-test-config' };

async function flagError(flags: Parameters<typeof serveOptionsFrom>[0]): Promise<InputError> {
  const error = await serveOptionsFrom(flags, isolatedEnv).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

describe('routeplan serve: web application options', () => {
  it('defaults: OpenStreetMap’s tiles (decisions.md, "The live day"), the default session lifetime (12 h, applied by the service)', async () => {
    const options = await serveOptionsFrom({}, isolatedEnv);
    expect(options.tiles).toMatchObject({ kind: 'raster', url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' });
    expect(options.sessionTtlMs).toBeUndefined();
  });

  it('--session-ttl is in hours, fractions allowed; anything else names the flag', async () => {
    expect((await serveOptionsFrom({ sessionTtl: '0.5' }, isolatedEnv)).sessionTtlMs).toBe(1_800_000);
    expect((await serveOptionsFrom({ sessionTtl: '24' }, isolatedEnv)).sessionTtlMs).toBe(86_400_000);
    for (const sessionTtl of ['0', '-1', 'soon', '', '100000']) {
      expect((await flagError({ sessionTtl })).details[0]!.path).toBe('--session-ttl');
    }
  });

  it('--tiles takes an http(s) template with {z}, {x} and {y}, and needs --tiles-attribution', async () => {
    const options = await serveOptionsFrom(
      { tiles: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', tilesAttribution: '© OpenStreetMap contributors' },
      isolatedEnv,
    );
    expect(options.tiles).toEqual({
      kind: 'raster',
      url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      attribution: '© OpenStreetMap contributors',
    });
    expect((await flagError({ tiles: 'https://tiles.example.org/{z}/{x}/{y}.png' })).details[0]!.path).toBe('--tiles-attribution');
    expect((await flagError({ tiles: 'file:///tiles/{z}/{x}/{y}.png', tilesAttribution: 'x' })).details[0]!.path).toBe('--tiles');
    expect((await flagError({ tiles: 'https://tiles.example/{z}.png', tilesAttribution: 'x' })).details[0]!.path).toBe('--tiles');
    expect((await flagError({ tilesAttribution: 'x' })).details[0]!.path).toBe('--tiles-attribution');
  });
});
