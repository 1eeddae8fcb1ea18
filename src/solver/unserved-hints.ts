/**
 * Fix hints for an unserved stop (decisions.md "Unserved reasons"): single changes that would
 * let it be served in this plan, every served stop kept — its window ending later or starting
 * earlier, its service shorter, a driver's shift ending later, a driver's capacity raised, a
 * driver having the type it needs. Each is found by trial insertion into the plan as it stands
 * under the changed rule (a RelaxedView), and the amount returned is the one checked: the
 * smallest whole number of minutes (time units on a benchmark) or load units with which the
 * route evaluator accepts the route with the stop. A larger change never makes a route
 * infeasible for these rules, so the smallest is found by halving.
 *
 * Work is bounded: per kind and stop, each of the compatible routes nearest to it
 * (unserved-blocks.ts NEAR_ROUTES) is tried once at every position at one step less than the best
 * amount so far, and halved down only when it fits.
 * At most one hint per kind (the smallest), then the three smallest across kinds, where size
 * is relative to what is changed: 20 min on a two-hour window is 1/6, +2 on a capacity of 20
 * is 1/10, a type a driver does not have counts 1.
 */
import { HINT_KINDS } from '../model/hint-kinds.js';
import { formatClock } from '../model/time.js';
import type { SolverInstance } from './instance.js';
import { loadExceeds } from './route/capacity.js';
import { OPEN_END } from './relaxed-view.js';
import { formatDuration } from './stop-checks.js';
import type { TrialKit } from './unserved-blocks.js';
import { driverName, nearestRoutes } from './unserved-blocks.js';
import type { UnservedHint, UnservedHintKind } from './types.js';

/** At most this many hints per stop. */
export const MAX_HINTS = 3;

/** No time hint asks for more than a day (1,440 min; time units on a benchmark): that is no small change. */
const MOST_STEPS = 1440;

/** A hint and how big its change is relative to what it changes (for "smallest first"). */
interface Sized {
  hint: UnservedHint;
  size: number;
}

/** Ties of size go in the order of the kinds' list. */
const KIND_ORDER: readonly UnservedHintKind[] = HINT_KINDS;

/** Up to three single changes that would serve stop s in the plan as it stands, smallest first. */
export function hintsFor(kit: TrialKit, s: number): UnservedHint[] {
  const inst = kit.sol.inst;
  if (inst.stopLoc[s]! < 0) return [];
  const found: Sized[] = [];
  const add = (sized: Sized | null): void => {
    if (sized) found.push(sized);
  };
  for (let w = inst.winOffset[s]!, e = inst.winOffset[s + 1]!; w < e; w++) {
    add(windowEndHint(kit, s, w));
    add(windowStartHint(kit, s, w));
  }
  add(durationHint(kit, s));
  add(shiftEndHint(kit, s));
  add(capacityHint(kit, s));
  add(typeHint(kit, s));
  return smallestPerKind(found)
    .sort((a, b) => a.size - b.size || KIND_ORDER.indexOf(a.hint.kind) - KIND_ORDER.indexOf(b.hint.kind))
    .slice(0, MAX_HINTS)
    .map(({ hint }) =>
      STOP_KINDS.has(hint.kind) ? { ...hint, text: `${hint.text}, on ${driverName(inst, hint.vehicle)}'s route` } : hint,
    );
}

/** The kinds that change the stop: their text says whose route would take it. */
const STOP_KINDS: ReadonlySet<UnservedHintKind> = new Set(['window_end_later', 'window_start_earlier', 'duration_shorter']);

function smallestPerKind(found: Sized[]): Sized[] {
  const best = new Map<UnservedHintKind, Sized>();
  for (const sized of found) {
    const seen = best.get(sized.hint.kind);
    if (!seen || sized.size < seen.size) best.set(sized.hint.kind, sized);
  }
  return [...best.values()];
}

