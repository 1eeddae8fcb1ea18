/**
 * Restarts at a stall (src/solver/restart-at-stall.ts): searches one after another, each from its
 * own first plan and seed, the best plan winning. By default once, on windowed problems of 50 to
 * 100 stops, decided by the problem alone so that a seed still gives one plan; with `--full-time`
 * (SolveOptions.fullTime) until the limit. The first is the search a solve makes anyway, so the
 * plan is never worse than that search's for the same seed. Every plan passes the independent checker.
 */
import { describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import { buildPlan } from '../../src/output/plan.js';
import { seedOf } from '../../src/solver/best-of.js';
import { compareObjective } from '../../src/solver/cost.js';
import { solveOnce } from '../../src/solver/index.js';
import { searchKitOf } from '../../src/solver/kit.js';
import { restartSeedOf, restartsOf } from '../../src/solver/restart-at-stall.js';
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

  it('restarts until the limit with --full-time under a time limit, once by default on 50 to 100 stops where windows bind, never under an iteration limit or with the stall stop off', () => {
    const instOf = (stops: number, windows = true) =>
      searchKitOf(loadProblemDocument(generateProject(3, { stops, features: { windows, tightWindows: windows } })).problem).inst;
    const [small, mid, large, windowless] = [instOf(15), instOf(60), instOf(150), instOf(60, false)];
    const base: SolveOptions = { timeLimitMs: 2_000, seed: 0 };
    expect(restartsOf(mid, base)).toBe('once');
    expect(restartsOf(mid, { ...base, timeLimitMs: Infinity })).toBe('once');
    expect(restartsOf(mid, { ...base, restartAtStall: false })).toBe('none');
    for (const inst of [small, large, windowless]) expect(restartsOf(inst, base)).toBe('none');
    for (const inst of [small, mid, large, windowless]) {
      expect(restartsOf(inst, { ...base, fullTime: true })).toBe('until_the_limit');
      expect(restartsOf(inst, { ...base, fullTime: true, timeLimitMs: 0 })).toBe(restartsOf(inst, base));
      expect(restartsOf(inst, { ...base, fullTime: true, maxIterations: 100 })).toBe('none');
      expect(restartsOf(inst, { ...base, maxIterations: 100 })).toBe('none');
      expect(restartsOf(inst, { ...base, fullTime: true, stopWhenStalled: false })).toBe('none');
    }
  });

  it('by default a windowed problem of 50 to 100 stops that stops by itself searches once more: one plan for a seed, never worse than the first search', async () => {
    const { problem } = loadProblemDocument(generateProject(11, { stops: 60, features: { windows: true, tightWindows: true } }));
    const options: SolveOptions = { timeLimitMs: 60_000, seed: 4 };
    const [once, again] = [await solveOnce(problem, options), await solveOnce(problem, options)];
    const alone = await solveOnce(problem, { ...options, restartAtStall: false });
    expect(once.result.stats.stoppedBy).toBe('no_improvement');
    expect(alone.result.stats.stoppedBy).toBe('no_improvement');
    expect(checkPlan(problem, buildPlan(problem, once.result))).toEqual([]);
    expect(JSON.stringify(again.result.routes)).toBe(JSON.stringify(once.result.routes));
    expect(again.result.stats.iterations).toBe(once.result.stats.iterations);
    // Two searches' iterations; the first of them is the search alone, so the plan is never worse.
    expect(once.result.stats.iterations).toBeGreaterThan(alone.result.stats.iterations);
    expect(compareObjective(once.objective, alone.objective, problem.objective.minimizeRoutes)).toBeLessThanOrEqual(0);
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
