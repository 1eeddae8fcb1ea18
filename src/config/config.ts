/**
 * Configuration precedence (decisions.md): flags > environment (ROUTEPLAN_*) > project file
 * (routeplan.config.yaml in the working directory) > user file (XDG config dir).
 *
 * Every layer is validated on its own, even when a stronger layer overrides a value, so that a
 * broken file is reported instead of surfacing later when a flag is dropped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { InputError } from '../errors.js';

export interface RouteplanConfig {
  baseUrl?: string;
  apiKey?: string;
  /** Seconds. */
  timeLimit?: number;
  seed?: number;
  threads?: number;
  roadFactor?: number;
  /** km/h. */
  baseSpeed?: number;
  /** Where travel times come from (decisions.md, "Road travel times"). */
  travel?: string;
  travelUrl?: string;
  travelProfile?: string;
  travelMatrix?: string;
  /** Coordinates (OSRM) or pairs (Valhalla) per provider request. */
  travelMaxLocations?: number;
  /** False: neither read nor write the disk cache of remote answers (`--no-cache`). */
  cache?: boolean;
  /** Addresses without coordinates (decisions.md, "Geocoding"). */
  geocoder?: string;
  geocoderUrl?: string;
  gazetteer?: string;
  geocoderEmail?: string;
}

export type ConfigKey = keyof RouteplanConfig;

export const PROJECT_CONFIG_FILE = 'routeplan.config.yaml';

type Parsed = { ok: true; value: string | number | boolean } | { ok: false; problem: string };

interface Setting {
  key: ConfigKey;
  /** The spelling in config files (snake_case; camelCase and kebab-case are accepted too). */
  fileKey: string;
  env: string;
  flag: string;
  parse(value: unknown): Parsed;
}

export const MAX_THREADS = 256;

/** The wall-clock bound of a solve when none is configured: `solve` and each action of `serve` alike. */
export const DEFAULT_TIME_LIMIT_SECONDS = 5;

const SETTINGS: Setting[] = [
  { key: 'baseUrl', fileKey: 'base_url', env: 'ROUTEPLAN_BASE_URL', flag: '--remote', parse: parseBaseUrl },
  { key: 'apiKey', fileKey: 'api_key', env: 'ROUTEPLAN_API_KEY', flag: '--api-key', parse: parseApiKey },
  {
    key: 'timeLimit',
    fileKey: 'time_limit',
    env: 'ROUTEPLAN_TIME_LIMIT',
    flag: '--time-limit',
    parse: numberIn({ min: 0, minInclusive: false, max: 86_400 }, 'seconds'),
  },
  {
    key: 'seed',
    fileKey: 'seed',
    env: 'ROUTEPLAN_SEED',
    flag: '--seed',
    parse: integerIn(0, 2 ** 32 - 1),
  },
  {
    key: 'threads',
    fileKey: 'threads',
    env: 'ROUTEPLAN_THREADS',
    flag: '--threads',
    parse: integerIn(1, MAX_THREADS),
  },
  {
    key: 'roadFactor',
    fileKey: 'road_factor',
    env: 'ROUTEPLAN_ROAD_FACTOR',
    flag: '--road-factor',
    parse: numberIn({ min: 1, minInclusive: true, max: 10 }, 'a multiplier of the straight-line distance'),
  },
  {
    key: 'baseSpeed',
    fileKey: 'base_speed',
    env: 'ROUTEPLAN_BASE_SPEED',
    flag: '--base-speed',
    parse: numberIn({ min: 0, minInclusive: false, max: 300 }, 'km/h'),
  },
  { key: 'travel', fileKey: 'travel', env: 'ROUTEPLAN_TRAVEL', flag: '--travel', parse: parseTravelSource },
  { key: 'travelUrl', fileKey: 'travel_url', env: 'ROUTEPLAN_TRAVEL_URL', flag: '--travel-url', parse: parseBaseUrl },
  { key: 'travelProfile', fileKey: 'travel_profile', env: 'ROUTEPLAN_TRAVEL_PROFILE', flag: '--travel-profile', parse: parseProfile },
  { key: 'travelMatrix', fileKey: 'travel_matrix', env: 'ROUTEPLAN_TRAVEL_MATRIX', flag: '--travel-matrix', parse: parsePath },
  {
    key: 'travelMaxLocations',
    fileKey: 'travel_max_locations',
    env: 'ROUTEPLAN_TRAVEL_MAX_LOCATIONS',
    flag: '--travel-max-locations',
    parse: integerIn(2, 1_000_000),
  },
  { key: 'cache', fileKey: 'cache', env: 'ROUTEPLAN_CACHE', flag: '--no-cache', parse: parseSwitch },
  { key: 'geocoder', fileKey: 'geocoder', env: 'ROUTEPLAN_GEOCODER', flag: '--geocoder', parse: parseGeocoderName },
  { key: 'geocoderUrl', fileKey: 'geocoder_url', env: 'ROUTEPLAN_GEOCODER_URL', flag: '--geocoder-url', parse: parseBaseUrl },
  { key: 'gazetteer', fileKey: 'gazetteer', env: 'ROUTEPLAN_GAZETTEER', flag: '--gazetteer', parse: parsePath },
  { key: 'geocoderEmail', fileKey: 'geocoder_email', env: 'ROUTEPLAN_GEOCODER_EMAIL', flag: '--geocoder-email', parse: parseEmail },
];

