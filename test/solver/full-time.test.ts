/**
 * `--full-time` (SolveOptions.fullTime, src/solver/full-time.ts): the whole limit is searched by
 * searches one after another, each stopping at its stall, each from its own first plan and seed;
 * the best plan wins. The first is the search a run without the flag makes, so the plan is never
 * worse than that run's for the same seed. Every plan passes the independent checker.
 */
import { describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import { buildPlan } from '../../src/output/plan.js';
import { seedOf } from '../../src/solver/best-of.js';
import { compareObjective } from '../../src/solver/cost.js';
import { restartSeedOf, restartsAtStall } from '../../src/solver/full-time.js';
import { solveOnce } from '../../src/solver/index.js';
import type { SolveOptions, SolveProgress } from '../../src/solver/types.js';
import { checkPlan } from '../support/checker.js';
import { generateProject } from '../support/generate.js';

/** Six times what one search of these 15 stops takes (0.8 s from the sources), so that more follow even on a loaded machine. */
const LIMIT_MS = 5_000;

describe('full time: searches one after another until the limit', () => {
  it('after the default search stops by itself, more run from new first plans; the best wins, never worse than the default plan', async () => {
    const { problem } = loadProblemDocument(generateProject(7, { stops: 15 }));
    const alone = await solveOnce(problem, { timeLimitMs: LIMIT_MS, seed: 5 });
    expect(alone.result.stats.stoppedBy).toBe('no_improvement');

    const reports: SolveProgress[] = [];
    const full = await solveOnce(problem, { timeLimitMs: LIMIT_MS, seed: 5, fullTime: true, onProgress: (p) => reports.push(p) });
    expect(checkPlan(problem, buildPlan(problem, full.result))).toEqual([]);
    expect(compareObjective(full.objective, alone.objective, problem.objective.minimizeRoutes)).toBeLessThanOrEqual(0);
    // More searches' iterations, until the clock (which then decided the plan) ended them.
    expect(full.result.stats.iterations).toBeGreaterThan(alone.result.stats.iterations);
    expect(full.result.stats).toMatchObject({ stoppedBy: 'time', seed: 5, threads: 1 });
    expect(full.result.stats.elapsedMs).toBeGreaterThan(LIMIT_MS / 2);
    expect(full.result.stats.elapsedMs).toBeLessThanOrEqual(LIMIT_MS);
    expect(full.result.stats.bestFoundMs).toBeLessThanOrEqual(full.result.stats.elapsedMs);
    // The progress is the best plan so far across the searches (a new search's first plans do not show), its time the whole run's.
    for (let i = 1; i < reports.length; i++) {
      const [before, now] = [reports[i - 1]!, reports[i]!];
      expect(now.served).toBeGreaterThanOrEqual(before.served);
      if (now.served === before.served) expect(now.cost).toBeLessThanOrEqual(before.cost + 1e-9);
      expect(now.iterations).toBeGreaterThanOrEqual(before.iterations);
      expect(now.elapsedMs).toBeGreaterThanOrEqual(before.elapsedMs);
    }
  });

  it('restarts only under a time limit, with the stall stop on and no iteration limit', () => {
    const base: SolveOptions = { timeLimitMs: 2_000, seed: 0, fullTime: true };
    expect(restartsAtStall(base)).toBe(true);
    expect(restartsAtStall({ ...base, fullTime: undefined })).toBe(false);
    expect(restartsAtStall({ ...base, timeLimitMs: 0 })).toBe(false);
    expect(restartsAtStall({ ...base, timeLimitMs: Infinity })).toBe(false);
    expect(restartsAtStall({ ...base, maxIterations: 100 })).toBe(false);
    expect(restartsAtStall({ ...base, stopWhenStalled: false })).toBe(false);
  });

  it("each restart's seed is new: never another restart's, nor another thread's search", () => {
    for (const seed of [0, 1, 2, 42, -7]) {
      const threads = Array.from({ length: 8 }, (_, t) => seedOf(seed, t));
      const searches = threads.flatMap((s) => Array.from({ length: 16 }, (_, i) => restartSeedOf(s, i)));
      expect(new Set(searches).size).toBe(searches.length);
      // The first search of each thread is that thread's own.
      expect(threads.map((s) => restartSeedOf(s, 0))).toEqual(threads);
    }
  });
});
