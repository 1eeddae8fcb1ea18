/** Small helpers shared by the solver tests. */
import type { Problem } from '../../src/model/problem.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { insertGreedily } from '../../src/solver/construct.js';
import { instanceOf, type SolverInstance } from '../../src/solver/instance.js';
import type { SearchKit } from '../../src/solver/kit.js';
import { Inserter } from '../../src/solver/insertion.js';
import { MoveEvaluator } from '../../src/solver/ls/move.js';
import { regretInsertion } from '../../src/solver/regret.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { Solution } from '../../src/solver/solution.js';
import type { RouteSchedule, SolveResult, StopVisit } from '../../src/solver/types.js';
import { aloneReason } from '../../src/solver/unserved.js';
import { randomProblem, type LatLng } from '../support/problem-builder.js';

export const DEPOT: LatLng = [0, 0];

/** A point `km` kilometres (great-circle) east of the depot on the equator. */
export function east(km: number): LatLng {
  return [0, (km / 6371.0088) * (180 / Math.PI)];
}

export function west(km: number): LatLng {
  return [0, -(km / 6371.0088) * (180 / Math.PI)];
}

/** Travel time from location `a` to location `b` for vehicle `v`'s profile. */
export function leg(problem: Problem, a: number, b: number, v = 0): number {
  const size = problem.travel.size;
  return problem.travel.durations[problem.vehicles[v]!.profile]![a * size + b]!;
}

export function stopVisits(route: RouteSchedule): StopVisit[] {
  return route.visits.filter((x): x is StopVisit => x.kind === 'stop');
}

export function servedStops(result: SolveResult): number[] {
  return result.routes.flatMap((r) => stopVisits(r).map((x) => x.stop)).sort((a, b) => a - b);
}

export function reasonOf(result: SolveResult, stop: number): string | undefined {
  return result.unserved.find((u) => u.stop === stop)?.reason;
}

export const H = 3600;
export const MIN = 60;

/** A Solomon-format instance of `n` customers with tight windows (moves priced by summaries, as on Gehring–Homberger). */
export function tightWindowsSolomonText(n: number, seed: number): string {
  let state = seed;
  const next = (m: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % m;
  };
  const rows = [`    0     250        250          0          0       2000          0`];
  for (let c = 1; c <= n; c++) {
    const ready = next(1700);
    rows.push(`${c} ${next(500)} ${next(500)} ${1 + next(30)} ${ready} ${ready + 60 + next(120)} 10`);
  }
  return ['GENERATED', '', 'VEHICLE', 'NUMBER     CAPACITY', ` ${n / 4}          200`, '', 'CUSTOMER', 'CUST NO. …', '', ...rows, ''].join(
    '\n',
  );
}

/**
 * Random stops served from one depot with the distance as the cost: where the local search's
 * distance filters (ls/moves/pair-arcs.ts, empty-route-filter.ts) apply. Open routes end at their last stop.
 */
export function oneDepotDistanceProblem(seed: number, size: { stops: number; vehicles: number }, openRoutes = false): Problem {
  const base = randomProblem(seed, { ...size, uniformSpeed: true });
  const depot = base.vehicles[0]!.startLocation;
  const vehicles = base.vehicles.map((v) => ({ ...v, startLocation: depot, endLocation: openRoutes ? -1 : depot }));
  return { ...base, vehicles, objective: { cost: 'distance', minimizeRoutes: false, balance: 'none' } };
}

/** The regret plan of `problem` with a move evaluator over it, as the local search starts from. */
export function regretPlanWithMoves(problem: Problem): { sol: Solution; moves: MoveEvaluator; evaluator: RouteEvaluator } {
  const inst = instanceOf(problem);
  const evaluator = new RouteEvaluator(inst);
  const sol = new Solution(inst, new CostEvaluator(inst));
  regretInsertion(sol, new Inserter(inst, evaluator), evaluator, Infinity);
  return { sol, moves: new MoveEvaluator(inst, evaluator, true), evaluator };
}

/** The stops no vehicle could serve even alone (generators draw a few): no plan serves them. */
export function ineligibleOf({ inst, evaluator }: SearchKit): number[] {
  return Array.from({ length: inst.nStops }, (_, s) => s).filter((s) => aloneReason(inst, evaluator, s) !== null);
}

/**
 * A plan of `inst` with the stops `routed` picks inserted greedily and the others left out, so that
 * used routes and empty vehicles compete for them; `routable`: the stops that have a location.
 */
export function partlyRoutedPlan(
  inst: SolverInstance,
  routed: (stop: number) => boolean,
): { sol: Solution; inserter: Inserter; evaluator: RouteEvaluator; routable: number[] } {
  const evaluator = new RouteEvaluator(inst);
  const inserter = new Inserter(inst, evaluator);
  const sol = new Solution(inst, new CostEvaluator(inst));
  const routable = Array.from({ length: inst.nStops }, (_, s) => s).filter((s) => inst.stopLoc[s]! >= 0);
  insertGreedily(sol, inserter, evaluator, routable.filter(routed));
  return { sol, inserter, evaluator, routable };
}