/** One minute in time units, or one time unit of a benchmark instance: the step of every time hint. */
export function timeStep(inst: SolverInstance): number {
  const perSecond = inst.problem.units.timePerSecond;
  return inst.problem.surface === 'benchmark' ? perSecond : 60 * perSecond;
}

/**
 * The vehicles that may serve s (of the empty ones one per class, since they are interchangeable),
 * the nearest routes only: the search of a hint stays bounded whatever the fleet.
 */
function candidateVehicles(kit: TrialKit, s: number): number[] {
  const inst = kit.sol.inst;
  const emptyClasses = new Set<number>();
  const out: number[] = [];
  for (let v = 0; v < inst.nVehicles; v++) {
    if (inst.compatible[v * inst.nStops + s] !== 1) continue;
    if (kit.sol.len[v] === 0) {
      if (emptyClasses.has(inst.vClass[v]!)) continue;
      emptyClasses.add(inst.vClass[v]!);
    }
    out.push(v);
  }
  return nearestRoutes(kit, s, out);
}

/**
 * The smallest number of steps in [1, most] with which stop s fits one of `vehicles` once
 * `change(steps)` is applied to the view, and that vehicle; null when even `most` does not do.
 * Each vehicle is first tried at one step less than the best so far (one pass over its route),
 * and halved down only when that fits: O(vehicles + log(most) × improvements) passes.
 */
function smallestChange(
  kit: TrialKit,
  s: number,
  vehicles: readonly number[],
  most: number,
  change: (steps: number) => void,
): { steps: number; vehicle: number } | null {
  const fitsWith = (steps: number, v: number): boolean => {
    change(steps);
    const fits = kit.trial.fits(kit.view.evaluator, v, s);
    kit.view.restore();
    return fits;
  };
  let best: { steps: number; vehicle: number } | null = null;
  for (const v of vehicles) {
    let hi: number = best ? best.steps - 1 : Math.floor(Math.min(most, MOST_STEPS));
    if (hi < 1 || !fitsWith(hi, v)) continue;
    let lo = 0;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (fitsWith(mid, v)) hi = mid;
      else lo = mid;
    }
    best = { steps: hi, vehicle: v };
  }
  return best;
}

function windowEndHint(kit: TrialKit, s: number, w: number): Sized | null {
  const inst = kit.sol.inst;
  const step = timeStep(inst);
  const end = inst.winEnd[w]!;
  if (end >= OPEN_END) return null;
  const limit = w + 1 < inst.winOffset[s + 1]! ? inst.winStart[w + 1]! : latestEnd(inst);
  const found = smallestChange(kit, s, candidateVehicles(kit, s), Math.floor((limit - end) / step), (steps) =>
    kit.view.set('winEnd', w, end + steps * step),
  );
  if (!found) return null;
  const value = end + found.steps * step;
  const text = `${windowName(inst, s, w)} ending ${amountText(inst, found.steps)} later${clockText(inst, value)}`;
  return sized(
    inst,
    { kind: 'window_end_later', amount: found.steps, vehicle: found.vehicle, window: w - inst.winOffset[s]!, value, text },
    windowLength(inst, w),
  );
}

function windowStartHint(kit: TrialKit, s: number, w: number): Sized | null {
  const inst = kit.sol.inst;
  const step = timeStep(inst);
  const start = inst.winStart[w]!;
  const limit = w > inst.winOffset[s]! ? inst.winEnd[w - 1]! : 0;
  const found = smallestChange(kit, s, candidateVehicles(kit, s), Math.floor((start - limit) / step), (steps) =>
    kit.view.set('winStart', w, start - steps * step),
  );
  if (!found) return null;
  const value = start - found.steps * step;
  const text = `${windowName(inst, s, w)} starting ${amountText(inst, found.steps)} earlier${clockText(inst, value)}`;
  return sized(
    inst,
    { kind: 'window_start_earlier', amount: found.steps, vehicle: found.vehicle, window: w - inst.winOffset[s]!, value, text },
    windowLength(inst, w),
  );
}

