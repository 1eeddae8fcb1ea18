/** What the dispatcher and a driver see of a dispatch: each only what is theirs to see. */
import type { DispatchStopView, DispatchView, DriverLinkView, DriverRouteView, DriverStopView, ProofSetting } from '../../api-types.js';
import type { DispatchedStop } from './events.js';
import type { FrozenDispatch, FrozenDriver, FrozenStop } from './frozen.js';
import { proofView } from './proof.js';

/** The dispatcher's view: every stop's report and every driver's link (and each customer's promise and tracking link). */
export function dispatchView(
  dispatch: FrozenDispatch,
  linkUrl: (token: string) => string,
  trackingUrl: (token: string) => string,
): DispatchView {
  return {
    actionUuid: dispatch.actionUuid,
    dispatched_at: dispatch.dispatched_at,
    stops: dispatch.stops.map((stop) => ({ ...stopReport(stop, ownerProofBase(dispatch, stop)), ...customerPromise(stop, trackingUrl) })),
    drivers: dispatch.drivers.map((driver) => driverLink(dispatch, driver, linkUrl)),
  };
}

function stopReport(stop: FrozenStop, proofBase: string): DispatchStopView {
  return {
    stop_id: stop.stop_id,
    status: stop.status,
    at: stop.at,
    ...(stop.reason !== undefined ? { reason: stop.reason } : {}),
    driver_id: stop.driver_id,
    ...(stop.reason_code !== undefined ? { reason_code: stop.reason_code } : {}),
    ...proofView(stop.stored_proof, proofBase),
    arrival_s: stop.arrival_s,
    ...estimateOf(stop),
  };
}

function customerPromise(stop: FrozenStop, trackingUrl: (token: string) => string): Pick<DispatchStopView, 'promised' | 'tracking_url'> {
  return {
    ...(stop.promised !== undefined ? { promised: stop.promised } : {}),
    ...(stop.tracking_token !== undefined ? { tracking_url: trackingUrl(stop.tracking_token) } : {}),
  };
}

/** Where the project's owner fetches a stop's proof files (routes/proof-files.ts). */
function ownerProofBase(dispatch: FrozenDispatch, stop: FrozenStop): string {
  return `/v1.0/project/${dispatch.project.id}/dispatch/stops/${stop.stop_id}`;
}

/** Where a driver link fetches its own stop's proof files. */
function driverProofBase(token: string | null, stop: FrozenStop): string {
  return `/drivers/${token ?? ''}/stops/${stop.stop_id}`;
}

function driverLink(dispatch: FrozenDispatch, driver: FrozenDriver, linkUrl: (token: string) => string): DriverLinkView {
  return {
    driver_id: driver.driver_id,
    driver_name: driver.driver_name,
    ...(driver.token !== null ? { url: linkUrl(driver.token) } : {}),
    ...(driver.phone_number !== undefined ? { phone_number: driver.phone_number } : {}),
    expires_at: dispatch.expires_at,
    revoked: driver.token === null,
    stops: dispatch.stops.filter((stop) => stop.driver_id === driver.driver_id).length,
    ...(driver.position ? { position: driver.position } : {}),
  };
}

/** A driver's own route: their stops only, with what they need at the door. */
export function driverRouteView(dispatch: FrozenDispatch, driver: FrozenDriver, proofRequired: ProofSetting = 'none'): DriverRouteView {
  return {
    project: { name: dispatch.project.name, date: dispatch.project.date },
    driver: { id: driver.driver_id, name: driver.driver_name },
    dispatched_at: dispatch.dispatched_at,
    expires_at: dispatch.expires_at,
    ...(driver.start ? { start: driver.start } : {}),
    ...(driver.end ? { end: driver.end } : {}),
    ...(driver.geometry ? { geometry: driver.geometry } : {}),
    stops: dispatch.stops.filter((stop) => stop.driver_id === driver.driver_id).map((stop) => driverStop(stop, driver.token)),
    ...(proofRequired !== 'none' ? { proof_required: proofRequired } : {}),
  };
}

export function driverStop(stop: FrozenStop, token: string | null): DriverStopView {
  const { stop_id, name, address, lat, lng, phone_number, notes, custom_notes } = stop;
  return {
    stop_id,
    name,
    ...(address !== undefined ? { address } : {}),
    lat,
    lng,
    ...(phone_number !== undefined ? { phone_number } : {}),
    ...(notes !== undefined ? { notes } : {}),
    ...(custom_notes !== undefined ? { custom_notes } : {}),
    arrival_s: stop.arrival_s,
    start_s: stop.start_s,
    finish_s: stop.finish_s,
    status: stop.status,
    at: stop.at,
    ...(stop.reason !== undefined ? { reason: stop.reason } : {}),
    ...(stop.reason_code !== undefined ? { reason_code: stop.reason_code } : {}),
    ...proofView(stop.stored_proof, driverProofBase(token, stop)),
    ...estimateOf(stop),
  };
}

/** The live estimate, once a report re-timed the stop (readers fall back to the planned arrival before). */
function estimateOf(stop: FrozenStop): Pick<DriverStopView, 'eta_s' | 'late'> {
  return stop.eta_s !== undefined ? { eta_s: stop.eta_s, late: stop.late === true } : {};
}

/** A stop as customer notifications see it. */
export function dispatchedStop(stop: FrozenStop): DispatchedStop {
  return {
    stop_id: stop.stop_id,
    name: stop.name,
    ...(stop.address !== undefined ? { address: stop.address } : {}),
    ...(stop.email !== undefined ? { email: stop.email } : {}),
    start_s: stop.start_s,
    finish_s: stop.finish_s,
    changed: stop.changed,
    arrival_s: stop.arrival_s,
    status: stop.status,
    ...(stop.promised !== undefined ? { promised: stop.promised } : {}),
    ...(stop.tracking_token !== undefined ? { tracking_token: stop.tracking_token } : {}),
  };
}
