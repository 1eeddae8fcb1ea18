/**
 * Why a stop locked to a driver is unserved (`locked_driver_cannot_serve`, decisions.md "Locks"
 * and "Unserved reasons"): the message names the driver and what keeps them from serving it.
 * A stop no driver could serve (a service longer than its windows) keeps that reason: the lock
 * is not what keeps it out.
 */
import type { SolverInstance } from './instance.js';
import { loadExceeds } from './route/capacity.js';
import type { RouteEvaluator } from './route/evaluator.js';
import type { UnservedReason } from './types.js';
import { anyWindowLongEnough, formatDuration, noRoadAlone } from './stop-checks.js';

/** What keeps a stop that fits alone out of the plan, as far as the solver can tell. */
export interface DroppedCause {
  /** It fits some used compatible route with capacity ignored. */
  fitsIgnoringCapacity: boolean;
  /** Some used compatible route has room for its load. */
  hasRoomSomewhere: boolean;
  anyCompatibleFree: boolean;
}

type Reason = { reason: UnservedReason; message: string };

/** The reason found by checking a locked stop against its driver with nothing else to do, or null. */
export function lockedAloneReason(inst: SolverInstance, evaluator: RouteEvaluator, s: number, driver: string): Reason | null {
  if (!anyWindowLongEnough(inst, s)) {
    return {
      reason: 'duration_exceeds_window',
      message: `its service of ${formatDuration(inst, inst.stopDur[s]!)} does not fit inside any of its time windows`,
    };
  }
  const locked = lockedTo(inst, driver);
  const who = `it is locked to driver ${JSON.stringify(driver)}`;
  if (locked < 0) return cannot(`${who}, who is not among the vehicles of this plan`);
  if (inst.compatible[locked * inst.nStops + s] !== 1) {
    const labels = inst.problem.stops[s]!.labels;
    return cannot(`${who}, who has none of the types it requires (${labels.join(', ')})`);
  }
  const dims = inst.dims;
  if (!inst.allowOverload) {
    for (let k = 0; k < dims; k++) {
      if (loadExceeds(inst.stopLoad[s * dims + k]!, inst.vCap[locked * dims + k]!))
        return cannot(`${who}, whose capacity its load exceeds`);
    }
  }
  if (!evaluator.evaluate(locked, Int32Array.of(s), 1, inst.stopLoad.subarray(s * dims, s * dims + dims))) {
    return cannot(
      noRoadAlone(inst, locked, s)
        ? `${who}, and the travel source has no road between it and that driver's start or end`
        : `${who}, who cannot reach it and serve it inside its time windows and the driver's shift, even with nothing else to do`,
    );
  }
  return null;
}

/** Why a locked stop its driver could serve alone is left out of this plan. */
export function lockedDroppedMessage(inst: SolverInstance, s: number, driver: string, cause: DroppedCause): string {
  const sequence = inst.stopSeq[s]!;
  const where = sequence > 0 ? ` at a place its sequence ${sequence} allows` : '';
  const left = `it is locked to driver ${JSON.stringify(driver)} and was left out in favour of stops of higher total priority`;
  if (cause.fitsIgnoringCapacity) return `${left}: the driver's vehicle is full (capacity)`;
  if (cause.hasRoomSomewhere)
    return `${left}: the driver's route has no time left to serve it${where} inside its time windows and the shift (time)`;
  return `${left}: the driver's vehicle is full and the route has no time left for it${where} (capacity and time)`;
}

/** The vehicle named `driver` (validation makes the name unique), or -1 when it is not in this (sub-)problem. */
function lockedTo(inst: SolverInstance, driver: string): number {
  return inst.problem.vehicles.findIndex((vehicle) => vehicle.name === driver);
}

function cannot(message: string): Reason {
  return { reason: 'locked_driver_cannot_serve', message };
}
