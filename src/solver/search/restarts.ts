/**
 * The population lever (SolveOptions.population): the ruin-and-recreate trajectory is the
 * education of HGS. When the trajectory has not bettered its own best plan for a while
 * (populationStallOf, counted in iterations, never time, so a seed reproduces its plan), that
 * plan joins the elite pool (population.ts), two parents drawn by binary tournament give a child
 * by selective route exchange (crossover.ts), the recreate puts back what the child left out, the
 * polish improves it, and the trajectory goes on from the child, at the temperature the cooling
 * has reached. The search's best plan, its stop and its cooling are left as they are: the stall
 * stop still ends the search by itself.
 */
import type { CostEvaluator, ObjectiveValue } from '../cost.js';
import { copyObjective } from '../cost.js';
import type { SolverInstance } from '../instance.js';
import { POPULATION_ADMITS_START, POPULATION_STALL_MIN_ITERATIONS, POPULATION_STALL_PER_STOP } from '../params.js';
import type { Rng } from '../rng.js';
import type { RouteEvaluator } from '../route/evaluator.js';
import type { Solution } from '../solution.js';
import { RouteExchange } from './crossover.js';
import type { Plans } from './plans.js';
import type { Polisher } from './polish.js';
import { ElitePool } from './population.js';
import type { Recreator } from './recreate.js';

/** Iterations without a better trajectory plan after which the trajectory restarts from a child. */
export function populationStallOf(nStops: number): number {
  return Math.max(POPULATION_STALL_MIN_ITERATIONS, Math.round(POPULATION_STALL_PER_STOP * nStops));
}

/** What the restarts share with the search they belong to. */
export interface RestartParts {
  inst: SolverInstance;
  evaluator: RouteEvaluator;
  near: { neighbours: Int32Array; k: number };
  costs: CostEvaluator;
  recreator: Recreator;
  polisher: Polisher;
  rng: Rng;
}

export class PopulationRestarts {
  readonly pool: ElitePool;
  private readonly exchange: RouteExchange;
  /** The trajectory's best plan since it last restarted, and its objective. */
  private readonly trajectoryBest: Solution;
  private trajectoryBestObj: ObjectiveValue;
  /** Where children are made. */
  private readonly child: Solution;
  private sinceTrajectoryImprovement = 0;
  private readonly stall: number;
  /** Children the trajectory restarted from (for tests and the bench's reading). */
  restarts = 0;

  /** `initial` (the search's start plan) is the pool's first member, so that the first stall already has two parents. */
  constructor(
    private readonly parts: RestartParts,
    initial: Solution,
  ) {
    const { inst, evaluator, near, costs } = parts;
    this.pool = new ElitePool(inst, costs);
    this.exchange = new RouteExchange(inst, evaluator, near.neighbours, near.k, parts.rng);
    this.trajectoryBest = initial.clone();
    this.trajectoryBestObj = costs.objective(initial);
    if (POPULATION_ADMITS_START) this.pool.admit(initial, this.trajectoryBestObj);
    this.child = initial.clone();
    this.stall = populationStallOf(inst.nStops);
  }

  /** The restarts when `on`, else null. */
  static when(on: boolean | undefined, parts: RestartParts, initial: Solution): PopulationRestarts | null {
    return on === true ? new PopulationRestarts(parts, initial) : null;
  }

  /**
   * Follows the trajectory after `plans.settle(candidateObj, …)`: an accepted candidate (then the
   * current plan's objective is `candidateObj` itself) better than the trajectory's best becomes
   * it; after a stall the trajectory restarts from a child.
   */
  follow(plans: Plans, candidateObj: ObjectiveValue): void {
    if (plans.currentObj === candidateObj && this.parts.costs.compare(candidateObj, this.trajectoryBestObj) < 0) {
      this.trajectoryBest.copyFrom(plans.current);
      this.trajectoryBestObj = copyObjective(candidateObj);
      this.sinceTrajectoryImprovement = 0;
    } else if (++this.sinceTrajectoryImprovement >= this.stall) {
      this.restart(plans);
    }
  }

  /** Admits the trajectory's best plan, makes a child of two members and moves the trajectory to it. */
  private restart(plans: Plans): void {
    this.sinceTrajectoryImprovement = 0;
    this.pool.admit(this.trajectoryBest, this.trajectoryBestObj);
    if (this.pool.size < 2) return;
    const [a, b] = this.pool.pickParents(this.parts.rng);
    const child = this.child;
    this.parts.recreator.recreate(child, this.exchange.cross(child, a, b));
    const childObj = this.parts.polisher.polish(child, plans.bestObj);
    plans.restartFrom(child, childObj);
    this.trajectoryBest.copyFrom(child);
    this.trajectoryBestObj = copyObjective(childObj);
    this.restarts++;
  }
}
