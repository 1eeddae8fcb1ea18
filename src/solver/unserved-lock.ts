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
import type { StopFit } from './unserved-blocks.js';
import { anyWindowLongEnough, formatDuration, noRoadAlone } from './stop-checks.js';

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

/** Why a locked stop its driver could serve alone is left out of this plan, as checked by trial insertion. */
export function lockedDroppedMessage(inst: SolverInstance, s: number, driver: string, found: StopFit): string {
  const locked = `it is locked to driver ${JSON.stringify(driver)}`;
  if (found.fit) return `${locked} and was left out although it fits the driver's route as it stands`;
  const sequence = inst.stopSeq[s]!;
  const where = sequence > 0 ? ` at a place its sequence ${sequence} allows` : '';
  const left = `${locked} and was left out as it fits nowhere in the driver's route${where} as the plan stands`;
  switch (found.blocks[0]?.block) {
    case 'capacity':
      return `${left}: the driver's vehicle is full (capacity)`;
    case 'window':
      return `${left}: the driver cannot serve it inside its time windows (time)`;
    case 'shift':
      return `${left}: serving it would end the route after the driver's shift (time)`;
    case 'later_windows':
      return `${left}: serving it would make stops on the route miss their time windows (time)`;
    case undefined:
      return `${left} (the time limit left no time to tell which rule keeps it out)`;
    case 'several':
      return `${left}: more than one rule keeps it out (capacity and time together, or a break)`;
  }
}

/** The vehicle named `driver` (validation makes the name unique), or -1 when it is not in this (sub-)problem. */
function lockedTo(inst: SolverInstance, driver: string): number {
  return inst.problem.vehicles.findIndex((vehicle) => vehicle.name === driver);
}

function cannot(message: string): Reason {
  return { reason: 'locked_driver_cannot_serve', message };
}