function durationHint(kit: TrialKit, s: number): Sized | null {
  const inst = kit.sol.inst;
  const step = timeStep(inst);
  const duration = inst.stopDur[s]!;
  const found = smallestChange(kit, s, candidateVehicles(kit, s), Math.ceil(duration / step), (steps) =>
    kit.view.set('stopDur', s, Math.max(0, duration - steps * step)),
  );
  if (!found) return null;
  const value = Math.max(0, duration - found.steps * step);
  const text = `Service ${amountText(inst, found.steps)} shorter (${formatDuration(inst, value)})`;
  return sized(inst, { kind: 'duration_shorter', amount: found.steps, vehicle: found.vehicle, value, text }, duration);
}

/**
 * The shortest shift end extension over the compatible drivers with a shift end: read from the
 * earliest end of the route with the stop and the shift opened, then checked at that amount.
 */
function shiftEndHint(kit: TrialKit, s: number): Sized | null {
  const inst = kit.sol.inst;
  const step = timeStep(inst);
  let best: Sized | null = null;
  for (const v of candidateVehicles(kit, s)) {
    const end = inst.vShiftEnd[v]!;
    if (end >= OPEN_END) continue;
    kit.view.set('vShiftEnd', v, OPEN_END);
    const earliest = kit.trial.earliestEnd(kit.view.evaluator, v, s);
    kit.view.restore();
    const steps = Math.max(1, Math.ceil((earliest - inst.vMaxOvertime[v]! - end) / step - 1e-9));
    if (!(steps <= MOST_STEPS) || (best && steps >= best.hint.amount)) continue;
    kit.view.set('vShiftEnd', v, end + steps * step);
    const fits = kit.trial.fits(kit.view.evaluator, v, s);
    kit.view.restore();
    if (!fits) continue;
    const value = end + steps * step;
    const text = `${driverName(inst, v)}'s shift ending ${amountText(inst, steps)} later${clockText(inst, value)}`;
    best = sized(inst, { kind: 'shift_end_later', amount: steps, vehicle: v, value, text }, end - inst.vEarliest[v]!);
  }
  return best;
}

/** The smallest raise of one compatible driver's capacity in the one dimension the stop's load exceeds. */
function capacityHint(kit: TrialKit, s: number): Sized | null {
  const inst = kit.sol.inst;
  if (inst.allowOverload || !inst.capacityActive) return null;
  let best: Sized | null = null;
  for (const v of candidateVehicles(kit, s)) {
    const k = onlyExceededDimension(kit, v, s);
    if (k < 0) continue;
    const cap = inst.vCap[v * inst.dims + k]!;
    const amount = Math.ceil(kit.sol.load[v * inst.dims + k]! + inst.stopLoad[s * inst.dims + k]! - cap - 1e-9);
    if (best && amount / Math.max(cap, 1) >= best.size) continue;
    kit.view.set('vCap', v * inst.dims + k, cap + amount);
    const fits = kit.trial.fits(kit.view.evaluator, v, s);
    kit.view.restore();
    if (!fits) continue;
    const dimension = inst.problem.dimensions[k] ?? '';
    const text = `${driverName(inst, v)}'s capacity${dimension === '' ? '' : ` of ${dimension}`} +${amount} (${cap + amount})`;
    best = sized(inst, { kind: 'driver_capacity', amount, vehicle: v, dimension: k, value: cap + amount, text }, cap);
  }
  return best;
}

/** The dimension k where route v with stop s is over capacity, when it is the only one; else -1. */
function onlyExceededDimension(kit: TrialKit, v: number, s: number): number {
  const inst = kit.sol.inst;
  let exceeded = -1;
  for (let k = 0; k < inst.dims; k++) {
    const load = kit.sol.load[v * inst.dims + k]! + inst.stopLoad[s * inst.dims + k]!;
    if (!loadExceeds(load, inst.vCap[v * inst.dims + k]!)) continue;
    if (exceeded >= 0) return -1;
    exceeded = k;
  }
  return exceeded;
}

