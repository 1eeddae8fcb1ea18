/**
 * The travel source as the settings name it (flags, environment, config files), checked once for
 * solve, validate and serve. Errors name the settings by their keys in backticks (`travelUrl`):
 * the command line shows each as its flag (cli/flag-terms.ts).
 */
import { InputError } from '../errors.js';
import { OSRM_DEFAULTS } from './osrm.js';
import { TRAVEL_SOURCES } from '../model/travel-sources.js';
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

/** The settings of the configured source; the offline model when none is configured. Throws InputError naming the missing setting. */
export function travelSettingsFrom(config: TravelConfig): TravelSettings {
  if (config.travel === undefined) {
    if (config.travelUrl !== undefined) throw missing('travel', '`travelUrl` needs `travel` osrm or `travel` valhalla');
    if (config.travelMatrix !== undefined) throw missing('travel', '`travelMatrix` needs `travel` matrix');
    return { source: 'haversine' };
  }
  const source = config.travel as TravelSourceName;
  switch (TRAVEL_SOURCES[source]) {
    case 'nothing':
      return { source };
    case 'file':
      if (config.travelMatrix === undefined)
        throw missing('travelMatrix', `\`travel\` ${source} needs the file: \`travelMatrix\` <file.csv|file.json>`);
      return { source, matrixFile: config.travelMatrix };
    case 'server':
      if (config.travelUrl === undefined) throw missing('travelUrl', `\`travel\` ${source} needs the server: \`travelUrl\` <url>`);
      return {
        source,
        url: config.travelUrl,
        profile: config.travelProfile ?? DEFAULT_PROFILE[source]!,
        ...(config.travelMaxLocations !== undefined ? { maxLocationsPerRequest: config.travelMaxLocations } : {}),
        ...(config.cache === false ? { cache: false } : {}),
      };
  }
}

function missing(setting: string, message: string): InputError {
  return new InputError(message, [{ path: setting, message }]);
}
