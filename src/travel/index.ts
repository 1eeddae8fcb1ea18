/**
 * Travel tables from the configured source. Haversine needs none (src/model computes it offline);
 * every other source of model/travel-sources.ts is a provider file registered here.
 */
import { matrixFile } from './matrix-file.js';
import { osrm } from './osrm.js';
import type { FetchHooks, TravelProvider, TravelRequest, TravelSettings, TravelSourceName, TravelTable } from './types.js';
import { valhalla } from './valhalla.js';

export type { FetchHooks, TravelLocation, TravelOrigin, TravelRequest, TravelSettings, TravelSourceName, TravelTable } from './types.js';

/** Every source of model/travel-sources.ts but the offline model, by name. */
const PROVIDERS: Record<Exclude<TravelSourceName, 'haversine'>, TravelProvider> = { osrm, valhalla, matrix: matrixFile };

/** The table of the request's locations, or null for the offline model. */
export async function travelTable(request: TravelRequest, settings: TravelSettings, hooks: FetchHooks = {}): Promise<TravelTable | null> {
  if (settings.source === 'haversine') return null;
  return PROVIDERS[settings.source].fetchTable(request, settings, hooks);
}
