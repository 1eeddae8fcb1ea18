/**
 * Re-optimizing a day under way as solver inputs (issue 24): random problems with random locks,
 * random preferred vehicles (the dispatched drivers) and vehicles going on from a stop's place at a
 * later time. Every plan passes the independent checker, keeps every lock, leaves no unserved stop
 * that fits, and moves no stop away from its preferred vehicle that could go back to it as the
 * plan stands.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import type { SolveOptions, SolveResult } from '../../src/solver/types.js';
import { solveInThreads } from '../../src/threads/searches.js';
import { checkPlan, findInsertableUnserved, findReturnableMoved } from '../support/checker.js';
import { randomProblem, withRandomDayUnderWay, withRandomLocks } from '../support/problem-builder.js';

function checked(problem: Problem, result: SolveResult): string[] {
  const plan = JSON.parse(JSON.stringify(buildPlan(problem, result)));
  return [
    ...checkPlan(problem, plan),
    ...findInsertableUnserved(problem, plan).map((s) => `insertable: ${s}`),
    ...findReturnableMoved(problem, plan).map((s) => `returnable: ${s}`),
  ];
}

const underWay = (seed: number, stops: number, vehicles: number, allFeatures: boolean): Problem =>
  withRandomDayUnderWay(withRandomLocks(randomProblem(seed, { stops, vehicles, allFeatures }), seed + 1000, 0.15), seed + 2000);

describe('random days under way: preferences, pins and later starts from elsewhere', () => {
  // Loose cases (many vehicles) are where a moved stop could often go back: there the stability
  // check bites (without the stability level, each of them has 5 to 15 such stops).
  const CASES = [
    { seed: 801, stops: 30, vehicles: 8, allFeatures: false },
    { seed: 802, stops: 40, vehicles: 10, allFeatures: false },
    { seed: 803, stops: 60, vehicles: 12, allFeatures: false },
    { seed: 804, stops: 20, vehicles: 6, allFeatures: false },
    { seed: 805, stops: 60, vehicles: 4, allFeatures: true },
    { seed: 806, stops: 100, vehicles: 6, allFeatures: true },
    { seed: 807, stops: 120, vehicles: 8, allFeatures: false },
  ];
  for (const c of CASES) {
    it(`seed ${c.seed}: ${c.stops} stops, ${c.vehicles} vehicles${c.allFeatures ? ', every feature' : ''}`, async () => {
      const problem = underWay(c.seed, c.stops, c.vehicles, c.allFeatures);
      expect(problem.stops.some((stop) => stop.prefer !== undefined)).toBe(true);
      const base = randomProblem(c.seed, c);
      expect(problem.vehicles.some((vehicle, v) => vehicle.startLocation !== base.vehicles[v]!.startLocation)).toBe(true);
      const result = await solve(problem, { timeLimitMs: 60_000, seed: c.seed, maxIterations: 150 });
      expect(checked(problem, result)).toEqual([]);
    }, 60_000);
  }

  it('seed 811: two threads by decomposition (inline), the parts keep preferences and pins', async () => {
    const problem = {
      ...underWay(811, 160, 10, false),
      objective: { minimizeRoutes: false, cost: 'time' as const, balance: 'none' as const },
    };
    const options: SolveOptions = { timeLimitMs: 120_000, seed: 811, maxIterations: 40, threads: 2, split: true };
    const result = await solveInThreads(problem, options, { inline: true });
    expect(result.stats.threads).toBe(2);
    expect(checked(problem, result)).toEqual([]);
  }, 120_000);
});
