/**
 * Acceptance of a recreated plan: lexicographic on objective levels 1–3 (never worse), simulated
 * annealing on the level-4 cost, with a temperature that cools geometrically from T_START to
 * T_END arcs over the search. A search that may stop by itself cools over work (work.ts), so that
 * its plan does not depend on the machine's load; only where the clock is further along than the
 * work does the clock lead, so that a limit too short for the work still ends cooled. Such a search
 * is then `clockLed`: it may no longer stop by itself (its plan depends on the clock; decisions.md,
 * `--seed`) and runs to its deadline.
 */
import type { CostEvaluator, ObjectiveValue } from '../cost.js';
import {
  CLOCK_LEADS_FROM,
  COOL_MIN_WORK,
  COOL_SCALE_STOPS,
  COOL_WORK_PER_STOP,
  T_END,
  T_START,
  UNLIMITED_SCHEDULE_ITERATIONS,
} from '../params.js';
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
   * With the stall stop, the temperature cools over this much work (work.ts), or by the clock
   * from the cooling's start to the deadline where the clock is further along (see `clockLed`).
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
  const perStop = COOL_WORK_PER_STOP * Math.pow(Math.max(1, nStops / COOL_SCALE_STOPS), 0.25);
  return Math.max(COOL_MIN_WORK, perStop * nStops);
}

/** How far the clock is from `from` to `deadline`, 0..1 (1 once the deadline is there). */
function clockProgress(now: number, from: number, deadline: number): number {
  return deadline > from ? Math.min(1, (now - from) / (deadline - from)) : 1;
}

export class Acceptance {
  private readonly timeBudget: number;
  private temperature = 0;
  private led = false;

  /** `arcCost`: the average cost of one arc of the first plan, the unit of the temperatures. */
  constructor(
    private readonly arcCost: number,
    private readonly limits: ScheduleLimits,
    private readonly costs: CostEvaluator,
    private readonly rng: Rng,
  ) {
    this.timeBudget = limits.deadline - limits.started;
  }

  /** Whether the clock has set a temperature (with `coolWork`): the search may then not stop by itself. */
  get clockLed(): boolean {
    return this.led;
  }

  /**
   * Sets the temperature for the iteration after `iterations`, with `work` done, both counted from
   * the cooling's start at time `from` (the search's, or a reheat's), checked at time `now`.
   */
  cool(iterations: number, work: number, now: number, from: number): void {
    const window = this.limits.coolWindow;
    const progress = this.progressOf(iterations, work, now, from);
    const overall = window ? window.from + (window.to - window.from) * progress : progress;
    this.temperature = this.arcCost * T_START * Math.pow(T_END / T_START, overall);
  }

  private progressOf(iterations: number, work: number, now: number, from: number): number {
    const { limits, timeBudget } = this;
    // With an iteration limit the schedule never reads the clock, so a seed reproduces.
    if (limits.maxIterations !== undefined) return iterations / limits.maxIterations;
    if (limits.coolWork !== undefined) return this.workOrClock(work / limits.coolWork, clockProgress(now, from, limits.deadline));
    if (Number.isFinite(timeBudget)) return Math.min(1, (now - limits.started) / timeBudget);
    return Math.min(1, iterations / UNLIMITED_SCHEDULE_ITERATIONS);
  }

  /**
   * The work's progress, or the clock's where it is further along (and from then on the search is
   * clockLed). The clock's schedule starts CLOCK_LEADS_FROM of the way to the deadline, so that a
   * cold process's slow first iterations do not hand it the lead (in its first 50 ms a 200-stop
   * search did 0.01 % of its work and was 0.09 % of the way to a 60 s limit).
   */
  private workOrClock(byWork: number, byClock: number): number {
    const clockSchedule = (byClock - CLOCK_LEADS_FROM) / (1 - CLOCK_LEADS_FROM);
    if (clockSchedule <= byWork) return Math.min(1, byWork);
    this.led = true;
    return clockSchedule;
  }

  /** Whether the search moves on from `current` to `candidate`; draws a random number only when levels 1–3 are equal. */
  accepts(candidate: ObjectiveValue, current: ObjectiveValue): boolean {
    const upper = this.costs.compareUpperLevels(candidate, current);
    return upper < 0 || (upper === 0 && candidate.cost < current.cost - this.temperature * Math.log(1 - this.rng.next()));
  }
}
