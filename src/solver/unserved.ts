/**
 * Why a stop is unserved (decisions.md "Unserved reasons"). The first five reasons come from
 * checking the stop against every vehicle alone; a stop that some vehicle could serve alone
 * was dropped in favour of others, and the message names the binding constraint. A stop locked
 * to a driver that is left out is `locked_driver_cannot_serve`, unless no driver could serve it
 * (no location, a service longer than its windows): the lock is then not what keeps it out.
 */
import type { SolverInstance } from './instance.js';
import { loadExceeds } from './route/capacity.js';
import type { RouteEvaluator } from './route/evaluator.js';
import type { Solution } from './solution.js';
import type { UnservedReason, UnservedStop } from './types.js';
import { anyWindowLongEnough, formatDuration, noRoadAlone } from './stop-checks.js';
import { lockedAloneReason, lockedDroppedMessage, type DroppedCause } from './unserved-lock.js';

export function explainUnserved(sol: Solution, evaluator: RouteEvaluator): UnservedStop[] {
  const out: UnservedStop[] = [];
  for (let s = 0; s < sol.inst.nStops; s++) {
    if (sol.routeOf[s] !== -1) continue;
    const { reason, message } = unservedReason(sol, evaluator, s);
    out.push({ stop: s, reason, message });
  }
  return out;
}

function unservedReason(sol: Solution, evaluator: RouteEvaluator, s: number): { reason: UnservedReason; message: string } {
  const inst = sol.inst;
  const alone = aloneReason(inst, evaluator, s);
  if (alone) return alone;
  const cause = droppedCause(sol, evaluator, s);
  const driver = inst.problem.stops[s]!.lock?.driver;
  if (driver !== undefined) return { reason: 'locked_driver_cannot_serve', message: lockedDroppedMessage(inst, s, driver, cause) };
  return { reason: 'dropped_for_capacity_or_time', message: droppedMessage(cause) };
}

/** The reason found by checking the stop against every vehicle with nothing else to do, or null. */
export function aloneReason(
  inst: SolverInstance,
  evaluator: RouteEvaluator,
  s: number,
): { reason: UnservedReason; message: string } | null {
  const stop = inst.problem.stops[s]!;
  if (inst.stopLoc[s]! < 0) {
    return { reason: 'missing_location', message: 'the stop has no usable location (no coordinates and no geocoded address)' };
  }
  if (stop.lock) return lockedAloneReason(inst, evaluator, s, stop.lock.driver);
  const compatible: number[] = [];
  for (let v = 0; v < inst.nVehicles; v++) if (inst.compatible[v * inst.nStops + s] === 1) compatible.push(v);
  if (compatible.length === 0) {
    const needs = stop.labels.length > 0 ? ` (it requires ${stop.labels.join(', ')})` : '';
    const what = inst.problem.surface === 'oneoff' ? 'tags' : 'types';
    return { reason: 'no_compatible_vehicle', message: `no vehicle has matching ${what}${needs}` };
  }
  if (!anyWindowLongEnough(inst, s)) {
    return {
      reason: 'duration_exceeds_window',
      message: `its service of ${formatDuration(inst, inst.stopDur[s]!)} does not fit inside any of its time windows`,
    };
  }
  const dims = inst.dims;
  const fitting = compatible.filter((v) => {
    if (inst.allowOverload) return true;
    for (let k = 0; k < dims; k++) if (loadExceeds(inst.stopLoad[s * dims + k]!, inst.vCap[v * dims + k]!)) return false;
    return true;
  });
  if (fitting.length === 0) {
    return { reason: 'load_exceeds_capacity', message: 'its load exceeds the capacity of every compatible vehicle' };
  }
  const seq = Int32Array.of(s);
  const load = inst.stopLoad.subarray(s * dims, s * dims + dims);
  if (!fitting.some((v) => evaluator.evaluate(v, seq, 1, load))) {
    return {
      reason: 'unreachable_in_shift',
      message: fitting.every((v) => noRoadAlone(inst, v, s))
        ? 'no road: the travel source has no route between it and the start or end of any compatible vehicle'
        : 'no compatible vehicle can reach it and serve it inside its time windows and its shift, even with nothing else to do',
    };
  }
  return null;
}

function droppedMessage(cause: DroppedCause): string {
  const { fitsIgnoringCapacity, hasRoomSomewhere, anyCompatibleFree } = cause;
  const priority = `left out in favour of stops of higher total priority`;
  if (fitsIgnoringCapacity && !hasRoomSomewhere) return `${priority}: every compatible vehicle is full (capacity)`;
  if (fitsIgnoringCapacity) return `${priority}: the compatible vehicles with time for it are full (capacity)`;
  if (hasRoomSomewhere) {
    return `${priority}: no compatible route has time left to serve it inside its time windows and shift (time)`;
  }
  const free = anyCompatibleFree ? '' : ' and no compatible vehicle is free';
  return `${priority}: the compatible vehicles are full and have no time left for it (capacity and time)${free}`;
}

/** Tells capacity from time: would it fit some used route with capacity ignored, or with time ignored? */
function droppedCause(sol: Solution, evaluator: RouteEvaluator, s: number): DroppedCause {
  const inst = sol.inst;
  const dims = inst.dims;
  const zero = new Float64Array(dims);
  let fitsIgnoringCapacity = false;
  let hasRoomSomewhere = false;
  let anyCompatibleFree = false;
  for (let v = 0; v < inst.nVehicles; v++) {
    if (inst.compatible[v * inst.nStops + s] !== 1) continue;
    const n = sol.len[v]!;
    if (n === 0) {
      anyCompatibleFree = true;
      continue;
    }
    let room = true;
    for (let k = 0; k < dims; k++) {
      if (loadExceeds(sol.load[v * dims + k]! + inst.stopLoad[s * dims + k]!, inst.vCap[v * dims + k]!)) room = false;
    }
    if (room || inst.allowOverload) hasRoomSomewhere = true;
    if (!fitsIgnoringCapacity) {
      for (let p = 0; p <= n && !fitsIgnoringCapacity; p++) {
        if (evaluator.evaluateInsertion(v, sol.seq[v]!, n, sol.cache[v]!, p, s, zero)) fitsIgnoringCapacity = true;
      }
    }
  }
  return { fitsIgnoringCapacity, hasRoomSomewhere, anyCompatibleFree };
}
