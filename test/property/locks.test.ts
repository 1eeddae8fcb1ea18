/**
 * Locks as solver inputs (issue 24): random problems with random locks and sequences, solved on
 * one thread, on two (independent searches) and by decomposition; every plan keeps every lock
 * (the independent checker reads each stop's lock), gives every unserved locked stop a right
 * reason, and leaves no unserved stop that fits as the plan stands.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import type { SolveOptions, SolveResult } from '../../src/solver/types.js';
import { solveInThreads } from '../../src/threads/searches.js';
import { workerUrl } from '../../src/threads/worker-url.js';
import { checkPlan, findInsertableUnserved } from '../support/checker.js';
import { randomProblem, withRandomLocks } from '../support/problem-builder.js';

function checked(problem: Problem, result: SolveResult): string[] {
  const plan = JSON.parse(JSON.stringify(buildPlan(problem, result)));
  return [...checkPlan(problem, plan), ...findInsertableUnserved(problem, plan).map((s) => `insertable: ${s}`)];
}

const locked = (seed: number, stops: number, vehicles: number, allFeatures: boolean): Problem =>
  withRandomLocks(randomProblem(seed, { stops, vehicles, allFeatures }), seed + 1000);

/** Decomposition needs an objective without balancing (a global term). */
const unbalanced = (problem: Problem): Problem => ({ ...problem, objective: { ...problem.objective, balance: 'none' } });

describe('random problems with random locks: every plan keeps them', () => {
  const CASES = [
    { seed: 701, stops: 30, vehicles: 3, allFeatures: false },
    { seed: 702, stops: 60, vehicles: 4, allFeatures: true },
    { seed: 703, stops: 90, vehicles: 6, allFeatures: true },
    { seed: 704, stops: 120, vehicles: 8, allFeatures: false },
    { seed: 705, stops: 150, vehicles: 5, allFeatures: true },
  ];
  for (const c of CASES) {
    it(`seed ${c.seed}: ${c.stops} stops, ${c.vehicles} vehicles, one thread`, async () => {
      const problem = locked(c.seed, c.stops, c.vehicles, c.allFeatures);
      expect(problem.stops.some((stop) => stop.lock?.sequence)).toBe(true);
      const result = await solve(problem, { timeLimitMs: 60_000, seed: c.seed, maxIterations: 150 });
      expect(checked(problem, result)).toEqual([]);
    }, 60_000);
  }

  for (const seed of [711, 712]) {
    it(`seed ${seed}: two threads, independent searches (inline)`, async () => {
      const problem = locked(seed, 80, 5, true);
      const options: SolveOptions = { timeLimitMs: 60_000, seed, maxIterations: 100, threads: 2, split: false };
      const result = await solveInThreads(problem, options, { inline: true });
      expect(checked(problem, result)).toEqual([]);
    }, 60_000);
  }

  for (const seed of [721, 722]) {
    it(`seed ${seed}: two threads by decomposition (inline), the parts keep the locks`, async () => {
      const problem = unbalanced(locked(seed, 160, 8, seed === 722));
      const options: SolveOptions = { timeLimitMs: 120_000, seed, maxIterations: 40, threads: 2, split: true };
      const result = await solveInThreads(problem, options, { inline: true });
      expect(result.stats.threads).toBe(2);
      expect(checked(problem, result)).toEqual([]);
    }, 120_000);
  }

  it.skipIf(workerUrl() === null)(
    'two worker threads by decomposition keep the locks',
    async () => {
      const problem = unbalanced(locked(731, 160, 8, true));
      const result = await solveInThreads(problem, { timeLimitMs: 120_000, seed: 731, maxIterations: 40, threads: 2, split: true });
      expect(checked(problem, result)).toEqual([]);
    },
    120_000,
  );
});