/** A driver who lacks one type (tag) the stop needs and, given it, could serve it in their route as it stands. */
function typeHint(kit: TrialKit, s: number): Sized | null {
  const inst = kit.sol.inst;
  const stop = inst.problem.stops[s]!;
  const lacking = new Map<number, string>();
  for (let v = 0; v < inst.nVehicles; v++) {
    if (inst.compatible[v * inst.nStops + s] === 1) continue;
    const vehicle = inst.problem.vehicles[v]!;
    if (stop.lock && stop.lock.driver !== vehicle.name) continue;
    const label = oneMissingLabel(inst, stop.labels, vehicle.labels);
    if (label !== null) lacking.set(v, label);
  }
  let best: { v: number; label: string; cost: number } | null = null;
  for (const v of nearestRoutes(kit, s, [...lacking.keys()])) {
    const label = lacking.get(v)!;
    const fit = kit.trial.best(kit.evaluator, v, s);
    if (fit && (!best || fit.costAdded < best.cost)) best = { v, label, cost: fit.costAdded };
  }
  if (!best) return null;
  const what = inst.problem.surface === 'oneoff' ? 'tag' : 'type';
  const text = `${driverName(inst, best.v)} having ${what} ${best.label}`;
  return { hint: { kind: 'driver_type', amount: 1, vehicle: best.v, label: best.label, text }, size: 1 };
}

/**
 * The one label a vehicle lacks for the stop: a project's types match any of the stop's, so
 * any one will do (the first); a one-off's tags must all be there, so exactly one may be missing.
 */
function oneMissingLabel(inst: SolverInstance, needed: readonly string[], has: readonly string[]): string | null {
  if (needed.length === 0) return null;
  if (inst.problem.surface !== 'oneoff') return needed[0]!;
  const missing = needed.filter((label) => !has.includes(label));
  return missing.length === 1 ? missing[0]! : null;
}

function sized(inst: SolverInstance, hint: UnservedHint, base: number): Sized {
  const change = hint.kind === 'driver_capacity' ? hint.amount : hint.amount * timeStep(inst);
  return { hint, size: change / Math.max(base, hint.kind === 'driver_capacity' ? 1 : timeStep(inst)) };
}

/** The latest a compatible route may end: past it, a later window end helps nobody. */
function latestEnd(inst: SolverInstance): number {
  let latest = 0;
  for (let v = 0; v < inst.nVehicles; v++) latest = Math.max(latest, Math.min(OPEN_END, inst.vShiftEnd[v]! + inst.vMaxOvertime[v]!));
  return latest;
}

function windowLength(inst: SolverInstance, w: number): number {
  return Math.min(inst.winEnd[w]!, OPEN_END) - inst.winStart[w]!;
}

/** "Window" for a stop with one, "Window 13:00–15:00" for one of several. */
function windowName(inst: SolverInstance, s: number, w: number): string {
  if (inst.winOffset[s + 1]! - inst.winOffset[s]! === 1 || inst.problem.surface === 'benchmark') return 'Window';
  const end = inst.winEnd[w]!;
  return `Window ${formatClock(inst.winStart[w]!)}–${end >= OPEN_END ? '…' : formatClock(end)}`;
}

function amountText(inst: SolverInstance, steps: number): string {
  return inst.problem.surface === 'benchmark' ? `${steps} time unit${steps === 1 ? '' : 's'}` : `${steps} min`;
}

/** " (11:25)": the new time, on a real day only. */
function clockText(inst: SolverInstance, time: number): string {
  return inst.problem.surface === 'benchmark' ? '' : ` (${formatClock(time / inst.problem.units.timePerSecond)})`;
}
