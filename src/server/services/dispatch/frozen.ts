/**
 * A plan frozen as the day's routes: what each driver page shows and each customer message names,
 * copied out of the plan and the project when dispatched, so that neither a later optimization nor
 * the action's retention changes what the drivers are working through.
 */
import type { Plan, PlanGeometry, PlanRoute, PlanStopVisit } from '../../../output/plan-types.js';
import { stopVisits } from '../../../output/visits.js';
import type { DriverPosition, DriverStopView } from '../../api-types.js';
import type { DispatchedProject } from './events.js';
import type { WithNotices } from './notices.js';
import type { ProjectRecord } from '../projects.js';
import { isPlainObject } from '../../../input/index.js';
import { customerLinkOf, retiredTrackingTokens, type CustomerLink } from './customer-links.js';
import type { StoredProof } from './proof.js';

/**
 * One stop of the frozen plan, with the driver's report on it: what the driver page shows of it
 * (views.ts driverStop picks those fields), and what only the dispatcher and the messages use.
 */
export interface FrozenStop extends DriverStopView, Partial<CustomerLink> {
  driver_id: string;
  /** The customer's, for their messages; never on the driver page. */
  email?: string;
  /** Whether this dispatch moved it (driver or planned times) against the previous one. */
  changed: boolean;
  /** A done stop's proof of delivery as kept (its files are in the store's BlobStore). */
  stored_proof?: StoredProof;
}

export interface FrozenEndpoint {
  lat: number;
  lng: number;
  time_s: number;
}

/** One driver of the day: their link and the ends of their route. */
export interface FrozenDriver {
  driver_id: string;
  driver_name: string;
  phone_number?: string;
  /** The current link's token; null once revoked. */
  token: string | null;
  /** Earlier tokens of this driver (revoked or replaced): they answer 410 link_revoked. */
  retired_tokens: string[];
  start?: FrozenEndpoint;
  end?: FrozenEndpoint;
  /** The route's shape along the roads, when the plan had it (road travel): the driver page's map draws it. */
  geometry?: PlanGeometry;
  /** The last position the driver shared (personal data: kept here only, gone with the record). */
  position?: DriverPosition;
  /** When the report the stops' estimates come from was made (ISO 8601); absent before any. */
  retimed_at?: string;
}

/** The dispatch record of a project (the store's `dispatches` collection, one per project). */
export interface FrozenDispatch extends WithNotices {
  owner: string;
  project: DispatchedProject;
  actionUuid: string;
  dispatched_at: string;
  /** End of the project's date (or of its latest route, if later), UTC, plus the configured grace. */
  expires_at: string;
  drivers: FrozenDriver[];
  /** Every stop on a route, route by route in visiting order. */
  stops: FrozenStop[];
  /** Tracking tokens of stops no longer on a route (they answer 410); absent in records from before tracking. */
  retired_tracking_tokens?: string[];
}

/**
 * The dispatch of `plan`: stops and drivers copied from the project, statuses and links carried
 * over from `previous` (a re-dispatch), each stop marked `changed` when it moved.
 */
export function freezePlan(
  owner: string,
  project: ProjectRecord,
  plan: Plan,
  frame: { actionUuid: string; dispatchedAt: string; expiresAt: string; newToken: () => string; etaMarginS: number },
  previous: FrozenDispatch | null,
): FrozenDispatch {
  const routes = plan.routes.filter((route) => stopVisits(route).length > 0);
  const stops = routes.flatMap((route) => stopVisits(route).map((visit) => frozenStop(project, route, visit)));
  for (const stop of stops) carryOver(stop, previous);
  for (const stop of stops) Object.assign(stop, customerLinkOf(stop, previous, frame));
  return {
    owner,
    project: { id: project.id, name: project.name, date: project.date },
    actionUuid: frame.actionUuid,
    dispatched_at: frame.dispatchedAt,
    expires_at: frame.expiresAt,
    drivers: driversOf(project, routes, previous, frame.newToken),
    stops,
    retired_tracking_tokens: retiredTrackingTokens(stops, previous),
  };
}

