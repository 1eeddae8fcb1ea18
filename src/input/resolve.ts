/**
 * The steps between a validated spec and its problem that may read files or the network:
 * addresses → coordinates (src/geocode) and locations → a travel table (src/travel). Offline input
 * (coordinates everywhere, the haversine model) goes straight through, which is why the synchronous
 * loadProblemDocument still exists for it.
 */
import type { Warning } from '../errors.js';
import type { Problem } from '../model/problem.js';
import { travelTable } from '../travel/index.js';
import type { TravelSettings } from '../travel/types.js';
import { buildProblem, specLocations, type RoadTravel } from './build-problem.js';
import { locatePlaces } from './locate.js';
import type { ProblemSpec } from './spec.js';
import type { LoadOptions } from './types.js';

export interface ResolvedProblem {
  problem: Problem;
  /** What resolving found worth saying (e.g. an address that landed far from the others). */
  warnings: Warning[];
}

export async function resolveSpec(spec: ProblemSpec, options: LoadOptions): Promise<ResolvedProblem> {
  const located = await locatePlaces(spec, options);
  const road = await roadTravel(located.spec, options);
  return { problem: buildProblem(located.spec, options, road), warnings: located.warnings };
}

/** The provider's table for the spec's places, or null for the offline model. */
async function roadTravel(spec: ProblemSpec, options: LoadOptions): Promise<RoadTravel | null> {
  const settings = options.travel;
  if (!settings || settings.source === 'haversine') return null;
  const { points, names } = specLocations(spec);
  const request = {
    locations: points.map((point, i) => ({ ...point, names: names[i]! })),
    excludeTolls: spec.excludeTolls,
    excludeFerry: spec.excludeFerry,
  };
  const table = await travelTable(request, settings, options.onTravelProgress ? { onProgress: options.onTravelProgress } : {});
  const avoided = { ...(spec.excludeTolls ? { excludeTolls: true } : {}), ...(spec.excludeFerry ? { excludeFerry: true } : {}) };
  return table ? { table, origin: { ...originOf(settings), ...avoided } } : null;
}

function originOf(settings: TravelSettings): RoadTravel['origin'] {
  const source = settings.source as RoadTravel['origin']['source'];
  if (source === 'matrix') return { source, ...(settings.matrixFile ? { url: settings.matrixFile } : {}) };
  return { source, ...(settings.profile ? { profile: settings.profile } : {}), ...(settings.url ? { url: settings.url } : {}) };
}
