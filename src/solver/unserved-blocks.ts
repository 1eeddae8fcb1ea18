/**
 * What keeps a stop that some vehicle could serve alone out of the plan as it stands
 * (decisions.md "Unserved reasons"): the stop is tried in every compatible route at every
 * position, and a route that refuses it is tried again with one rule lifted at a time —
 * capacity, the stop's own windows, the shift end, the windows of the route's other stops. The
 * first rule whose lifting lets the stop in is the one that binds on that route; the message
 * names only what was checked so, and says so when the stop fits as the plan stands.
 */
import { formatClock } from '../model/time.js';
import type { SolverInstance } from './instance.js';
import type { RelaxedView } from './relaxed-view.js';
import { OPEN_END } from './relaxed-view.js';
import { loadExceeds } from './route/capacity.js';
import type { RouteEvaluator } from './route/evaluator.js';
import type { Solution } from './solution.js';
import { formatDuration } from './stop-checks.js';
import type { TrialFit, TrialInsertion } from './trial-insertion.js';

/** The one rule that keeps a stop out of one route, as checked by lifting it alone. */
export type RouteBlock = 'capacity' | 'window' | 'shift' | 'later_windows' | 'several';

export interface StopFit {
  /** The cheapest route and position where the stop fits as the plan stands, or null. */
  fit: TrialFit | null;
  /** Otherwise, on each of the compatible routes nearest to it, what binds there. */
  blocks: Array<{ vehicle: number; block: RouteBlock }>;
  /** How many compatible routes were tried as the plan stands. */
  compatible: number;
}

/** The routes nearest to a stop on which what binds is told apart, and where hints are looked for. */
export const NEAR_ROUTES = 6;

/** The tools the checks share for one plan: its evaluator, a relaxed view and the trial insertion. */
export interface TrialKit {
  sol: Solution;
  evaluator: RouteEvaluator;
  view: RelaxedView;
  trial: TrialInsertion;
}

/**
 * Where stop s fits as the plan stands (every compatible route tried, at every position) or, on
 * each of the compatible routes nearest to it, which rule keeps it out (with `classify`: there is
 * time left for it).
 */
export function stopFit(kit: TrialKit, s: number, classify = true): StopFit {
  const inst = kit.sol.inst;
  let fit: TrialFit | null = null;
  const compatible: number[] = [];
  for (let v = 0; v < inst.nVehicles; v++) {
    if (inst.compatible[v * inst.nStops + s] !== 1) continue;
    compatible.push(v);
    const here = kit.trial.best(kit.evaluator, v, s);
    if (here && (!fit || here.costAdded < fit.costAdded)) fit = here;
  }
  if (fit) return { fit, blocks: [], compatible: compatible.length };
  if (!classify) return { fit, blocks: [], compatible: compatible.length };
  const blocks = nearestRoutes(kit, s, compatible).map((vehicle) => ({ vehicle, block: routeBlock(kit, vehicle, s) }));
  return { fit, blocks, compatible: compatible.length };
}

/**
 * Of `vehicles`, the NEAR_ROUTES whose routes pass nearest to stop s (an empty route by its start
 * and end), in vehicle order among equals: where the search would place it, and where one change
 * most likely lets it in. Bounds the work of explaining a stop whatever the fleet.
 */
export function nearestRoutes(kit: TrialKit, s: number, vehicles: readonly number[]): number[] {
  if (vehicles.length <= NEAR_ROUTES) return [...vehicles];
  const { inst, seq, len } = kit.sol;
  const N = inst.nLoc;
  const loc = inst.stopLoc[s]!;
  const gap = (other: number): number => (other < 0 ? Infinity : inst.dist[loc * N + other]! + inst.dist[other * N + loc]!);
  const reach = vehicles.map((v) => {
    let nearest = Math.min(gap(inst.vStartLoc[v]!), gap(inst.vEndLoc[v]!));
    for (let i = 0, n = len[v]!; i < n; i++) nearest = Math.min(nearest, gap(inst.stopLoc[seq[v]![i]!]!));
    return { v, nearest };
  });
  reach.sort((a, b) => a.nearest - b.nearest || a.v - b.v);
  return reach.slice(0, NEAR_ROUTES).map((r) => r.v);
}

/**
 * The first rule that, lifted alone, lets stop s into vehicle v's route. A rule that cannot bind
 * there is not tried: capacity with room for the load, a shift or windows without an end.
 */
function routeBlock(kit: TrialKit, v: number, s: number): RouteBlock {
  const inst = kit.sol.inst;
  const lifts: Array<[RouteBlock, boolean, () => void]> = [
    ['capacity', overCapacity(kit, v, s), () => kit.view.openCapacity(v)],
    ['window', hasWindow(inst, s), () => kit.view.openWindows(s)],
    ['shift', inst.vShiftEnd[v]! < OPEN_END, () => kit.view.set('vShiftEnd', v, OPEN_END)],
  ];
  for (const [block, binds, lift] of lifts) {
    if (!binds) continue;
    lift();
    const fits = kit.trial.fits(kit.view.evaluator, v, s);
    kit.view.restore();
    if (fits) return block;
  }
  // Other stops' windows change the route before the insertion too: each position walks the whole route.
  openRouteWindows(kit, v);
  const fits = kit.trial.fits(kit.view.evaluator, v, s, false);
  kit.view.restore();
  return fits ? 'later_windows' : 'several';
}

