/**
 * The commands' options, built from the settings table (config/settings.ts), and what the commands
 * share in reading them: the flags' values by setting, the input format, the load options.
 */
import { Option, type Command } from 'commander';
import { InputError } from '../errors.js';
import { travelSettingsFrom } from '../travel/settings.js';
import { geocoderSettingsFrom } from '../geocode/settings.js';
import { packageVersion } from './version.js';
import type { InputFormat, LoadOptions } from '../input/index.js';
import { settingsFor, type CommandConfig, type FlagValues, type RouteplanConfig } from '../config/config.js';
import { flagRowsOf } from '../config/settings.js';
import { helpFor, type AnySetting, type CommandName } from '../config/setting.js';

export const INPUT_FORMATS = ['json', 'yaml', 'csv'] as const;
export const BENCHMARK_FORMATS = ['solomon', 'vrplib'] as const;

/** Commander's options of a command: each flag's text, or true/false for a switch. */
export type CommandFlags = Record<string, unknown>;

/** Adds every option the settings table gives the command. */
export function addSettingOptions(command: Command, name: CommandName): Command {
  for (const row of flagRowsOf(name)) {
    const option = new Option(row.flag!, helpFor(row, name));
    if (row.requiredIn?.includes(name)) option.makeOptionMandatory();
    command.addOption(option);
  }
  return command;
}

/** The value commander gave the row's flag; a `--no-…` flag counts only when given (commander defaults it to true). */
function flagValue(row: AnySetting, flags: CommandFlags): unknown {
  const option = new Option(row.flag!);
  const value = flags[option.attributeName()];
  return option.negate && value !== false ? undefined : value;
}

/** The command's flags by setting key, for the layered resolution (config/config.ts). */
export function flagValuesOf(name: CommandName, flags: CommandFlags): FlagValues {
  const values: Record<string, unknown> = {};
  for (const row of flagRowsOf(name)) {
    const value = flagValue(row, flags);
    if (value !== undefined) values[row.key] = value;
  }
  return values;
}

/** The command's settings: its flags over the environment over the configuration files, then the defaults. */
export function commandSettings(name: CommandName, flags: CommandFlags, env: NodeJS.ProcessEnv = process.env): CommandConfig {
  return settingsFor(name, flagValuesOf(name, flags), env);
}

export interface FormatFlags {
  inputFormat?: string;
  format?: string;
}

/**
 * `--input-format` (json|yaml|csv; for stdin only CSV needs it) and `--format` (solomon|vrplib)
 * both pick the reader; giving both is contradictory. Throws InputError naming the flag.
 */
export function loadFormat(_file: string, flags: FormatFlags): InputFormat | undefined {
  const { inputFormat, format } = flags;
  if (inputFormat !== undefined && format !== undefined) {
    throw new InputError('give either --input-format or --format, not both', [
      { path: '--format', message: `--format ${format} conflicts with --input-format ${inputFormat}` },
    ]);
  }
  if (inputFormat !== undefined) return oneOf(inputFormat, INPUT_FORMATS, '--input-format');
  if (format !== undefined) return oneOf(format, BENCHMARK_FORMATS, '--format');
  // Standard input without a format: JSON and YAML are told apart by their content (read.ts);
  // CSV and the benchmark formats still need the flag.
  return undefined;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  const normalized = value.toLowerCase();
  const match = allowed.find((candidate) => candidate === normalized);
  if (match === undefined) {
    throw new InputError(`invalid ${flag} "${value}": expected one of ${allowed.join(', ')}`, [
      { path: flag, message: `expected one of ${allowed.join(', ')}` },
    ]);
  }
  return match;
}

/** What loading reports as it goes, and `--allow-unresolved`. */
export type LoadExtras = Pick<LoadOptions, 'onTravelProgress' | 'onGeocodeProgress' | 'allowUnresolved'>;

export function loadOptions(format: InputFormat | undefined, config: RouteplanConfig, extras: LoadExtras = {}): LoadOptions {
  const options: LoadOptions = { ...extras };
  if (format !== undefined) options.format = format;
  if (config.roadFactor !== undefined) options.roadFactor = config.roadFactor;
  if (config.baseSpeed !== undefined) options.baseSpeedKmh = config.baseSpeed;
  const travel = travelSettingsFrom(config);
  if (travel.source !== 'haversine') options.travel = travel;
  const geocoder = geocoderSettingsFrom(config, packageVersion());
  if (geocoder) options.geocoder = geocoder;
  return options;
}
