/**
 * A plan being adjusted by hand in the page: each driver's stops, by id, in order. A move makes a
 * new draft; the server re-times it (POST …/plans/evaluate) and keeps it when saved (POST …/plans).
 * The page knows a plan's stops and drivers by their index in the project, so a plan can be
 * adjusted only while the project still has the stops it was made for (planFitsProject).
 */
import type { Plan, PlanRoute } from '../output/plan-types.js';
import type { HandPlanBody, Project } from './types.js';

/** Driver id → the ids of the stops on their route, in order; every driver of the project has an entry. */
export type Draft = Map<string, string[]>;

/** Where a stop goes: a driver and a place (0 = first) on their route, or off every route. */
export type Destination = { driverId: string; position: number } | { driverId: null };

export function draftOf(plan: Plan, project: Project): Draft {
  const draft: Draft = new Map(project.drivers.map((driver) => [driver.id, []]));
  for (const route of plan.routes) draft.set(driverIdOf(project, route), stopIdsOf(project, route));
  return draft;
}

/** The draft with `stopId` taken from wherever it is and put at `to`. */
export function moveStop(draft: Draft, stopId: string, to: Destination): Draft {
  const moved: Draft = new Map([...draft].map(([driverId, stops]) => [driverId, stops.filter((id) => id !== stopId)]));
  if (to.driverId !== null) {
    const stops = moved.get(to.driverId) ?? [];
    stops.splice(Math.max(0, Math.min(to.position, stops.length)), 0, stopId);
    moved.set(to.driverId, stops);
  }
  return moved;
}

export function requestOf(draft: Draft, base: string): HandPlanBody {
  return { base, routes: Object.fromEntries(draft) };
}

/** The driver serving `stopId` in the draft and its place there, or null when it is on no route. */
export function placeOf(draft: Draft, stopId: string): { driverId: string; position: number } | null {
  for (const [driverId, stops] of draft) {
    const position = stops.indexOf(stopId);
    if (position !== -1) return { driverId, position };
  }
  return null;
}

/** Whether the plan was made for the project's stops and drivers as they are now (none added or removed since). */
export function planFitsProject(plan: Plan, project: Project): boolean {
  const stopsNamed = (index: number, name: string): boolean => project.stops[index]?.name === name;
  const visits = plan.routes.flatMap((route) => route.visits.flatMap((visit) => (visit.kind === 'stop' ? [visit] : [])));
  return (
    visits.length + plan.unserved.length === project.stops.length &&
    visits.every((visit) => stopsNamed(visit.stop_index, visit.stop)) &&
    plan.unserved.every((entry) => stopsNamed(entry.stop_index, entry.stop)) &&
    plan.routes.every((route) => project.drivers[route.vehicle_index]?.name === route.vehicle)
  );
}

export function driverIdOf(project: Project, route: PlanRoute): string {
  return project.drivers[route.vehicle_index]!.id;
}

export function stopIdsOf(project: Project, route: PlanRoute): string[] {
  return route.visits.flatMap((visit) => (visit.kind === 'stop' ? [project.stops[visit.stop_index]!.id] : []));
}
