/** Several searches (threads): seeds, picking the best, reproducibility under an iteration limit. */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/output/plan.js';
import { bestResult, pickBest, seedOf } from '../../src/solver/best-of.js';
import type { Problem } from '../../src/model/problem.js';
import type { SolveOptions, SolveResult } from '../../src/solver/types.js';
import { solveInThreads } from '../../src/threads/searches.js';
import { workerUrl } from '../../src/threads/worker-url.js';
import { checkPlan } from '../support/checker.js';
import { randomProblem } from '../support/problem-builder.js';

/** The searches one after the other on this thread: the sources under test, not a build. */
const solve = (problem: Problem, options: SolveOptions) => solveInThreads(problem, options, { inline: true });

const sequences = (r: SolveResult) =>
  r.routes.map((route) => [route.vehicle, ...route.visits.map((x) => (x.kind === 'stop' ? x.stop : -1))]);
const objective = (priority: number, cost: number) => ({ priority, violations: 0, routes: 1, moved: 0, cost });
const dummy = (tag: number): SolveResult => ({
  routes: [],
  unserved: [],
  stats: { elapsedMs: tag, iterations: 0, firstPlanMs: 0, bestFoundMs: 0, seed: 0, threads: 1, stoppedBy: 'complete' },
});

describe('threads', () => {
  it('search 0 keeps the given seed; the others get distinct derived seeds', () => {
    expect(seedOf(7, 0)).toBe(7);
    const seeds = new Set([0, 1, 2, 3, 4, 5, 6, 7].map((i) => seedOf(7, i)));
    expect(seeds.size).toBe(8);
    expect(seedOf(7, 1)).not.toBe(seedOf(8, 1));
  });

  it('the best plan wins by the lexicographic objective, ties go to the lowest search', () => {
    const a = { result: dummy(0), objective: objective(10, 50) };
    const b = { result: dummy(1), objective: objective(10, 40) };
    const c = { result: dummy(2), objective: objective(11, 90) };
    expect(pickBest([a, b], false)).toBe(b);
    expect(pickBest([a, b, c], false)).toBe(c);
    const tie = { result: dummy(3), objective: objective(10, 50) };
    expect(pickBest([a, tie], false)).toBe(a);
  });

  it('the run stopped by itself only when every search did: a search cut by the limit says so', () => {
    const stopped = (tag: number, stoppedBy: SolveResult['stats']['stoppedBy'], cost: number) => {
      const result = dummy(tag);
      return { result: { ...result, stats: { ...result.stats, stoppedBy } }, objective: objective(10, cost) };
    };
    const reasonOf = (...outcomes: ReturnType<typeof stopped>[]) => bestResult(outcomes, false, 0).stats.stoppedBy;
    expect(reasonOf(stopped(0, 'no_improvement', 40), stopped(1, 'no_improvement', 50))).toBe('no_improvement');
    // The loser was cut by the limit: had it run on, it might have won.
    expect(reasonOf(stopped(0, 'no_improvement', 40), stopped(1, 'time', 50))).toBe('time');
    expect(reasonOf(stopped(0, 'aborted', 50), stopped(1, 'no_improvement', 40))).toBe('aborted');
    expect(reasonOf(stopped(0, 'iterations', 40), stopped(1, 'iterations', 50))).toBe('iterations');
  });

  it('the same seed, thread count and iteration limit give the same plan', async () => {
    const problem = randomProblem(71, { stops: 70, vehicles: 5, uniformSpeed: true });
    const options = { timeLimitMs: 60_000, seed: 3, threads: 2, maxIterations: 80 };
    const a = await solve(problem, options);
    const b = await solve(problem, options);
    expect(sequences(a)).toEqual(sequences(b));
    expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, a))))).toEqual([]);
  });

  it('two searches are never worse than the first alone (same seed, iteration limit)', async () => {
    for (const seed of [72, 73]) {
      const problem = randomProblem(seed, { stops: 60, vehicles: 4, uniformSpeed: true });
      const one = await solve(problem, { timeLimitMs: 60_000, seed: 1, threads: 1, maxIterations: 60 });
      const two = await solve(problem, { timeLimitMs: 60_000, seed: 1, threads: 2, maxIterations: 60 });
      const cost = (r: SolveResult) =>
        r.routes.reduce((sum, route) => sum + (problem.objective.cost === 'distance' ? route.distance : route.working), 0);
      // Not worse by the objective: at least as many stops served, and as many for no more cost
      // (serving one more may cost more: seed 72 with 15 neighbours under windows).
      expect(two.unserved.length).toBeLessThanOrEqual(one.unserved.length);
      expect(two.unserved.length < one.unserved.length || cost(two) <= cost(one) + 1e-6).toBe(true);
      expect(two.stats.iterations).toBe(120);
    }
  });

  it.skipIf(workerUrl() === null)('on worker threads the searches find the plan they find one after the other', async () => {
    const problem = randomProblem(74, { stops: 50, vehicles: 4, uniformSpeed: true });
    const options = { timeLimitMs: 60_000, seed: 5, threads: 2, maxIterations: 50 };
    const inline = await solve(problem, options);
    const threaded = await solveInThreads(problem, options);
    expect(sequences(threaded)).toEqual(sequences(inline));
    expect(threaded.stats.iterations).toBe(inline.stats.iterations);
  });
});
