import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseConfigFlag, resolveConfig, userConfigPath } from '../../src/config/config.js';
import { InputError } from '../../src/errors.js';
import { inputError } from '../support/input-error.js';

let cwd: string;
let xdg: string;
let env: NodeJS.ProcessEnv;

function writeUserFile(text: string): string {
  mkdirSync(join(xdg, 'routeplan'), { recursive: true });
  const path = join(xdg, 'routeplan', 'config.yaml');
  writeFileSync(path, text);
  return path;
}

function writeProjectFile(text: string): string {
  const path = join(cwd, 'routeplan.config.yaml');
  writeFileSync(path, text);
  return path;
}

beforeEach(() => {
  const root = mkdtempSync(join(tmpdir(), 'routeplan-config-'));
  cwd = join(root, 'project');
  xdg = join(root, 'xdg');
  mkdirSync(cwd);
  mkdirSync(xdg);
  env = { XDG_CONFIG_HOME: xdg, HOME: join(root, 'home') };
});

describe('configuration precedence: flags > environment > project file > user file', () => {
  it('nothing configured gives an empty configuration', () => {
    expect(resolveConfig({}, env, cwd)).toEqual({});
  });

  it('user file is read from $XDG_CONFIG_HOME/routeplan/config.yaml', () => {
    writeUserFile('seed: 3\nbase_url: https://routes.example.com/\n');
    expect(resolveConfig({}, env, cwd)).toEqual({ seed: 3, baseUrl: 'https://routes.example.com' });
  });

  it('user file defaults to ~/.config when XDG_CONFIG_HOME is unset or empty', () => {
    expect(userConfigPath({ HOME: '/home/ana' })).toBe('/home/ana/.config/routeplan/config.yaml');
    expect(userConfigPath({ HOME: '/home/ana', XDG_CONFIG_HOME: '' })).toBe('/home/ana/.config/routeplan/config.yaml');
  });

  it('project file overrides the user file', () => {
    writeUserFile('seed: 3\nthreads: 2\n');
    writeProjectFile('seed: 4\n');
    expect(resolveConfig({}, env, cwd)).toEqual({ seed: 4, threads: 2 });
  });

  it('environment overrides the files', () => {
    writeUserFile('seed: 3\n');
    writeProjectFile('seed: 4\ntime_limit: 9\n');
    env.ROUTEPLAN_SEED = '5';
    expect(resolveConfig({}, env, cwd)).toEqual({ seed: 5, timeLimit: 9 });
  });

  it('flags override everything', () => {
    writeUserFile('seed: 3\n');
    writeProjectFile('seed: 4\n');
    env.ROUTEPLAN_SEED = '5';
    expect(resolveConfig({ seed: 6 }, env, cwd)).toEqual({ seed: 6 });
  });

  it('every ROUTEPLAN_* variable is read', () => {
    Object.assign(env, {
      ROUTEPLAN_BASE_URL: 'http://localhost:8080',
      ROUTEPLAN_API_KEY: 'k-123',
      ROUTEPLAN_TIME_LIMIT: '2.5',
      ROUTEPLAN_SEED: '7',
      ROUTEPLAN_THREADS: '4',
      ROUTEPLAN_ROAD_FACTOR: '1.4',
      ROUTEPLAN_BASE_SPEED: '30',
    });
    expect(resolveConfig({}, env, cwd)).toEqual({
      baseUrl: 'http://localhost:8080',
      apiKey: 'k-123',
      timeLimit: 2.5,
      seed: 7,
      threads: 4,
      roadFactor: 1.4,
      baseSpeed: 30,
    });
  });

  it('an empty environment variable counts as unset', () => {
    writeProjectFile('seed: 4\n');
    env.ROUTEPLAN_SEED = '';
    expect(resolveConfig({}, env, cwd)).toEqual({ seed: 4 });
  });

  it('file keys may be written snake_case, camelCase or kebab-case', () => {
    writeProjectFile('timeLimit: 3\nroad-factor: 1.2\nbase_speed: 35\n');
    expect(resolveConfig({}, env, cwd)).toEqual({ timeLimit: 3, roadFactor: 1.2, baseSpeed: 35 });
  });

  it('an empty file is no configuration', () => {
    writeProjectFile('');
    expect(resolveConfig({}, env, cwd)).toEqual({});
  });
});

