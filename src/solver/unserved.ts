/**
 * Why a stop is unserved (decisions.md "Unserved reasons"). The first five reasons come from
 * checking the stop against every vehicle alone; a stop that some vehicle could serve alone
 * was left out, and the message says what keeps it out of each compatible route as the plan
 * stands, checked by trial insertion (unserved-blocks.ts). A stop locked to a driver that is
 * left out is `locked_driver_cannot_serve`, unless no driver could serve it (no location, a
 * service longer than its windows): the lock is then not what keeps it out. Every unserved
 * stop also gets its fix hints (unserved-hints.ts).
 */
import type { SolverInstance } from './instance.js';
import { RelaxedView } from './relaxed-view.js';
import { loadExceeds } from './route/capacity.js';
import type { RouteEvaluator } from './route/evaluator.js';
import type { Solution } from './solution.js';
import { TrialInsertion } from './trial-insertion.js';
import type { UnservedHint, UnservedReason, UnservedStop } from './types.js';
import { anyWindowLongEnough, formatDuration, noRoadAlone } from './stop-checks.js';
import { blocksMessage, stopFit, type TrialKit } from './unserved-blocks.js';
import { hintsFor } from './unserved-hints.js';
import { lockedAloneReason, lockedDroppedMessage } from './unserved-lock.js';
import { HINTED_STOPS_WITHOUT_CLOCK } from './params.js';

/**
 * The reason, message and hints of every stop the plan leaves out. The first
 * HINTED_STOPS_WITHOUT_CLOCK get their hints in any case; for the others `mayLook` says whether
 * time is left to look: the solve's limit bounds the command, so past it the stops left get their
 * reason, a message that says only whether they fit (always checked) and no `hints` (not looked
 * for, unlike `[]`: none helps). A search that stopped by itself has its limit's rest, so a seed still gives one plan.
 */
export function explainUnserved(sol: Solution, evaluator: RouteEvaluator, mayLook: () => boolean = () => true): UnservedStop[] {
  const out: UnservedStop[] = [];
  let kit: TrialKit | null = null;
  for (let s = 0; s < sol.inst.nStops; s++) {
    if (sol.routeOf[s] !== -1) continue;
    // Built on the first unserved stop: a plan that serves every stop needs none of it.
    kit ??= { sol, evaluator, view: new RelaxedView(sol.inst), trial: new TrialInsertion(sol) };
    const looking = out.length < HINTED_STOPS_WITHOUT_CLOCK || mayLook();
    out.push(explainStop(kit, s, looking));
  }
  return out;
}

function explainStop(kit: TrialKit, s: number, looking: boolean): UnservedStop {
  const inst = kit.sol.inst;
  const look = (): { hints?: UnservedHint[] } => (looking ? { hints: hintsFor(kit, s) } : {});
  const alone = aloneReason(inst, kit.evaluator, s);
  if (alone) return { stop: s, ...alone, ...look() };
  const found = stopFit(kit, s, looking);
  // A stop that fits as the plan stands needs no change to be served.
  const hints = found.fit ? { hints: [] } : look();
  const driver = inst.problem.stops[s]!.lock?.driver;
  if (driver !== undefined) {
    return { stop: s, reason: 'locked_driver_cannot_serve', message: lockedDroppedMessage(inst, s, driver, found), ...hints };
  }
  return { stop: s, reason: 'dropped_for_capacity_or_time', message: blocksMessage(inst, s, found), ...hints };
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
