/**
 * Live estimates (decisions.md, "The live day"): after a driver's report (done, failed or a
 * position), the rest of their route — their stops still planned, in dispatched order — is timed
 * from the report's place and time by the solver's exact route evaluator (solver/retime.ts, the
 * one that times routes made by hand). Nothing is re-planned: the order stays as dispatched.
 *
 * The route is timed as a one-driver project made from the project as it stands: the driver
 * resumes at the report (`resume`, as a re-optimization's drivers do, reoptimize.ts), and each
 * remaining stop keeps its windows, duration and load but is placed where it was dispatched.
 */
import type { Problem } from '../../../model/problem.js';
import { retimeRoutes } from '../../../solver/retime.js';
import type { StopVisit } from '../../../solver/types.js';
import type { ProjectRecord } from '../projects.js';
import type { FrozenDispatch, FrozenStop } from './frozen.js';
import { clockText } from './zone-clock.js';

/** Where and when the driver was at a report: a done or failed stop's place at the tap, or a shared position. */
export interface ReportPlace {
  lat: number;
  lng: number;
  /** Seconds since midnight of the project's date. */
  at: number;
}

/** One remaining stop's new estimate. */
export interface StopEstimate {
  stop_id: string;
  /** Estimated arrival; null when the plan gives the stop no times (no duration: no ETAs, as in the plan). */
  eta_s: number | null;
  late: boolean;
}

/** An estimate that moved by at least this much is told to the listener (customer messages). */
export const ETA_MOVED_S = 60;

/** The driver's stops still to do, in dispatched order. */
export function remainingStops(dispatch: FrozenDispatch, driverId: string): FrozenStop[] {
  return dispatch.stops.filter((stop) => stop.driver_id === driverId && stop.status === 'planned');
}

/**
 * The project document of the rest of one driver's route: that driver alone, resuming at the
 * report, and `stops` at their dispatched places (no address to geocode again). Locks and
 * preferences are left out: the order is given, and they would name drivers this document lacks.
 * Null when the driver or a stop is no longer in the project.
 */
export function restOfRouteDocument(
  project: ProjectRecord,
  document: Record<string, unknown>,
  driverId: string,
  stops: readonly FrozenStop[],
  from: ReportPlace,
): Record<string, unknown> | null {
  const driverIndex = project.drivers.findIndex((driver) => driver.id === driverId);
  const driver = entryAt(document.drivers, driverIndex);
  const stopIndex = new Map(project.stops.map((stop, index) => [stop.id, index]));
  const entries = stops.map((stop) => entryAt(document.stops, stopIndex.get(stop.stop_id) ?? -1));
  if (!driver || entries.some((entry) => entry === undefined)) return null;
  const here = { lat: from.lat, lng: from.lng };
  return {
    ...document,
    drivers: [{ ...driver, start_location: { coords: here }, resume: { ...here, at: clockText(from.at) } }],
    stops: entries.map((entry, index) => {
      const { driver: _lock, sequence: _sequence, preferred_driver: _prefer, ...rest } = entry!;
      return { ...rest, location: { coords: { lat: stops[index]!.lat, lng: stops[index]!.lng } } };
    }),
  };
}

function entryAt(list: unknown, index: number): Record<string, unknown> | undefined {
  return Array.isArray(list) && index >= 0 ? (list[index] as Record<string, unknown> | undefined) : undefined;
}

/**
 * The estimates of `stops` (the problem's stops, in this order, for its one vehicle): the
 * evaluator's arrival at each, and whether it is late — its service finishing past its window's
 * end (the project's rule: service finishes inside the window), past the shift's end, or, for
 * the last stop, the route reaching its end past the shift's end.
 */
export function estimatesOf(problem: Problem, stops: readonly FrozenStop[]): StopEstimate[] {
  const schedule = retimeRoutes(problem, [{ vehicle: 0, stops: stops.map((_, index) => index) }]).routes[0];
  if (!schedule) return [];
  const shiftEnd = problem.vehicles[0]!.shiftEnd;
  const visits = schedule.visits.filter((visit): visit is StopVisit => visit.kind === 'stop');
  return visits.map((visit, position) => {
    const stop = stops[visit.stop]!;
    const last = position === visits.length - 1;
    const late = visit.late > 0 || visit.finish > shiftEnd || (last && schedule.end > shiftEnd);
    return { stop_id: stop.stop_id, eta_s: stop.arrival_s === null ? null : visit.arrival, late };
  });
}

/**
 * Writes the estimates onto the dispatch's stops; answers the stops whose estimate moved by a
 * minute or more against what was shown before (the last estimate, else the planned arrival).
 */
export function applyEstimates(dispatch: FrozenDispatch, estimates: readonly StopEstimate[]): FrozenStop[] {
  const byId = new Map(dispatch.stops.map((stop) => [stop.stop_id, stop]));
  const moved: FrozenStop[] = [];
  for (const estimate of estimates) {
    const stop = byId.get(estimate.stop_id);
    if (!stop) continue;
    const before = stop.eta_s ?? stop.arrival_s;
    stop.eta_s = estimate.eta_s;
    stop.late = estimate.late;
    if (estimate.eta_s !== null && before !== null && Math.abs(estimate.eta_s - before) >= ETA_MOVED_S) moved.push(stop);
  }
  return moved;
}
