/**
 * Road travel times (decisions.md, "Road travel times"): what a travel source is asked and what it
 * answers. The solver never sees these: src/model turns a table into its integer matrices.
 */
import type { Point } from '../model/problem.js';
import type { TravelSourceName } from '../model/travel-sources.js';

export type { TravelSourceName } from '../model/travel-sources.js';

/** Where travel times come from, as the flags, the config files and the service settle it. */
export interface TravelSettings {
  source: TravelSourceName;
  /** The provider's base URL (osrm, valhalla). */
  url?: string;
  /** The provider's profile or costing (osrm: `driving`, valhalla: `auto`). */
  profile?: string;
  /** The matrix file (source `matrix`): CSV `from,to,duration_s,distance_m` or JSON. */
  matrixFile?: string;
  /** Locations per provider request (osrm default 100: the server's --max-table-size). */
  maxLocationsPerRequest?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** One request's time limit (default 30 s). */
  timeoutMs?: number;
  /** Retries of a request after a 429, a 5xx or a network error (default 4). */
  retries?: number;
  /** The first retry's backoff; each next one doubles (default 500 ms). */
  retryDelayMs?: number;
  /** False with --no-cache: neither read nor write the disk cache. */
  cache?: boolean;
  /** The cache's directory (default: the XDG cache dir, src/cache/disk-cache.ts). */
  cacheDir?: string;
}

/** One distinct place of a problem, with every name it goes by in the input. */
export interface TravelLocation extends Point {
  /** Stop names, and `<driver name>/start`, `<driver name>/end` for a driver's ends (matrix files name locations). */
  names: string[];
}

export interface TravelRequest {
  locations: TravelLocation[];
  excludeTolls: boolean;
  excludeFerry: boolean;
}

/**
 * Seconds and metres between every pair of locations, row-major n×n, as the provider gave them
 * (before driver speed factors and traffic). `noRoad[i * size + j]` is 1 where the provider had no
 * route (a `null` cell): that leg is impossible.
 */
export interface TravelTable {
  size: number;
  durations: Float64Array;
  distances: Float64Array;
  noRoad: Uint8Array;
}

export interface FetchHooks {
  /** Pairs fetched so far out of all pairs (for "Fetching travel times 1,200/25,000 pairs"). */
  onProgress?: (donePairs: number, totalPairs: number) => void;
  signal?: AbortSignal;
}

/** One provider: adding a provider is adding a file that exports one of these. */
export interface TravelProvider {
  readonly name: TravelSourceName;
  fetchTable(request: TravelRequest, settings: TravelSettings, hooks: FetchHooks): Promise<TravelTable>;
}

/** What the plan JSON records (`travel: {source, profile?, url?}`). */
export interface TravelOrigin {
  source: TravelSourceName;
  profile?: string;
  url?: string;
}
