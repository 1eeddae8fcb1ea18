/** The travel source as the settings name it (flags, environment, config files), checked once for solve, validate and serve. */
import { InputError } from '../errors.js';
import { OSRM_DEFAULTS } from './osrm.js';
import type { TravelSettings, TravelSourceName } from './types.js';
import { VALHALLA_DEFAULTS } from './valhalla.js';

export interface TravelConfig {
  travel?: string;
  travelUrl?: string;
  travelProfile?: string;
  travelMatrix?: string;
  travelMaxLocations?: number;
  cache?: boolean;
}

const DEFAULT_PROFILE: Partial<Record<TravelSourceName, string>> = { osrm: OSRM_DEFAULTS.profile, valhalla: VALHALLA_DEFAULTS.profile };

/** The settings of the configured source; the offline model when none is configured. Throws InputError naming the missing flag. */
export function travelSettingsFrom(config: TravelConfig): TravelSettings {
  if (config.travel === undefined) {
    if (config.travelUrl !== undefined) throw missing('--travel', '--travel-url needs --travel osrm or --travel valhalla');
    if (config.travelMatrix !== undefined) throw missing('--travel', '--travel-matrix needs --travel matrix');
    return { source: 'haversine' };
  }
  const source = config.travel as TravelSourceName;
  const cache = config.cache === false ? { cache: false } : {};
  switch (source) {
    case 'haversine':
      return { source };
    case 'matrix':
      if (config.travelMatrix === undefined)
        throw missing('--travel-matrix', '--travel matrix needs the file: --travel-matrix <file.csv|file.json>');
      return { source, matrixFile: config.travelMatrix };
    case 'osrm':
    case 'valhalla':
      if (config.travelUrl === undefined) throw missing('--travel-url', `--travel ${source} needs the server: --travel-url <url>`);
      return {
        source,
        url: config.travelUrl,
        profile: config.travelProfile ?? DEFAULT_PROFILE[source]!,
        ...(config.travelMaxLocations !== undefined ? { maxLocationsPerRequest: config.travelMaxLocations } : {}),
        ...cache,
      };
  }
}

function missing(flag: string, message: string): InputError {
  return new InputError(message, [{ path: flag, message }]);
}
