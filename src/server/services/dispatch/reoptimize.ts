/**
 * Re-optimizing a dispatched day (decisions.md "Editing a project and re-planning the day"): the
 * document that plans the rest of the day from now, made from the project's current contents and
 * its dispatch record. Done and failed stops are left out of the solve and kept as they are (the
 * fixed prefix, output/fixed-prefix.ts); each driver goes on from their last reported stop (or
 * their start) at the later of now and that report (`resume`); each stop not yet done prefers its
 * dispatched driver (`preferred_driver`: the objective's stability level, below priority and above
 * cost); stops added since dispatch are plain stops, inserted wherever they fit best.
 */
import { FIXED_PREFIX_FIELD, type FixedPrefix, type FixedRoute } from '../../../output/fixed-prefix.js';
import type { Plan, PlanStopVisit } from '../../../output/plan-types.js';
import { stopVisits } from '../../../output/visits.js';
import { LATEST_CLOCK_HOUR } from '../../../model/time.js';
import type { ProjectRecord } from '../projects.js';
import type { FrozenDispatch, FrozenStop } from './frozen.js';
import { clockText, projectZone, secondsIntoDay } from './zone-clock.js';

export interface DispatchedDay {
  dispatch: FrozenDispatch;
  /** The plan as dispatched (the store's `dispatch-plans`): its visits in the order of `dispatch.stops`. */
  plan: Plan;
}

/** A stop the driver has reported on is over: it stays as reported and is not planned again. */
function isOver(stop: FrozenStop): boolean {
  return stop.status === 'done' || stop.status === 'failed';
}

/** The latest clock time a resume may name (the input reads times up to 47:59:59). */
const LATEST_RESUME = LATEST_CLOCK_HOUR * 3600 + 59 * 60 + 59;

/** An instant as a resume time of the project's day (seconds since its midnight), within what the input reads. */
export function resumeSeconds(date: string, instant: Date, zone: string): number {
  return Math.min(LATEST_RESUME, Math.max(0, secondsIntoDay(date, instant, zone)));
}

/**
 * The project document that plans the rest of the day, with the fixed prefix it is put back
 * together with (the `fixed_prefix` field, which the worker takes off before validating).
 */
export function restOfDayDocument(
  project: ProjectRecord,
  document: Record<string, unknown>,
  day: DispatchedDay,
  now: Date,
): Record<string, unknown> {
  const zone = projectZone(project.settings);
  const secondsOf = (instant: Date): number => resumeSeconds(project.date, instant, zone);
  const nowSeconds = secondsOf(now);
  const byStopId = new Map(day.dispatch.stops.map((stop) => [stop.stop_id, stop]));
  const driverName = new Map(project.drivers.map((driver) => [driver.id, String(driver.name)]));
  const sourceStops = Array.isArray(document.stops) ? (document.stops as Record<string, unknown>[]) : [];
  const kept: number[] = [];
  const stops = sourceStops.flatMap((stop, index) => {
    const dispatched = byStopId.get(project.stops[index]?.id ?? '');
    if (dispatched && isOver(dispatched)) return [];
    kept.push(index);
    const preferred = dispatched ? driverName.get(dispatched.driver_id) : undefined;
    return [preferred !== undefined ? { ...stop, preferred_driver: preferred } : stop];
  });
  const sourceDrivers = Array.isArray(document.drivers) ? (document.drivers as Record<string, unknown>[]) : [];
  const drivers = sourceDrivers.map((driver, index) => {
    const last = lastReported(day.dispatch, project.drivers[index]?.id);
    if (!last) {
      const resume = resumeAtStart(driver, nowSeconds);
      return resume ? { ...driver, resume } : driver;
    }
    const at = Math.max(nowSeconds, last.at !== null ? secondsOf(new Date(last.at)) : 0);
    return { ...driver, resume: { lat: last.lat, lng: last.lng, at: clockText(at) } };
  });
  const frame: FixedPrefix = { stop_indexes: kept, routes: fixedRoutes(project, day) };
  return { ...document, drivers, stops, [FIXED_PREFIX_FIELD]: frame };
}

/** A driver with nothing reported goes on from their own start, now at the earliest. */
function resumeAtStart(driver: Record<string, unknown>, nowSeconds: number): Record<string, unknown> | undefined {
  const coords = (driver.start_location as { coords?: { lat: number; lng: number } } | undefined)?.coords;
  // A start given by address alone is placed by the geocoder at solve time; its shift start stands then.
  return coords ? { lat: coords.lat, lng: coords.lng, at: clockText(nowSeconds) } : undefined;
}

/** The driver's stop reported last (by report time, then by route order), or undefined. */
function lastReported(dispatch: FrozenDispatch, driverId: string | undefined): FrozenStop | undefined {
  let last: FrozenStop | undefined;
  for (const stop of dispatch.stops) {
    if (stop.driver_id !== driverId || !isOver(stop)) continue;
    if (!last || (stop.at ?? '') >= (last.at ?? '')) last = stop;
  }
  return last;
}

/** Per driver of the project, the stops done or failed as dispatched, with their reports. */
function fixedRoutes(project: ProjectRecord, day: DispatchedDay): FixedRoute[] {
  const indexOfStop = new Map(project.stops.map((stop, index) => [stop.id, index]));
  const routes: FixedRoute[] = [];
  const frozen = day.dispatch.stops;
  let next = 0;
  for (const route of day.plan.routes.filter((candidate) => stopVisits(candidate).length > 0)) {
    const visits: PlanStopVisit[] = [];
    // The route's driver as the project has them now (drivers keep their id; their place may have changed).
    const vehicleIndex = project.drivers.findIndex((driver) => driver.id === frozen[next]?.driver_id);
    for (const visit of stopVisits(route)) {
      const stop = frozen[next++];
      const index = stop ? indexOfStop.get(stop.stop_id) : undefined;
      if (!stop || index === undefined || !isOver(stop)) continue;
      visits.push({
        ...visit,
        stop_index: index,
        status: stop.status,
        reported_at: stop.at,
        ...(stop.reason ? { reason: stop.reason } : {}),
      });
    }
    if (visits.length > 0 && vehicleIndex >= 0) {
      routes.push({ vehicle_index: vehicleIndex, vehicle: route.vehicle, start: route.start, visits });
    }
  }
  return routes;
}
