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
import type { AnySetting, CommandName } from './setting.js';
import {
  SETTINGS,
  fileRows,
  flagName,
  resolvedRowsOf,
  settingRow,
  type CommandConfig,
  type ConfigKey,
  type RouteplanConfig,
} from './settings.js';

export { DEFAULT_SEED, DEFAULT_TIME_LIMIT_SECONDS, MAX_THREADS } from './shared-settings.js';
export type { CommandConfig, ConfigKey, RouteplanConfig } from './settings.js';

export const PROJECT_CONFIG_FILE = 'routeplan.config.yaml';

/** Flag values by setting key: the flags' texts, or values already typed (the parsers take both). */
export type FlagValues = { [K in ConfigKey]?: unknown };

type Values = Record<string, unknown>;

/**
 * The settings, strongest layer first: flags, environment, project file, user file. Only what a
 * layer gives (no defaults: settingsFor adds them). A command's own settings are read with it.
 */
export function resolveConfig(
  flags: FlagValues,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  command?: CommandName,
): RouteplanConfig {
  const rows = resolvedRowsOf(command);
  const layers = [
    readConfigFile(userConfigPath(env)),
    readConfigFile(join(cwd, PROJECT_CONFIG_FILE)),
    configFromEnv(rows, env),
    configFromFlags(rows, flags),
  ];
  return Object.assign({}, ...layers) as RouteplanConfig;
}

/** The command's settings, each default filled in where no layer gave a value (a default another command's row has is harmless). */
export function settingsFor(
  command: CommandName,
  flags: FlagValues,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): CommandConfig {
  const config = resolveConfig(flags, env, cwd, command) as Values;
  for (const row of SETTINGS) {
    if (config[row.key] === undefined && row.default !== undefined) config[row.key] = row.default;
  }
  return config as CommandConfig;
}

/** A solve's time limit: configured in seconds, run in milliseconds from here on. */
export function timeLimitMsOf(config: CommandConfig): number {
  return Math.round(config.timeLimit * 1000);
}

/** `$XDG_CONFIG_HOME/routeplan/config.yaml`, with `~/.config` when XDG_CONFIG_HOME is unset or empty. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg !== undefined && xdg.trim() !== '' ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'routeplan', 'config.yaml');
}

/**
 * Parses a flag's text (e.g. `--seed 7`) into its setting's value, with the same rules as the
 * environment and the files. Throws InputError naming the flag.
 */
export function parseConfigFlag<K extends ConfigKey>(key: K, text: string): NonNullable<RouteplanConfig[K]> {
  const row = settingRow(key);
  const flag = flagName(row) ?? key;
  return checked(row, text, flag, `invalid ${flag}`) as NonNullable<RouteplanConfig[K]>;
}

function configFromFlags(rows: AnySetting[], flags: FlagValues): Values {
  const config: Values = {};
  for (const row of rows) {
    const value = (flags as Values)[row.key];
    if (value === undefined) continue;
    const flag = flagName(row) ?? row.key;
    config[row.key] = checked(row, value, flag, `invalid ${flag}`);
  }
  return config;
}

function configFromEnv(rows: AnySetting[], env: NodeJS.ProcessEnv): Values {
  const config: Values = {};
  for (const row of rows) {
    const value = row.env === undefined ? undefined : env[row.env];
    // An exported-but-empty variable means "not set", as shells make that easy to do by accident.
    if (row.env === undefined || value === undefined || value.trim() === '') continue;
    config[row.key] = checked(row, value, row.env, `invalid environment variable ${row.env}`);
  }
  return config;
}

function readConfigFile(path: string): Values {
  if (!existsSync(path)) return {};
  const document = parseConfigDocument(path);
  if (document === null || document === undefined) return {};
  if (typeof document !== 'object' || Array.isArray(document)) {
    throw new InputError(`invalid configuration file ${path}: expected a mapping of settings`, [
      { path, message: 'expected a mapping of settings (key: value)' },
    ]);
  }
  const config: Values = {};
  for (const [name, value] of Object.entries(document as Record<string, unknown>)) {
    const setting = settingForFileKey(name);
    if (setting === undefined) {
      const known = fileRows()
        .map((entry) => entry.file)
        .join(', ');
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

function checked(row: AnySetting, value: unknown, where: string, prefix: string): unknown {
  const parsed = row.parse(value);
  if (parsed.ok) return parsed.value;
  const cause = parsed.cause === undefined ? undefined : { cause: parsed.cause };
  throw new InputError(`${prefix}: ${parsed.problem}`, [{ path: where, message: parsed.problem }], undefined, cause);
}

/** `base_url`, `baseUrl` and `base-url` all name the same setting. */
function settingForFileKey(name: string): AnySetting | undefined {
  const normalized = name.replace(/[-_]/g, '').toLowerCase();
  return fileRows().find((row) => row.key.toLowerCase() === normalized);
}