/** Whether route v with stop s is over capacity in some dimension (never so when overload is allowed). */
export function overCapacity(kit: TrialKit, v: number, s: number): boolean {
  const inst = kit.sol.inst;
  if (inst.allowOverload) return false;
  for (let k = 0; k < inst.dims; k++) {
    if (loadExceeds(kit.sol.load[v * inst.dims + k]! + inst.stopLoad[s * inst.dims + k]!, inst.vCap[v * inst.dims + k]!)) return true;
  }
  return false;
}

/** Whether some window of stop s has a start or an end that could bind. */
function hasWindow(inst: SolverInstance, s: number): boolean {
  for (let w = inst.winOffset[s]!, e = inst.winOffset[s + 1]!; w < e; w++) {
    if (inst.winStart[w]! > 0 || inst.winEnd[w]! < OPEN_END) return true;
  }
  return false;
}

function openRouteWindows(kit: TrialKit, v: number): void {
  const seq = kit.sol.seq[v]!;
  for (let i = 0, n = kit.sol.len[v]!; i < n; i++) kit.view.openWindows(seq[i]!);
}

/** The message of a stop feasible alone and left out: where it fits, or what binds on each route. */
export function blocksMessage(inst: SolverInstance, s: number, found: StopFit): string {
  if (found.fit) return fitsMessage(inst, found.fit);
  if (found.blocks.length === 0)
    return 'it fits in no route as the plan stands (the time limit left no time to tell which rule keeps it out)';
  const byBlock = new Map<RouteBlock, number[]>();
  for (const { vehicle, block } of found.blocks) byBlock.set(block, [...(byBlock.get(block) ?? []), vehicle]);
  const parts = [...byBlock].map(([block, vehicles]) => blockClause(inst, s, block, vehicles));
  const nearest = found.blocks.length < found.compatible ? `; on the ${found.blocks.length} nearest to it` : '';
  return `it fits in no route as the plan stands${nearest}: ${parts.join('; ')}`;
}

/** Honest about a stop that could be served: what serving it would add, never that vehicles are full. */
function fitsMessage(inst: SolverInstance, fit: TrialFit): string {
  const who = driverName(inst, fit.vehicle);
  const added = [formatDistance(inst, fit.distanceAdded), `${formatDuration(inst, Math.max(0, fit.workAdded))} of working time`];
  return `left out although it fits the plan as it stands: serving it on ${who}'s route would add ${added.join(' and ')}`;
}

function blockClause(inst: SolverInstance, s: number, block: RouteBlock, vehicles: number[]): string {
  const who = namesOf(inst, vehicles);
  const one = vehicles.length === 1;
  switch (block) {
    case 'capacity':
      return `${who} ${one ? 'has' : 'have'} no room left for its load (capacity)`;
    case 'window':
      return `${who} cannot serve it inside its time window${windowsOf(inst, s)} (time)`;
    case 'shift':
      return `serving it would end ${one ? 'the route' : 'the routes'} of ${who} after the shift (time)`;
    case 'later_windows':
      return `serving it would make stops on ${one ? 'the route' : 'the routes'} of ${who} miss their time windows (time)`;
    case 'several':
      return `on ${one ? 'the route' : 'the routes'} of ${who} more than one rule keeps it out (capacity and time together, or a break)`;
  }
}

/** " (10:00–11:00)" for a stop's windows, empty on a benchmark or for a window open all day. */
function windowsOf(inst: SolverInstance, s: number): string {
  if (inst.problem.surface === 'benchmark') return '';
  const windows = inst.problem.stops[s]!.windows.filter((window) => window.end !== Infinity || window.start > 0);
  if (windows.length === 0) return '';
  return ` (${windows.map((window) => `${formatClock(window.start)}–${window.end === Infinity ? '…' : formatClock(window.end)}`).join(', ')})`;
}

/** "Camille", "Camille and Théo", "Camille, Théo, Léa and 4 more". */
export function namesOf(inst: SolverInstance, vehicles: readonly number[]): string {
  const names = vehicles.slice(0, 3).map((v) => driverName(inst, v));
  const more = vehicles.length - names.length;
  if (more > 0) return `${names.join(', ')} and ${more} more`;
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
}

export function driverName(inst: SolverInstance, v: number): string {
  const name = inst.problem.vehicles[v]!.name;
  return name === '' ? `vehicle ${v + 1}` : name;
}

function formatDistance(inst: SolverInstance, distance: number): string {
  if (inst.problem.surface === 'benchmark') return `${Math.max(0, distance) / inst.problem.units.distancePerReported} distance units`;
  const km = Math.max(0, distance) / 1000;
  return `${km < 10 ? km.toFixed(1) : Math.round(km)} km`;
}