describe('configuration validation: bad config is an InputError naming the file and key', () => {
  it('bad value in the project file names the file and the key', () => {
    const path = writeProjectFile('threads: many\n');
    const error = inputError(() => resolveConfig({}, env, cwd));
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(path);
    expect(error.message).toContain('threads');
    expect(error.details[0]!.path).toBe(`${path}: threads`);
  });

  it('bad value in the user file is reported even when a flag overrides it', () => {
    const path = writeUserFile('seed: -1\n');
    const error = inputError(() => resolveConfig({ seed: 1 }, env, cwd));
    expect(error.message).toContain(path);
    expect(error.message).toContain('seed');
  });

  it('unknown key in a file is rejected with the known keys listed', () => {
    const path = writeProjectFile('time_limt: 3\n');
    const error = inputError(() => resolveConfig({}, env, cwd));
    expect(error.message).toContain(path);
    expect(error.message).toContain('time_limt');
    expect(error.message).toContain('time_limit');
  });

  it('a file that is not YAML, or not a mapping, is rejected naming the file', () => {
    const path = writeProjectFile('seed: [1, 2\n');
    expect(inputError(() => resolveConfig({}, env, cwd)).message).toContain(path);
    writeProjectFile('- 1\n- 2\n');
    expect(inputError(() => resolveConfig({}, env, cwd)).message).toContain('expected a mapping');
  });

  it('bad environment variable names the variable', () => {
    env.ROUTEPLAN_TIME_LIMIT = 'soon';
    const error = inputError(() => resolveConfig({}, env, cwd));
    expect(error.message).toContain('ROUTEPLAN_TIME_LIMIT');
    expect(error.details[0]!.path).toBe('ROUTEPLAN_TIME_LIMIT');
  });

  it('bad flag names the flag', () => {
    const error = inputError(() => parseConfigFlag('threads', '0'));
    expect(error.message).toContain('--threads');
    expect(inputError(() => resolveConfig({ roadFactor: 0.5 }, env, cwd)).message).toContain('--road-factor');
  });

  it('ranges: time limit > 0, seed a whole number ≥ 0, threads 1..256, road factor 1..10, base speed (0, 300]', () => {
    expect(parseConfigFlag('timeLimit', '0.5')).toBe(0.5);
    expect(() => parseConfigFlag('timeLimit', '0')).toThrow(InputError);
    expect(parseConfigFlag('seed', '0')).toBe(0);
    expect(() => parseConfigFlag('seed', '1.5')).toThrow(InputError);
    expect(() => parseConfigFlag('threads', '257')).toThrow(InputError);
    expect(parseConfigFlag('roadFactor', '1')).toBe(1);
    expect(() => parseConfigFlag('roadFactor', '0.9')).toThrow(InputError);
    expect(() => parseConfigFlag('baseSpeed', '0')).toThrow(InputError);
    expect(() => parseConfigFlag('baseSpeed', 'fast')).toThrow(InputError);
  });

  it('base URL must be http(s); API key must not contain spaces', () => {
    expect(() => parseConfigFlag('baseUrl', 'ftp://example.com')).toThrow(/http or https/);
    expect(() => parseConfigFlag('baseUrl', 'not a url')).toThrow(InputError);
    expect(() => parseConfigFlag('apiKey', 'two words')).toThrow(InputError);
  });
});

describe('configuration errors from flags name the command-line flag', () => {
  it('the base URL flag is --remote (submit, poll)', () => {
    expect(() => resolveConfig({ baseUrl: 'ftp://x' }, env, cwd)).toThrow(/--remote/);
  });
});
