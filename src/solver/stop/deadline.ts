import type { StopCriterion, StopReason } from './criterion.js';

/**
 * Stops at a performance.now() value (Infinity: never), but not before `notBefore` iterations:
 * those belong to the first plan on small problems (construct.ts, untimedIterationsOf).
 */
export class Deadline implements StopCriterion {
  constructor(
    private readonly deadline: number,
    private readonly notBefore = 0,
  ) {}

  check(iterations: number, _sinceImprovement: number, now: number): StopReason | null {
    return iterations >= this.notBefore && now >= this.deadline ? 'time' : null;
  }
}
