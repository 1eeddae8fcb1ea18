import { FIRST_PLAN_WORK } from '../params.js';
import type { StopCriterion, StopReason } from './criterion.js';

/**
 * Stops at a performance.now() value (Infinity: never), but not within the first `untimed`
 * iterations while they stay within FIRST_PLAN_WORK: those belong to the first plan on small
 * problems (construct.ts, untimedIterationsOf).
 */
export class Deadline implements StopCriterion {
  constructor(
    private readonly deadline: number,
    private readonly untimed = 0,
  ) {}

  check(iterations: number, _sinceImprovement: number, now: number, work: number): StopReason | null {
    return now >= this.deadline && !belongsToFirstPlan(iterations, work, this.untimed) ? 'time' : null;
  }
}

/**
 * Whether the search's next iteration, after `iterations` done and `work` spent, is one of the
 * first plan's (`untimed` of them at most): counted in iterations and work, never in time, so
 * that the first plan is the same on a busy machine.
 */
export function belongsToFirstPlan(iterations: number, work: number, untimed: number): boolean {
  return iterations < untimed && work < FIRST_PLAN_WORK;
}
