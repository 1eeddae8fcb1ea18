/** The search's stopping criteria: each answers its own reason, and AnyOf the first that holds. */
import { describe, expect, it } from 'vitest';
import {
  Aborted,
  AnyOf,
  belongsToFirstPlan,
  Deadline,
  MaxIterations,
  NoImprovement,
  Plateau,
  StalledEpochs,
  stopCriterionOf,
} from '../../src/solver/stop/index.js';
import { FIRST_PLAN_WORK } from '../../src/solver/params.js';

describe('stop criteria', () => {
  it('each answers its reason once its limit is reached, else null', () => {
    expect(new MaxIterations(5).check(4)).toBeNull();
    expect(new MaxIterations(5).check(5)).toBe('iterations');
    expect(new NoImprovement(3).check(100, 2)).toBeNull();
    expect(new NoImprovement(3).check(100, 3)).toBe('no_improvement');
    expect(new Deadline(1000).check(0, 0, 999, 0)).toBeNull();
    expect(new Deadline(1000).check(0, 0, 1000, 0)).toBe('time');
    expect(new Deadline(Infinity).check(0, 0, 1e12, 0)).toBeNull();
  });

  it('the first plan’s untimed iterations end at FIRST_PLAN_WORK: the deadline cuts the rest, whatever their count', () => {
    expect(new Deadline(1000, 30).check(3, 0, 5000, FIRST_PLAN_WORK - 1)).toBeNull();
    expect(new Deadline(1000, 30).check(3, 0, 5000, FIRST_PLAN_WORK)).toBe('time');
    expect(belongsToFirstPlan(3, FIRST_PLAN_WORK - 1, 30)).toBe(true);
    expect(belongsToFirstPlan(3, FIRST_PLAN_WORK, 30)).toBe(false);
    expect(belongsToFirstPlan(30, 0, 30)).toBe(false);
  });

  it('a deadline cuts none of the untimed iterations of the first plan', () => {
    expect(new Deadline(1000, 30).check(29, 0, 5000, 0)).toBeNull();
    expect(new Deadline(1000, 30).check(30, 0, 5000, 0)).toBe('time');
    expect(new Deadline(1000, 30).check(31, 0, 999, 0)).toBeNull();
    expect(stopCriterionOf({ deadline: 100, untimedIterations: 5 }).check(4, 4, 1e9, 0)).toBeNull();
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

  it('a stall counts its work from the last restart of the count, even one the stop never saw at 0 (a reheat)', () => {
    const plateau = new Plateau(50, 1000, 0);
    expect(plateau.check(0, 0, 0, 0)).toBeNull();
    expect(plateau.check(100, 100, 0, 5000)).toBe('no_improvement');
    // Restarted (a reheat) and one iteration on before the next check: the 5,000 units of the
    // stretch before are not this stall's.
    expect(plateau.check(101, 1, 0, 5010)).toBeNull();
    expect(plateau.check(151, 51, 0, 5500)).toBeNull();
    expect(plateau.check(160, 60, 0, 6010)).toBe('no_improvement');
  });

  it('AnyOf answers the first criterion that holds, in its order', () => {
    const both = new AnyOf([new MaxIterations(10), new Deadline(50)]);
    expect(both.check(3, 0, 10, 0)).toBeNull();
    expect(both.check(3, 0, 60, 0)).toBe('time');
    expect(both.check(10, 0, 60, 0)).toBe('iterations');
    expect(new AnyOf([]).check(1e9, 1e9, 1e12, 1e12)).toBeNull();
  });

  it('from limits: iterations win over no-improvement, abort and time, as the search always ranked them', () => {
    const controller = new AbortController();
    controller.abort();
    const all = stopCriterionOf({ deadline: 100, maxIterations: 10, maxNoImprove: 5, signal: controller.signal });
    expect(all.check(10, 5, 200, 0)).toBe('iterations');
    expect(all.check(9, 5, 200, 0)).toBe('no_improvement');
    expect(all.check(9, 4, 200, 0)).toBe('aborted');
    expect(stopCriterionOf({ deadline: 100 }).check(1e9, 1e9, 99, 1e12)).toBeNull();
    expect(stopCriterionOf({ deadline: 100 }).check(0, 0, 100, 0)).toBe('time');
  });

  it('plateau: stops after its iterations and its work without improvement, and a share of the work the best took to find', () => {
    const plateau = new Plateau(100, 1000, 1);
    // The best plan improves after 4,000 units of work (sinceImprovement back to 0), then nothing more.
    expect(plateau.check(10, 0, 0, 4000)).toBeNull();
    expect(plateau.check(110, 100, 0, 7000)).toBeNull(); // 100 iterations, but only 3,000 of the 4,000 units it took
    expect(plateau.check(150, 140, 0, 8000)).toBe('no_improvement');
    // Found at once (by the construction): the iterations and the least work decide.
    const quick = new Plateau(100, 1000, 1);
    expect(quick.check(99, 99, 0, 5000)).toBeNull();
    expect(quick.check(100, 100, 0, 999)).toBeNull();
    expect(quick.check(100, 100, 0, 1000)).toBe('no_improvement');
    // A share of the work: a quarter as much again as the best took.
    const quarter = new Plateau(100, 0, 0.25);
    expect(quarter.check(10, 0, 0, 4000)).toBeNull();
    expect(quarter.check(110, 100, 0, 4500)).toBeNull();
    expect(quarter.check(120, 110, 0, 5000)).toBe('no_improvement');
  });

  it('plateau: a stall stops nothing while the search may not stop by itself (its cooling led by the clock)', () => {
    let mayStop = false;
    const plateau = new Plateau(10, 500, 0, () => mayStop);
    expect(plateau.check(5, 0, 0, 1000)).toBeNull();
    expect(plateau.check(50, 45, 0, 5000)).toBeNull();
    mayStop = true;
    expect(plateau.check(51, 46, 0, 5100)).toBe('no_improvement');
  });

  it('plateau never reads the clock: the same iterations and work give the same answer at any time', () => {
    for (const now of [0, 1, 1e6, 1e12]) {
      const plateau = new Plateau(10, 500, 0.25);
      expect(plateau.check(5, 0, now, 1000)).toBeNull();
      expect(plateau.check(14, 9, now * 2, 2000)).toBeNull();
      expect(plateau.check(15, 10, now * 3, 1499)).toBeNull();
      expect(plateau.check(15, 10, now * 4, 1500)).toBe('no_improvement');
    }
  });

  it('plateau from limits: only when asked for, after the iteration and no-improvement limits', () => {
    expect(stopCriterionOf({ deadline: Infinity }).check(1e6, 1e6, 1, 1e12)).toBeNull();
    expect(stopCriterionOf({ deadline: Infinity, plateauIterations: 10, plateauWork: 100 }).check(20, 20, 1, 100)).toBe('no_improvement');
    expect(stopCriterionOf({ deadline: Infinity, plateauIterations: 10, plateauWork: 100 }).check(20, 20, 1, 99)).toBeNull();
    expect(stopCriterionOf({ deadline: Infinity, plateauIterations: 10, maxIterations: 20 }).check(20, 20, 1, 0)).toBe('iterations');
  });
});
