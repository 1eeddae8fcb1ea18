/**
 * Geocoding (decisions.md, "Geocoding"): addresses → coordinates, by a Nominatim-compatible search
 * API or a gazetteer CSV. A location that has coordinates is never geocoded.
 */
import type { Point } from '../model/problem.js';

export type GeocoderName = 'nominatim' | 'gazetteer';

export interface GeocoderSettings {
  name: GeocoderName;
  /** The search API's base URL (nominatim). */
  url?: string;
  /** The gazetteer CSV `address,lat,lng` (gazetteer). */
  file?: string;
  /** A contact e-mail sent with each request (Nominatim's usage policy asks for one). */
  email?: string;
  /** False with --no-cache. */
  cache?: boolean;
  cacheDir?: string;
  /** routeplan's version, for the User-Agent a public geocoder asks for. */
  version?: string;
}

/** One candidate place for an address. */
export interface GeocodeCandidate extends Point {
  /** The provider's name for the place (Nominatim's display_name). */
  label: string;
}

export type GeocodeProblem = 'not_found' | 'ambiguous' | 'outlier' | 'failed';

/** What became of one address. */
export interface GeocodeResult {
  address: string;
  /** The chosen place; absent when not found or the geocoder failed. */
  point?: GeocodeCandidate;
  candidates: GeocodeCandidate[];
  problem?: GeocodeProblem;
  /** A human sentence about the problem, naming the address. */
  message?: string;
}

export interface Geocoder {
  readonly name: GeocoderName;
  /** Resolves addresses (deduplicated by the caller), reporting each as it is done. */
  geocode(addresses: string[], onEach?: (result: GeocodeResult, done: number, total: number) => void): Promise<GeocodeResult[]>;
}
