/**
 * A day re-optimized after dispatch (decisions.md "Editing a project and re-planning the day"): the
 * solve plans only the rest of the day (the stops not yet done, each driver going on from their last
 * report), and its plan is put back together here as the day's: each route shows the stops already
 * done or failed as they were dispatched and reported, then the new part. The frame travels in the
 * solved document (`fixed_prefix`), so a solve taken up again after a restart puts it together the same.
 */
import type { PlanEndpoint, PlanRoute, PlanStopVisit, Plan } from './plan-types.js';
import { stopVisits } from './visits.js';

/** The document field that carries the frame; the input layer never sees it. */
export const FIXED_PREFIX_FIELD = 'fixed_prefix';

/** The part of one driver's day that is over: their route's start and the stops done or failed. */
export interface FixedRoute {
  vehicle_index: number;
  vehicle: string;
  start: PlanEndpoint;
  /** In the order driven, each with `status` (done or failed) and `reported_at`; indexes are the project's. */
  visits: PlanStopVisit[];
}

export interface FixedPrefix {
  /** For each stop of the solved document, its index in the project. */
  stop_indexes: number[];
  routes: FixedRoute[];
}

/** The solved document without its frame, and the frame (null when the document is a plain project). */
export function splitFixedPrefix(document: unknown): { document: unknown; frame: FixedPrefix | null } {
  if (typeof document !== 'object' || document === null || !(FIXED_PREFIX_FIELD in document)) return { document, frame: null };
  const { [FIXED_PREFIX_FIELD]: frame, ...rest } = document as Record<string, unknown>;
  return { document: rest, frame: frame as FixedPrefix };
}

/** The plan of the rest of the day as the whole day's: project indexes, and each route's fixed part first. */
export function withFixedPrefix(plan: Plan, frame: FixedPrefix): Plan {
  const projectIndex = (index: number): number => frame.stop_indexes[index] ?? index;
  const fixedOf = new Map(frame.routes.filter((route) => route.visits.length > 0).map((route) => [route.vehicle_index, route]));
  const routes = plan.routes.map((route) => {
    const visits = route.visits.map((visit) => (visit.kind === 'stop' ? { ...visit, stop_index: projectIndex(visit.stop_index) } : visit));
    const fixed = fixedOf.get(route.vehicle_index);
    fixedOf.delete(route.vehicle_index);
    return fixed ? joined(fixed, { ...route, visits }) : { ...route, visits };
  });
  for (const fixed of fixedOf.values()) routes.push(fixedOnly(fixed));
  routes.sort((a, b) => a.vehicle_index - b.vehicle_index);
  const fixedCount = frame.routes.reduce((sum, route) => sum + route.visits.length, 0);
  return {
    ...plan,
    summary: {
      ...plan.summary,
      routes_used: routes.filter((route) => stopVisits(route).length > 0).length,
      served: plan.summary.served + fixedCount,
    },
    routes,
    unserved: plan.unserved.map((entry) => ({ ...entry, stop_index: projectIndex(entry.stop_index) })),
  };
}

/** The route from the driver's start: the fixed stops, then the new part (which went on from the last of them). */
function joined(fixed: FixedRoute, rest: PlanRoute): PlanRoute {
  const fixedDistance = fixed.visits.reduce((sum, visit) => sum + visit.distance_m, 0);
  const fixedDriving = fixed.visits.reduce((sum, visit) => sum + visit.travel_s, 0);
  return {
    ...rest,
    start: fixed.start,
    visits: [...fixed.visits, ...rest.visits],
    distance_m: rest.distance_m + fixedDistance,
    driving_s: rest.driving_s + fixedDriving,
    // The driver's whole day, from their start to the end of the new part.
    working_s: Math.max(rest.working_s, rest.end.time_s - fixed.start.time_s),
  };
}

/** A driver with nothing left to do: their day is the fixed part, ending at its last stop. */
function fixedOnly(fixed: FixedRoute): PlanRoute {
  const last = fixed.visits[fixed.visits.length - 1]!;
  const endTime = last.finish_s ?? fixed.start.time_s;
  const end = { time_s: endTime, time: last.finish ?? fixed.start.time, location: last.location, travel_s: 0, distance_m: 0 };
  return {
    vehicle: fixed.vehicle,
    vehicle_index: fixed.vehicle_index,
    start: fixed.start,
    visits: fixed.visits,
    end,
    distance_m: fixed.visits.reduce((sum, visit) => sum + visit.distance_m, 0),
    driving_s: fixed.visits.reduce((sum, visit) => sum + visit.travel_s, 0),
    service_s: 0,
    waiting_s: 0,
    break_s: 0,
    working_s: Math.max(0, endTime - fixed.start.time_s),
    overtime_s: 0,
    lateness_s: 0,
    load: last.load_after,
  };
}
