/**
 * The first plan from FLOOR_FIRST_MIN_STOPS stops on (issue 26: a 5,000-stop one-off at
 * `--time-limit 10` spent the whole limit in the regret construction, 0 search iterations): the
 * regret construction is not started when its bookkeeping alone exceeds its budget of work, and
 * once the run's deadline cuts it the floor is the answer, not the regret plan finished greedily.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { constructFirstPlan, fillUnserved, insertGreedily, regretFitsItsWork } from '../../src/solver/construct.js';
import { solve } from '../../src/solver/index.js';
import { vehicleClassCount } from '../../src/solver/instance.js';
import { FLOOR_FIRST_MIN_STOPS } from '../../src/solver/params.js';
import { regretInsertion } from '../../src/solver/regret.js';
import { Solution } from '../../src/solver/solution.js';
import { checkPlan } from '../support/checker.js';
import { solverParts } from '../support/solver-parts.js';
import { randomProblem } from '../support/problem-builder.js';

/** As many stops as the floor goes first from, and vehicles that differ (shifts, speeds, capacities): many classes. */
const LARGE = randomProblem(431, { stops: FLOOR_FIRST_MIN_STOPS, vehicles: 60 });

/** The greedy floor alone, and the work it took. */
function floorAlone(problem: Problem) {
  const p = solverParts(problem);
  const floor = new Solution(p.inst, p.costs);
  const stops = Array.from({ length: p.inst.nStops }, (_, s) => s).filter((s) => p.inst.stopLoc[s]! >= 0);
  insertGreedily(floor, p.inserter, p.evaluator, stops, p.near);
  fillUnserved(floor, p.inserter, p.evaluator);
  return { objective: p.costs.objective(floor), work: p.work(), costs: p.costs };
}

describe('the first plan of a large problem', () => {
  it('a regret construction whose bookkeeping exceeds its budget of work is not started: the floor alone is made', () => {
    const alone = floorAlone(LARGE);
    const p = solverParts(LARGE);
    expect(vehicleClassCount(p.inst)).toBeGreaterThan(20);
    // More than the floor takes, so that only the bookkeeping's prediction can stop the regret.
    const budget = alone.work + 1;
    expect(regretFitsItsWork(p.inst, budget)).toBe(false);
    const first = constructFirstPlan(p.inst, p.costs, p.inserter, p.evaluator, p.near, { deadline: Infinity, work: budget });
    expect(first.from).toBe('greedy');
    expect(p.work()).toBe(alone.work);
    expect(p.costs.compare(p.costs.objective(first.plan), alone.objective)).toBe(0);
  });

  it('a budget that covers the bookkeeping starts the regret construction, and the better plan is kept', () => {
    const alone = floorAlone(LARGE);
    const p = solverParts(LARGE);
    expect(regretFitsItsWork(p.inst, Infinity)).toBe(true);
    const first = constructFirstPlan(p.inst, p.costs, p.inserter, p.evaluator, p.near, { deadline: Infinity });
    expect(p.work()).toBeGreaterThan(alone.work);
    expect(p.costs.compare(p.costs.objective(first.plan), alone.objective)).toBeLessThanOrEqual(0);
  });

  it('below FLOOR_FIRST_MIN_STOPS the regret construction runs whatever its bookkeeping', () => {
    const small = solverParts(randomProblem(432, { stops: 200, vehicles: 40 }));
    expect(regretFitsItsWork(small.inst, 1)).toBe(false);
    const first = constructFirstPlan(small.inst, small.costs, small.inserter, small.evaluator, small.near, { deadline: Infinity, work: 1 });
    // Below the floor-first size the regret goes first and a work budget cuts it (then finished greedily): it was started.
    expect(first.plan.servedPriority).toBeGreaterThan(0);
    const untouched = solverParts(randomProblem(432, { stops: 200, vehicles: 40 }));
    const whole = constructFirstPlan(untouched.inst, untouched.costs, untouched.inserter, untouched.evaluator, untouched.near, {
      deadline: Infinity,
    });
    expect(whole.from).toBe('regret');
  });

  it('a regret construction cut by the deadline after the floor answers the floor itself, not the regret plan finished greedily', () => {
    const alone = floorAlone(LARGE);
    const p = solverParts(LARGE);
    let reads = 0;
    let floor: Solution | null = null;
    const first = constructFirstPlan(
      p.inst,
      p.costs,
      p.inserter,
      p.evaluator,
      p.near,
      // Three readings (the start, the floor's time, the check after the floor) before the deadline,
      // then past it: the regret construction is cut at its first step, as when it runs long.
      { deadline: 1, clock: () => (++reads > 3 ? 2 : 0) },
      (made) => (floor = made),
    );
    expect(first.from).toBe('greedy');
    expect(first.plan).toBe(floor);
    // The work of the regret construction's table (priced before its first step), measured apart:
    // the floor and the table, and no greedy finish of the cut regret plan on top.
    const table = solverParts(LARGE);
    expect(regretInsertion(new Solution(table.inst, table.costs), table.inserter, table.evaluator, () => true, table.near)).toBe(false);
    expect(p.work()).toBe(alone.work + table.work());
  });

  it('a large solve whose limit passed before it began answers the floor, which passes the checker', async () => {
    const result = await solve(LARGE, { timeLimitMs: 60_000, seed: 5, endsAt: performance.timeOrigin });
    expect([result.stats.iterations, result.stats.stoppedBy]).toEqual([0, 'time']);
    const plan = JSON.parse(JSON.stringify(buildPlan(LARGE, result)));
    expect(checkPlan(LARGE, plan)).toEqual([]);
    expect(plan.summary.priority_served).toBeGreaterThan(0);
  }, 60_000);

  it('a large solve under an iteration limit passes the checker and gives one plan per seed', async () => {
    const once = async () => {
      const result = await solve(LARGE, { timeLimitMs: 600_000, maxIterations: 10, seed: 5 });
      expect(result.stats.iterations).toBe(10);
      return JSON.parse(JSON.stringify(buildPlan(LARGE, result)));
    };
    const a = await once();
    expect(checkPlan(LARGE, a)).toEqual([]);
    const b = await once();
    expect(b.routes).toEqual(a.routes);
  }, 120_000);
});