export const TRAVEL_SOURCE_NAMES = ['haversine', 'osrm', 'valhalla', 'matrix'] as const;

export function resolveConfig(flags: RouteplanConfig, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): RouteplanConfig {
  const layers = [
    readConfigFile(userConfigPath(env)),
    readConfigFile(join(cwd, PROJECT_CONFIG_FILE)),
    configFromEnv(env),
    configFromFlags(flags),
  ];
  return Object.assign({}, ...layers) as RouteplanConfig;
}

/** `$XDG_CONFIG_HOME/routeplan/config.yaml`, with `~/.config` when XDG_CONFIG_HOME is unset or empty. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg !== undefined && xdg.trim() !== '' ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'routeplan', 'config.yaml');
}

/**
 * Parses a flag's text (e.g. `--seed 7`) into its config value, with the same rules as the
 * environment and the files. Throws InputError naming the flag.
 */
export function parseConfigFlag<K extends ConfigKey>(key: K, text: string): NonNullable<RouteplanConfig[K]> {
  const setting = settingFor(key);
  return checked(setting, text, setting.flag, `invalid ${setting.flag}`) as NonNullable<RouteplanConfig[K]>;
}

function configFromFlags(flags: RouteplanConfig): RouteplanConfig {
  const config: Record<string, string | number | boolean> = {};
  for (const setting of SETTINGS) {
    const value = flags[setting.key];
    if (value === undefined) continue;
    config[setting.key] = checked(setting, value, setting.flag, `invalid ${setting.flag}`);
  }
  return config;
}

function configFromEnv(env: NodeJS.ProcessEnv): RouteplanConfig {
  const config: Record<string, string | number | boolean> = {};
  for (const setting of SETTINGS) {
    const value = env[setting.env];
    // An exported-but-empty variable means "not set", as shells make that easy to do by accident.
    if (value === undefined || value.trim() === '') continue;
    config[setting.key] = checked(setting, value, setting.env, `invalid environment variable ${setting.env}`);
  }
  return config;
}

function readConfigFile(path: string): RouteplanConfig {
  if (!existsSync(path)) return {};
  const document = parseConfigDocument(path);
  if (document === null || document === undefined) return {};
  if (typeof document !== 'object' || Array.isArray(document)) {
    throw new InputError(`invalid configuration file ${path}: expected a mapping of settings`, [
      { path, message: 'expected a mapping of settings (key: value)' },
    ]);
  }
  const config: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(document as Record<string, unknown>)) {
    const setting = settingForFileKey(name);
    if (setting === undefined) {
      const known = SETTINGS.map((entry) => entry.fileKey).join(', ');
      throw new InputError(`invalid configuration file ${path}: unknown key "${name}" (known keys: ${known})`, [
        { path: `${path}: ${name}`, message: `unknown key; known keys: ${known}` },
      ]);
    }
    if (value === null) continue;
    config[setting.key] = checked(setting, value, `${path}: ${name}`, `invalid configuration file ${path}: key "${name}"`);
  }
  return config;
}

function parseConfigDocument(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new InputError(`cannot read configuration file ${path} (${reason})`, [{ path, message: 'unreadable' }], undefined, {
      cause: error,
    });
  }
  try {
    return parseYaml(text);
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    throw new InputError(
      `invalid configuration file ${path}: not valid YAML (${reason})`,
      [{ path, message: `not valid YAML: ${reason}` }],
      undefined,
      { cause: error },
    );
  }
}

function checked(setting: Setting, value: unknown, where: string, prefix: string): string | number | boolean {
  const parsed = setting.parse(value);
  if (parsed.ok) return parsed.value;
  throw new InputError(`${prefix}: ${parsed.problem}`, [{ path: where, message: parsed.problem }]);
}

