/** Parsing of the command-line options shared by `solve` and `validate`. */
import type { Command } from 'commander';
import { InputError } from '../errors.js';
import { travelSettingsFrom } from '../travel/settings.js';
import { geocoderSettingsFrom } from '../geocode/settings.js';
import { packageVersion } from './version.js';
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

/** The flags of the travel model and source, shared by `solve` and `validate`. */
export interface TravelFlags {
  roadFactor?: string;
  baseSpeed?: string;
  travel?: string;
  travelUrl?: string;
  travelProfile?: string;
  travelMatrix?: string;
  travelMaxLocations?: string;
  /** Commander's `--no-cache`: false when given. */
  cache?: boolean;
  geocoder?: string;
  geocoderUrl?: string;
  gazetteer?: string;
  geocoderEmail?: string;
}

/** The travel model and source, the geocoder and the cache: what solve, validate and serve take. */
export function addTravelOptions(command: Command): Command {
  return addGeocoderOptions(
    command
      .option('--road-factor <factor>', 'offline model: road distance ÷ straight-line distance (default 1.3)')
      .option('--base-speed <kmh>', 'offline model: base driving speed in km/h (default 40)')
      .option('--travel <source>', 'travel times from: haversine (offline, default), osrm, valhalla or matrix')
      .option('--travel-url <url>', 'the OSRM or Valhalla server, e.g. http://localhost:5000')
      .option('--travel-profile <name>', 'the routing profile (default: driving for OSRM, auto for Valhalla)')
      .option('--travel-matrix <file>', 'with --travel matrix: CSV from,to,duration_s,distance_m or JSON {locations, durations, distances}')
      .option('--travel-max-locations <n>', 'per request: coordinates for OSRM (default 100), pairs for Valhalla (default 2500)'),
  );
}

/** The geocoder and the disk cache: what geocode and submit take. */
export function addGeocoderOptions(command: Command): Command {
  return command
    .option('--geocoder <name>', 'for addresses without coordinates: nominatim (with --geocoder-url) or gazetteer')
    .option('--geocoder-url <url>', 'a Nominatim-compatible search API, e.g. http://localhost:8080')
    .option('--gazetteer <file>', 'CSV address,lat,lng: addresses matched offline (implies --geocoder gazetteer)')
    .option('--geocoder-email <address>', 'a contact e-mail sent with each geocoding request (Nominatim asks for one)')
    .option('--no-cache', 'neither read nor write the disk cache of travel times and geocoded addresses');
}

/** The travel flags' texts → config values, each checked and named on error. */
export function parseTravelFlags(flags: TravelFlags): RouteplanConfig {
  const config: RouteplanConfig = {};
  if (flags.roadFactor !== undefined) config.roadFactor = parseConfigFlag('roadFactor', flags.roadFactor);
  if (flags.baseSpeed !== undefined) config.baseSpeed = parseConfigFlag('baseSpeed', flags.baseSpeed);
  if (flags.travel !== undefined) config.travel = parseConfigFlag('travel', flags.travel);
  if (flags.travelUrl !== undefined) config.travelUrl = parseConfigFlag('travelUrl', flags.travelUrl);
  if (flags.travelProfile !== undefined) config.travelProfile = parseConfigFlag('travelProfile', flags.travelProfile);
  if (flags.travelMatrix !== undefined) config.travelMatrix = parseConfigFlag('travelMatrix', flags.travelMatrix);
  if (flags.travelMaxLocations !== undefined) config.travelMaxLocations = parseConfigFlag('travelMaxLocations', flags.travelMaxLocations);
  if (flags.cache === false) config.cache = false;
  if (flags.geocoder !== undefined) config.geocoder = parseConfigFlag('geocoder', flags.geocoder);
  if (flags.geocoderUrl !== undefined) config.geocoderUrl = parseConfigFlag('geocoderUrl', flags.geocoderUrl);
  if (flags.gazetteer !== undefined) config.gazetteer = parseConfigFlag('gazetteer', flags.gazetteer);
  if (flags.geocoderEmail !== undefined) config.geocoderEmail = parseConfigFlag('geocoderEmail', flags.geocoderEmail);
  return config;
}