function frozenStop(project: ProjectRecord, route: PlanRoute, visit: PlanStopVisit): FrozenStop {
  const source = project.stops[visit.stop_index];
  const driver = project.drivers[route.vehicle_index];
  if (source === undefined || driver === undefined) {
    throw new Error(`the plan does not fit project ${project.id}: stop ${visit.stop_index} or driver ${route.vehicle_index} missing`);
  }
  return {
    stop_id: source.id,
    driver_id: driver.id,
    name: visit.stop,
    ...optionalText('address', addressOf(source.location)),
    ...optionalText('email', source.email),
    ...optionalText('phone_number', source.phone_number),
    ...optionalText('notes', source.notes),
    ...(isPlainObject(source.custom_notes) ? { custom_notes: source.custom_notes } : {}),
    lat: visit.location.lat,
    lng: visit.location.lng,
    arrival_s: visit.arrival_s,
    start_s: visit.start_s,
    finish_s: visit.finish_s,
    status: 'planned',
    at: null,
    changed: true,
  };
}

/** A stop dispatched before keeps its report; it is `changed` when its driver or its times moved. */
function carryOver(stop: FrozenStop, previous: FrozenDispatch | null): void {
  const before = previous?.stops.find((candidate) => candidate.stop_id === stop.stop_id);
  if (!before) return;
  stop.status = before.status;
  stop.at = before.at;
  if (before.reason !== undefined) stop.reason = before.reason;
  if (before.reason_code !== undefined) stop.reason_code = before.reason_code;
  if (before.stored_proof !== undefined) stop.stored_proof = before.stored_proof;
  stop.changed = before.driver_id !== stop.driver_id || before.start_s !== stop.start_s || before.finish_s !== stop.finish_s;
}

/** Drivers with stops today, and any driver linked before (whose route may now be empty). */
function driversOf(project: ProjectRecord, routes: PlanRoute[], previous: FrozenDispatch | null, newToken: () => string): FrozenDriver[] {
  const byId = new Map<string, FrozenDriver>();
  for (const earlier of previous?.drivers ?? [])
    byId.set(earlier.driver_id, { ...earlier, start: undefined, end: undefined, geometry: undefined, retimed_at: undefined });
  for (const route of routes) {
    const driver = project.drivers[route.vehicle_index]!;
    const entry: FrozenDriver = byId.get(driver.id) ?? {
      driver_id: driver.id,
      driver_name: String(driver.name),
      ...optionalText('phone_number', driver.phone_number),
      token: newToken(),
      retired_tokens: [],
    };
    entry.start = endpointOf(route.start);
    entry.end = endpointOf(route.end);
    entry.geometry = route.geometry;
    byId.set(driver.id, entry);
  }
  const order = project.drivers.map((driver) => driver.id);
  return [...byId.values()].map(withoutUndefined).sort((a, b) => order.indexOf(a.driver_id) - order.indexOf(b.driver_id));
}

function endpointOf(end: PlanRoute['start']): FrozenEndpoint | undefined {
  return end.location ? { lat: end.location.lat, lng: end.location.lng, time_s: end.time_s } : undefined;
}

function addressOf(location: unknown): unknown {
  return isPlainObject(location) ? location.address : undefined;
}

function optionalText<K extends string>(key: K, value: unknown): Partial<Record<K, string>> {
  return typeof value === 'string' && value.trim() !== '' ? ({ [key]: value } as Record<K, string>) : {};
}

function withoutUndefined<T extends object>(entry: T): T {
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined)) as T;
}

/**
 * When links stop opening (ms since the epoch; NaN for a date that is not one): the end of the
 * project's date in UTC, or of its latest route when that runs past midnight, plus the grace.
 */
export function linkExpiryMs(date: string, plan: Plan, graceMs: number): number {
  const latestEnd = Math.max(86_400, ...plan.routes.map((route) => route.end.time_s));
  return Date.parse(`${date}T00:00:00Z`) + latestEnd * 1000 + graceMs;
}
