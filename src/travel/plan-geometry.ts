/**
 * After solving with road travel, each route's shape along the roads is fetched once and kept in the
 * plan (`routes[].geometry`) for the page, the HTML map and the GeoJSON output. A provider failing
 * leaves that route without a shape (drawn as straight lines) and a warning: never a failed plan.
 */
import type { Problem } from '../model/problem.js';
import type { Plan, PlanRoute, PlanWarning } from '../output/plan-types.js';
import { routeLocations } from '../output/visits.js';
import { roadShape } from './route-geometry.js';
import type { TravelSettings } from './types.js';

export interface GeometryOptions {
  excludeTolls?: boolean;
  excludeFerry?: boolean;
  signal?: AbortSignal;
}

/** The plan with its routes' road shapes, when the travel source has a route service; otherwise the plan as it was. */
export async function withRoadGeometry(plan: Plan, settings: TravelSettings | undefined, options: GeometryOptions = {}): Promise<Plan> {
  if (settings === undefined || (settings.source !== 'osrm' && settings.source !== 'valhalla')) return plan;
  const source = { ...settings, source: settings.source };
  const warnings: PlanWarning[] = [];
  const routes: PlanRoute[] = [];
  for (const [position, route] of plan.routes.entries()) {
    const points = routeLocations(route);
    if (points.length < 2) {
      routes.push(route);
      continue;
    }
    try {
      const coordinates = await roadShape(
        { points, excludeTolls: options.excludeTolls ?? false, excludeFerry: options.excludeFerry ?? false, ...signalOf(options) },
        source,
      );
      routes.push({ ...route, geometry: { type: 'LineString', coordinates } });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      routes.push(route);
      warnings.push({ path: `routes[${position}].geometry`, message: `drawn as straight lines: ${(error as Error).message}` });
    }
  }
  const all = [...(plan.warnings ?? []), ...warnings];
  return { ...plan, routes, ...(all.length > 0 ? { warnings: all } : {}) };
}

/** The roads the problem's travel times avoided (tolls, ferries), for the shapes to avoid them too. */
export function avoidedRoads(problem: Problem): GeometryOptions {
  const source = problem.travelSource;
  return source.kind === 'road' ? { excludeTolls: source.excludeTolls === true, excludeFerry: source.excludeFerry === true } : {};
}

function signalOf(options: GeometryOptions): { signal?: AbortSignal } {
  return options.signal ? { signal: options.signal } : {};
}
