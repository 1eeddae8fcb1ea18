/** Reading a plan's routes: the stops among their visits, and the places a route passes in order. */
import type { PlanLocation, PlanRoute, PlanStopVisit } from './plan-types.js';

/** The route's stop visits in order, without its breaks. */
export function stopVisits(route: PlanRoute): PlanStopVisit[] {
  return route.visits.filter((visit): visit is PlanStopVisit => visit.kind === 'stop');
}

/** Where the route goes: its start (when known), each stop, its end (none for an open end). */
export function routeLocations(route: PlanRoute): PlanLocation[] {
  const points: PlanLocation[] = [];
  if (route.start.location) points.push(route.start.location);
  for (const visit of stopVisits(route)) points.push(visit.location);
  if (route.end.location) points.push(route.end.location);
  return points;
}
