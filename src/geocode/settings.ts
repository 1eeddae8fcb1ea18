/**
 * The geocoder as the settings name it (flags, environment, config files). Errors name the
 * settings by their keys in backticks (`geocoderUrl`): the command line shows each as its flag.
 */
import { InputError } from '../errors.js';
import type { GeocoderSettings } from './types.js';

export interface GeocoderConfig {
  geocoder?: string;
  geocoderUrl?: string;
  gazetteer?: string;
  geocoderEmail?: string;
  cache?: boolean;
}

/** The configured geocoder, or undefined: a gazetteer file alone selects the gazetteer. Throws InputError naming the missing setting. */
export function geocoderSettingsFrom(config: GeocoderConfig, version: string): GeocoderSettings | undefined {
  const name =
    config.geocoder ?? (config.gazetteer !== undefined ? 'gazetteer' : config.geocoderUrl !== undefined ? 'nominatim' : undefined);
  if (name === undefined) return undefined;
  const cache = config.cache === false ? { cache: false } : {};
  if (name === 'gazetteer') {
    if (config.gazetteer === undefined)
      throw missing('gazetteer', '`geocoder` gazetteer needs the file: `gazetteer` <file.csv> (address,lat,lng)');
    return { name, file: config.gazetteer, version };
  }
  if (config.geocoderUrl === undefined) throw missing('geocoderUrl', '`geocoder` nominatim needs the search API: `geocoderUrl` <url>');
  return {
    name: 'nominatim',
    url: config.geocoderUrl,
    version,
    ...(config.geocoderEmail ? { email: config.geocoderEmail } : {}),
    ...cache,
  };
}

function missing(setting: string, message: string): InputError {
  return new InputError(message, [{ path: setting, message }]);
}
