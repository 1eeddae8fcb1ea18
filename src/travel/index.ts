/**
 * Travel tables from the configured source. Haversine needs none (src/model computes it offline);
 * every other source is a provider file registered here: adding a provider is adding a file and a line.
 */
import { matrixFile } from './matrix-file.js';
import { osrm } from './osrm.js';
import type { FetchHooks, TravelProvider, TravelRequest, TravelSettings, TravelSourceName, TravelTable } from './types.js';
import { valhalla } from './valhalla.js';

export type { FetchHooks, TravelLocation, TravelOrigin, TravelRequest, TravelSettings, TravelSourceName, TravelTable } from './types.js';

const PROVIDERS: Record<Exclude<TravelSourceName, 'haversine'>, TravelProvider> = { osrm, valhalla, matrix: matrixFile };

export const TRAVEL_SOURCES: readonly TravelSourceName[] = ['haversine', ...(Object.keys(PROVIDERS) as TravelSourceName[])];

/** The table of the request's locations, or null for the offline model. */
export async function travelTable(request: TravelRequest, settings: TravelSettings, hooks: FetchHooks = {}): Promise<TravelTable | null> {
  if (settings.source === 'haversine') return null;
  return PROVIDERS[settings.source].fetchTable(request, settings, hooks);
}
