/**
 * Acceptance of a recreated plan: lexicographic on objective levels 1–3 (never worse), simulated
 * annealing on the level-4 cost, with a temperature that cools geometrically from T_START to
 * T_END arcs over the search. A search that may stop by itself cools over iterations and work
 * (work.ts), never over time: the clock would make its plan depend on the machine's load.
 */
import type { CostEvaluator, ObjectiveValue } from '../cost.js';
import { COOL_MIN_WORK, COOL_WORK_PER_STOP, T_END, T_START, UNLIMITED_SCHEDULE_ITERATIONS, WORK_UNITS_PER_MS } from '../params.js';
import type { Rng } from '../rng.js';

export interface ScheduleLimits {
  started: number;
  deadline: number;
  /**
   * The time, in milliseconds, that budgets of work are derived from (workSpanOf): the limit less
   * the reserve, whatever share of the limit was gone before the search began (a command's limit
   * counts from its start: the loading's share varies from run to run, and a seed must give one
   * plan). Absent: deadline − started.
   */
  workSpanMs?: number | undefined;
  maxIterations?: number | undefined;
  /**
   * With the stall stop, the temperature cools over this much work (work.ts), or the work this
   * machine does in the time limit (WORK_UNITS_PER_MS) if that is less: the search is done
   * cooling about when it stalls or its limit comes, whatever the limit, and however busy the
   * machine. On a busy machine a search cut by its deadline ends hotter (a plan stopped by the
   * deadline may differ from run to run; one stopped by the search itself does not).
   */
  coolWork?: number | undefined;
  /**
   * The part of a longer cooling this search covers (a decomposition epoch): its own progress
   * 0..1 maps onto `from..to` of the whole schedule. Absent: the whole schedule, 0..1.
   */
  coolWindow?: { from: number; to: number } | undefined;
}

/** The time budgets of work are derived from (ScheduleLimits.workSpanMs). */
export function workSpanOf(limits: Pick<ScheduleLimits, 'started' | 'deadline' | 'workSpanMs'>): number {
  return limits.workSpanMs ?? limits.deadline - limits.started;
}

/** The work over which a search that may stop by itself cools on `nStops` stops (ScheduleLimits.coolWork). */
export function coolWorkOf(nStops: number): number {
  return Math.max(COOL_MIN_WORK, COOL_WORK_PER_STOP * nStops);
}

export class Acceptance {
  private readonly timeBudget: number;
  /** The work over which a search that may stop by itself cools (see `coolWork`). */
  private readonly workBudget: number;
  private temperature = 0;

  /** `arcCost`: the average cost of one arc of the first plan, the unit of the temperatures. */
  constructor(
    private readonly arcCost: number,
    private readonly limits: ScheduleLimits,
    private readonly costs: CostEvaluator,
    private readonly rng: Rng,
  ) {
    this.timeBudget = limits.deadline - limits.started;
    this.workBudget = Math.min(limits.coolWork ?? Infinity, WORK_UNITS_PER_MS * workSpanOf(limits));
  }

  /** Sets the temperature for the iteration after `iterations`, with `work` done, checked at time `now`. */
  cool(iterations: number, work: number, now: number): void {
    const { limits, timeBudget } = this;
    // With an iteration limit or the stall stop the schedule never reads the clock, so a seed reproduces.
    const progress =
      limits.maxIterations !== undefined
        ? iterations / limits.maxIterations
        : limits.coolWork !== undefined
          ? Math.min(1, work / this.workBudget)
          : Number.isFinite(timeBudget)
            ? Math.min(1, (now - limits.started) / timeBudget)
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
