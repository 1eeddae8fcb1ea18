/**
 * The input layer's shared types, in their own module so that the modules behind the public
 * API (index.ts) can name them without importing the API back.
 */
import type { Warning } from '../errors.js';
import type { Problem } from '../model/problem.js';
import type { TravelSettings } from '../travel/types.js';
import type { GeocoderSettings } from '../geocode/types.js';

export type InputFormat = 'json' | 'yaml' | 'csv' | 'solomon' | 'vrplib';
export type DocumentKind = 'project' | 'oneoff';

export interface LoadOptions {
  /** Force a format; by default from the extension (`-` = stdin needs it). */
  format?: InputFormat;
  /** Offline travel model constants (the command line's travel flags, the service's configuration). */
  roadFactor?: number;
  baseSpeedKmh?: number;
  /** Road travel times (decisions.md, "Road travel times"); the offline model when absent. */
  travel?: TravelSettings;
  /** Pairs fetched so far of all pairs, while a road travel table is fetched. */
  onTravelProgress?: (donePairs: number, totalPairs: number) => void;
  /** Addresses without coordinates are geocoded with this; without it they are an input error. */
  geocoder?: GeocoderSettings;
  /** Addresses without coordinates are for the service to geocode (`submit`): not an error here. */
  addressesGeocodedElsewhere?: boolean;
  /** A stop whose address finds no place is left unserved (missing_location) instead of an error. */
  allowUnresolved?: boolean;
  onGeocodeProgress?: (done: number, total: number) => void;
}

/** A document checked as loading it would (every error, every warning), its problem not built. */
export interface ValidatedDocument {
  warnings: Warning[];
  kind: DocumentKind | 'benchmark';
  /** The validated document as given (before defaults), e.g. for `submit` and for storing a project. */
  document: unknown;
}

export interface LoadedProblem extends ValidatedDocument {
  problem: Problem;
}
