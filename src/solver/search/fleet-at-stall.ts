/**
 * The fleet minimisation at the stall (SolveOptions.fleetAtStall): on small windowed problems the
 * search stops by itself long before a generous limit with one route more than the best-known
 * (Solomon RC101 at 30 s: stalled at ~6,000 iterations, 16 routes against 15). Where it would stop
 * on its stall (after its reheats), the fleet minimisation (fleet.ts) runs on the best plan; when it
 * finds a plan serving every stop with fewer routes, that plan, polished, becomes the current one
 * (Plans.restartFrom) and the search goes on from it at the temperature where it stalled for a fresh
 * stall budget, the best plan kept by the true objective; at most FLEET_AT_STALL_ROUNDS times. Its
 * budget is counted in iterations scaled to the problem, never time, so a seed keeps its plan.
 */
import type { SolverInstance } from '../instance.js';
import { windowsBind } from '../ls/windows-bind.js';
import {
  FLEET_AT_STALL_BY_DEFAULT,
  FLEET_AT_STALL_ITERATIONS_PER_STOP,
  FLEET_AT_STALL_MAX_STOPS,
  FLEET_AT_STALL_ROUNDS,
} from '../params.js';
import { FleetMinimiser, type FleetParts } from './fleet.js';
import type { Plans } from './plans.js';
import type { Polisher } from './polish.js';

/** What the phase needs from the search: the fleet phase's parts, polishing its plan as a candidate is. */
export type StallFleetParts = Omit<FleetParts, 'localSearch'> & { polisher: Polisher };

export class FleetAtStall {
  private rounds = 0;
  /** Routes the phase took out of the best plans it started from, all rounds together (tests, bench). */
  routesRemoved = 0;

  private constructor(
    private readonly parts: StallFleetParts,
    private readonly deadline: number,
    private readonly clock: () => number,
  ) {}

  /** The phase for a search on `parts.inst` when it applies (fleetAtStallApplies), else null. */
  static when(
    limits: { fleetAtStall?: boolean | undefined; deadline: number },
    parts: StallFleetParts,
    clock: () => number,
  ): FleetAtStall | null {
    return fleetAtStallApplies(parts.inst, limits.fleetAtStall) ? new FleetAtStall(parts, limits.deadline, clock) : null;
  }

  /**
   * At a stall: runs the fleet minimisation on the best plan; answers whether the search goes on
   * from a plan with fewer routes (then its stall count starts afresh).
   */
  restartWithFewerRoutes(plans: Plans): boolean {
    if (this.rounds >= FLEET_AT_STALL_ROUNDS) return false;
    this.rounds++;
    const { inst, inserter, evaluator, near, eligible, ruiner, rng, meter, polisher } = this.parts;
    const iterations = Math.ceil(FLEET_AT_STALL_ITERATIONS_PER_STOP * inst.nStops);
    const budget = { work: Infinity, iterations, deadline: this.deadline, clock: this.clock };
    const start = plans.best;
    const outcome = new FleetMinimiser(inst, inserter, evaluator, near, eligible, ruiner, rng).run(start, budget, meter);
    const plan = outcome.plan;
    if (plan === null) return false;
    this.routesRemoved += start.routesUsed() - plan.routesUsed();
    plans.restartFrom(plan, polisher.polish(plan, plans.bestObj, this.deadline));
    plans.sinceImprovement = 0;
    return true;
  }
}

/**
 * Whether the phase runs on `inst`: with `on` (SolveOptions.fleetAtStall, FLEET_AT_STALL_BY_DEFAULT
 * when absent), where windows bind, up to FLEET_AT_STALL_MAX_STOPS stops.
 */
export function fleetAtStallApplies(inst: SolverInstance, on: boolean | undefined): boolean {
  return (on ?? FLEET_AT_STALL_BY_DEFAULT) && inst.nStops <= FLEET_AT_STALL_MAX_STOPS && windowsBind(inst);
}
