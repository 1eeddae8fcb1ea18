/**
 * Acceptance of a recreated plan: lexicographic on objective levels 1–3 (never worse), simulated
 * annealing on the level-4 cost, with a temperature that cools geometrically from T_START to
 * T_END arcs over the search.
 */
import type { CostEvaluator, ObjectiveValue } from '../cost.js';
import { T_END, T_START, UNLIMITED_SCHEDULE_ITERATIONS } from '../params.js';
import type { Rng } from '../rng.js';

export interface ScheduleLimits {
  started: number;
  deadline: number;
  maxIterations?: number | undefined;
  /**
   * With the stall stop, the temperature cools over this many iterations (or the time limit, if
   * that comes first): the search is done cooling about when it stalls, whatever the limit.
   */
  coolIterations?: number | undefined;
  /**
   * The part of a longer cooling this search covers (a decomposition epoch): its own progress
   * 0..1 maps onto `from..to` of the whole schedule. Absent: the whole schedule, 0..1.
   */
  coolWindow?: { from: number; to: number } | undefined;
}

export class Acceptance {
  private readonly timeBudget: number;
  private temperature = 0;

  /** `arcCost`: the average cost of one arc of the first plan, the unit of the temperatures. */
  constructor(
    private readonly arcCost: number,
    private readonly limits: ScheduleLimits,
    private readonly costs: CostEvaluator,
    private readonly rng: Rng,
  ) {
    this.timeBudget = limits.deadline - limits.started;
  }

  /** Sets the temperature for the iteration after `iterations`, checked at time `now`. */
  cool(iterations: number, now: number): void {
    const { limits, timeBudget } = this;
    // With an iteration limit the schedule depends on iterations only, so a seed reproduces.
    const byTime = Number.isFinite(timeBudget) ? Math.min(1, (now - limits.started) / timeBudget) : 0;
    const progress =
      limits.maxIterations !== undefined
        ? iterations / limits.maxIterations
        : limits.coolIterations !== undefined
          ? Math.max(Math.min(1, iterations / limits.coolIterations), byTime)
          : Number.isFinite(timeBudget)
            ? byTime
            : Math.min(1, iterations / UNLIMITED_SCHEDULE_ITERATIONS);
    const window = limits.coolWindow;
    const overall = window ? window.from + (window.to - window.from) * progress : progress;
    this.temperature = this.arcCost * T_START * Math.pow(T_END / T_START, overall);
  }

  /** Whether the search moves on from `current` to `candidate`; draws a random number only when levels 1–3 are equal. */
  accepts(candidate: ObjectiveValue, current: ObjectiveValue): boolean {
    const upper = this.costs.compareUpperLevels(candidate, current);
    return upper < 0 || (upper === 0 && candidate.cost < current.cost - this.temperature * Math.log(1 - this.rng.next()));
  }
}
