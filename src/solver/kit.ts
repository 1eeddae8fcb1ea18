/**
 * The search kit: what every search of one problem is built from — the solver's view of the
 * problem (instance.ts), the exact route evaluator, the objective, the cheapest-insertion helper
 * and the granular neighbour lists. One factory, so that the solve, the result of given routes and
 * a search of a plan (improve.ts) wire them the same way.
 */
import type { Problem } from '../model/problem.js';
import { CostEvaluator } from './cost.js';
import { nearestNeighbours, type NearStops, type SolverInstance } from './instance.js';
import { Inserter } from './insertion.js';
import { orderedInstanceOf } from './local-order.js';
import { NEIGHBOURS } from './params.js';
import { RouteEvaluator } from './route/evaluator.js';
import { Solution } from './solution.js';

export class SearchKit {
  readonly inst: SolverInstance;
  readonly evaluator: RouteEvaluator;
  readonly costs: CostEvaluator;
  readonly inserter: Inserter;
  private nearStops: NearStops | null = null;

  constructor(problem: Problem, localOrder?: boolean) {
    this.inst = orderedInstanceOf(problem, localOrder);
    this.evaluator = new RouteEvaluator(this.inst);
    this.costs = new CostEvaluator(this.inst);
    this.inserter = new Inserter(this.inst, this.evaluator);
  }

  /** The neighbour lists, built on first use: a plan's result or objective needs none. */
  get near(): NearStops {
    this.nearStops ??= {
      neighbours: nearestNeighbours(this.inst, NEIGHBOURS),
      k: Math.min(NEIGHBOURS, Math.max(0, this.inst.nStops - 1)),
    };
    return this.nearStops;
  }
}

/** The kit for searching `problem` (or building the result of a plan of it); `localOrder`: SolveOptions.localOrder. */
export function searchKitOf(problem: Problem, localOrder?: boolean): SearchKit {
  return new SearchKit(problem, localOrder);
}

/** A working plan from route sequences (one per vehicle); every route must pass the exact evaluator. */
export function planOfRoutes({ inst, costs, evaluator }: SearchKit, routes: readonly Int32Array[]): Solution {
  if (routes.length !== inst.nVehicles) throw new Error(`internal error: ${routes.length} routes for ${inst.nVehicles} vehicles`);
  const sol = new Solution(inst, costs);
  let priority = 0;
  for (let v = 0; v < inst.nVehicles; v++) {
    const route = routes[v]!;
    sol.assignRoute(v, route, route.length);
    if (!sol.refreshRoute(v, evaluator)) throw new Error(`internal error: the route given for vehicle ${v} breaks a rule`);
    for (const s of route) priority += inst.stopPriority[s]!;
  }
  sol.servedPriority = priority;
  sol.clearTouched();
  return sol;
}

/** The route sequences of a plan, one per vehicle, as copies (what planOfRoutes takes back). */
export function routesOf(sol: Solution): Int32Array[] {
  const out: Int32Array[] = [];
  for (let v = 0; v < sol.inst.nVehicles; v++) out.push(sol.seq[v]!.slice(0, sol.len[v]));
  return out;
}