function settingFor(key: ConfigKey): Setting {
  const setting = SETTINGS.find((entry) => entry.key === key);
  if (setting === undefined) throw new Error(`unknown configuration key ${key}`);
  return setting;
}

/** `base_url`, `baseUrl` and `base-url` all name the same setting. */
function settingForFileKey(name: string): Setting | undefined {
  const normalized = name.replace(/[-_]/g, '').toLowerCase();
  return SETTINGS.find((entry) => entry.key.toLowerCase() === normalized);
}

function parseBaseUrl(value: unknown): Parsed {
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, problem: 'expected a URL such as https://routes.example.com' };
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { ok: false, problem: `"${value}" is not a URL (expected e.g. https://routes.example.com)` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, problem: `"${value}" must use http or https` };
  }
  // Endpoint paths are appended to the base URL, so a trailing slash would double up.
  return { ok: true, value: value.trim().replace(/\/+$/, '') };
}

function parseApiKey(value: unknown): Parsed {
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, problem: 'expected a non-empty string' };
  if (/\s/.test(value.trim())) return { ok: false, problem: 'an API key cannot contain spaces or line breaks' };
  return { ok: true, value: value.trim() };
}

function parseTravelSource(value: unknown): Parsed {
  const name = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return (TRAVEL_SOURCE_NAMES as readonly string[]).includes(name)
    ? { ok: true, value: name }
    : { ok: false, problem: `${JSON.stringify(value)} is not a travel source; expected one of ${TRAVEL_SOURCE_NAMES.join(', ')}` };
}

function parseGeocoderName(value: unknown): Parsed {
  const name = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return name === 'nominatim' || name === 'gazetteer'
    ? { ok: true, value: name }
    : { ok: false, problem: `${JSON.stringify(value)} is not a geocoder; expected nominatim or gazetteer` };
}

function parseEmail(value: unknown): Parsed {
  const text = typeof value === 'string' ? value.trim() : '';
  return /^[^\s@<>]+@[^\s@<>]+$/.test(text)
    ? { ok: true, value: text }
    : { ok: false, problem: `${JSON.stringify(value)} is not an e-mail address` };
}

function parseProfile(value: unknown): Parsed {
  const text = typeof value === 'string' ? value.trim() : '';
  return /^[A-Za-z0-9_.-]{1,64}$/.test(text)
    ? { ok: true, value: text }
    : { ok: false, problem: `${JSON.stringify(value)} is not a profile name (e.g. driving, car, auto, truck)` };
}

function parsePath(value: unknown): Parsed {
  return typeof value === 'string' && value.trim() !== ''
    ? { ok: true, value: value.trim() }
    : { ok: false, problem: 'expected a file path' };
}

/** true/false, yes/no, on/off, 1/0. */
function parseSwitch(value: unknown): Parsed {
  if (typeof value === 'boolean') return { ok: true, value };
  const text = String(value).trim().toLowerCase();
  if (['true', 'yes', 'on', '1'].includes(text)) return { ok: true, value: true };
  if (['false', 'no', 'off', '0'].includes(text)) return { ok: true, value: false };
  return { ok: false, problem: `${JSON.stringify(value)} is not a switch; expected true or false` };
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value.trim());
    return Number.isNaN(number) ? null : number;
  }
  return null;
}

function numberIn(range: { min: number; minInclusive: boolean; max: number }, unit: string): (value: unknown) => Parsed {
  return (value) => {
    const number = toNumber(value);
    const above = range.minInclusive ? `at least ${range.min}` : `greater than ${range.min}`;
    const expected = `expected a number ${above} and at most ${range.max} (${unit})`;
    if (number === null || !Number.isFinite(number)) return { ok: false, problem: `${JSON.stringify(value)} is not a number; ${expected}` };
    const tooLow = range.minInclusive ? number < range.min : number <= range.min;
    if (tooLow || number > range.max) return { ok: false, problem: `${number} is out of range; ${expected}` };
    return { ok: true, value: number };
  };
}

function integerIn(min: number, max: number): (value: unknown) => Parsed {
  return (value) => {
    const number = toNumber(value);
    const expected = `expected a whole number from ${min} to ${max}`;
    if (number === null || !Number.isInteger(number))
      return { ok: false, problem: `${JSON.stringify(value)} is not a whole number; ${expected}` };
    if (number < min || number > max) return { ok: false, problem: `${number} is out of range; ${expected}` };
    return { ok: true, value: number };
  };
}
