/** The search's stopping criteria: each answers its own reason, and AnyOf the first that holds. */
import { describe, expect, it } from 'vitest';
import {
  Aborted,
  AnyOf,
  Deadline,
  MaxIterations,
  NoImprovement,
  Plateau,
  StalledEpochs,
  stopCriterionOf,
} from '../../src/solver/stop/index.js';

describe('stop criteria', () => {
  it('each answers its reason once its limit is reached, else null', () => {
    expect(new MaxIterations(5).check(4)).toBeNull();
    expect(new MaxIterations(5).check(5)).toBe('iterations');
    expect(new NoImprovement(3).check(100, 2)).toBeNull();
    expect(new NoImprovement(3).check(100, 3)).toBe('no_improvement');
    expect(new Deadline(1000).check(0, 0, 999)).toBeNull();
    expect(new Deadline(1000).check(0, 0, 1000)).toBe('time');
    expect(new Deadline(Infinity).check(0, 0, 1e12)).toBeNull();
    const controller = new AbortController();
    const aborted = new Aborted(controller.signal);
    expect(aborted.check()).toBeNull();
    controller.abort();
    expect(aborted.check()).toBe('aborted');
  });

  it('stalled epochs: a decomposition stops once that many epochs in a row merged into no better plan', () => {
    const stalled = new StalledEpochs(3);
    expect(stalled.check(5, 2)).toBeNull();
    expect(stalled.check(5, 3)).toBe('no_improvement');
    expect(stalled.check(1e9, 0)).toBeNull();
  });

  it('AnyOf answers the first criterion that holds, in its order', () => {
    const both = new AnyOf([new MaxIterations(10), new Deadline(50)]);
    expect(both.check(3, 0, 10)).toBeNull();
    expect(both.check(3, 0, 60)).toBe('time');
    expect(both.check(10, 0, 60)).toBe('iterations');
    expect(new AnyOf([]).check(1e9, 1e9, 1e12)).toBeNull();
  });

  it('from limits: iterations win over no-improvement, abort and time, as the search always ranked them', () => {
    const controller = new AbortController();
    controller.abort();
    const all = stopCriterionOf({ deadline: 100, maxIterations: 10, maxNoImprove: 5, signal: controller.signal });
    expect(all.check(10, 5, 200)).toBe('iterations');
    expect(all.check(9, 5, 200)).toBe('no_improvement');
    expect(all.check(9, 4, 200)).toBe('aborted');
    expect(stopCriterionOf({ deadline: 100 }).check(1e9, 1e9, 99)).toBeNull();
    expect(stopCriterionOf({ deadline: 100 }).check(0, 0, 100)).toBe('time');
  });

  it('plateau: stops after its iterations without improvement and as long again as the best took to find', () => {
    const plateau = new Plateau(100, 0);
    // The best plan improves at t = 400 (sinceImprovement back to 0), then nothing more.
    expect(plateau.check(10, 0, 400)).toBeNull();
    expect(plateau.check(110, 100, 700)).toBeNull(); // 100 iterations, but only 300 ms of the 400 it took
    expect(plateau.check(150, 140, 800)).toBe('no_improvement');
    // Found at once (by the construction): the iterations alone decide.
    const quick = new Plateau(100, 0);
    expect(quick.check(99, 99, 5)).toBeNull();
    expect(quick.check(100, 100, 6)).toBe('no_improvement');
    // A share of the time: a quarter as long again as the best took.
    const quarter = new Plateau(100, 0, 0.25);
    expect(quarter.check(10, 0, 400)).toBeNull();
    expect(quarter.check(110, 100, 450)).toBeNull();
    expect(quarter.check(120, 110, 500)).toBe('no_improvement');
  });

  it('plateau from limits: only when asked for, after the iteration and no-improvement limits', () => {
    expect(stopCriterionOf({ deadline: Infinity, started: 0 }).check(1e6, 1e6, 1)).toBeNull();
    expect(stopCriterionOf({ deadline: Infinity, started: 0, plateauIterations: 10 }).check(20, 20, 1)).toBe('no_improvement');
    expect(stopCriterionOf({ deadline: Infinity, started: 0, plateauIterations: 10, maxIterations: 20 }).check(20, 20, 1)).toBe(
      'iterations',
    );
  });
});
