/** Parsing of the command-line options shared by `solve` and `validate`. */
import { InputError } from '../errors.js';
import type { InputFormat, LoadOptions } from '../input/index.js';
import { parseConfigFlag } from '../config/config.js';
import type { RouteplanConfig } from '../config/config.js';

export const INPUT_FORMATS = ['json', 'yaml', 'csv'] as const;
export const BENCHMARK_FORMATS = ['solomon', 'vrplib'] as const;

export interface FormatFlags {
  inputFormat?: string;
  format?: string;
}

/**
 * `--input-format` (json|yaml|csv, needed for stdin) and `--format` (solomon|vrplib) both pick
 * the reader; giving both is contradictory. Throws InputError naming the flag.
 */
export function loadFormat(file: string, flags: FormatFlags): InputFormat | undefined {
  const { inputFormat, format } = flags;
  if (inputFormat !== undefined && format !== undefined) {
    throw new InputError('give either --input-format or --format, not both', [
      { path: '--format', message: `--format ${format} conflicts with --input-format ${inputFormat}` },
    ]);
  }
  if (inputFormat !== undefined) return oneOf(inputFormat, INPUT_FORMATS, '--input-format');
  if (format !== undefined) return oneOf(format, BENCHMARK_FORMATS, '--format');
  if (file === '-') {
    throw new InputError('reading standard input ("-") needs --input-format json, yaml or csv (or --format solomon|vrplib)', [
      { path: '--input-format', message: 'required when the file is "-"' },
    ]);
  }
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

/** A whole number ≥ 1 (e.g. `--max-iterations`). Throws InputError naming the flag. */
export function parsePositiveInteger(text: string, flag: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(value) || value < 1) {
    throw new InputError(`invalid ${flag} "${text}": expected a whole number of at least 1`, [
      { path: flag, message: 'expected a whole number of at least 1' },
    ]);
  }
  return value;
}

export function loadOptions(format: InputFormat | undefined, travel: { roadFactor?: number; baseSpeed?: number }): LoadOptions {
  const options: LoadOptions = {};
  if (format !== undefined) options.format = format;
  if (travel.roadFactor !== undefined) options.roadFactor = travel.roadFactor;
  if (travel.baseSpeed !== undefined) options.baseSpeedKmh = travel.baseSpeed;
  return options;
}

/** `--road-factor` / `--base-speed` texts → config values, each checked and named on error. */
export function parseTravelFlags(flags: { roadFactor?: string; baseSpeed?: string }): RouteplanConfig {
  const config: RouteplanConfig = {};
  if (flags.roadFactor !== undefined) config.roadFactor = parseConfigFlag('roadFactor', flags.roadFactor);
  if (flags.baseSpeed !== undefined) config.baseSpeed = parseConfigFlag('baseSpeed', flags.baseSpeed);
  return config;
}
