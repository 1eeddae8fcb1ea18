/**
 * Objective level 1 against a brute-force optimum: on tiny generated problems (up to 7 stops,
 * 1–2 vehicles, tight windows and breaks) every feasible stop set of every vehicle is
 * enumerated with the checker's own route simulation, and the best total priority served is
 * compared with the solver's plan. A heuristic may cut corners on cost, never on this.
 */
import { describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import { checkPlan, simulateEarliest } from '../support/checker.js';
import { generateOneOff, generateProject } from '../support/generate.js';

/** For one vehicle: which stop subsets (bitmasks) it can serve in some order. */
function feasibleMasks(problem: Problem, vehicle: number): boolean[] {
  const n = problem.stops.length;
  const feasible = new Array<boolean>(1 << n).fill(false);
  feasible[0] = true;
  const sequence: number[] = [];
  const extend = (mask: number): void => {
    for (let s = 0; s < n; s++) {
      if (mask & (1 << s)) continue;
      sequence.push(s);
      const result = simulateEarliest(problem, vehicle, sequence);
      // A stop that cannot be served where it stands stays unservable when more follow it;
      // an over-late end, however, may not be final, so only stop-level failures prune.
      if (result.feasible) feasible[mask | (1 << s)] = true;
      if (result.feasible || Number.isFinite(result.end)) extend(mask | (1 << s));
      sequence.pop();
    }
  };
  extend(0);
  return feasible;
}

/** Maximum total priority over disjoint per-vehicle feasible subsets. */
function bestPriority(problem: Problem): number {
  const n = problem.stops.length;
  const full = 1 << n;
  const priorityOf = (mask: number): number => problem.stops.reduce((sum, stop, s) => sum + (mask & (1 << s) ? stop.priority : 0), 0);
  // best[mask] = best priority using only stops in `mask`, over the vehicles processed so far.
  let best = new Array<number>(full).fill(0);
  for (let v = 0; v < problem.vehicles.length; v++) {
    const feasible = feasibleMasks(problem, v);
    const next = best.slice();
    for (let mask = 0; mask < full; mask++) {
      // Enumerate sub-masks served by vehicle v.
      for (let sub = mask; sub > 0; sub = (sub - 1) & mask) {
        if (!feasible[sub]) continue;
        const value = best[mask & ~sub]! + priorityOf(sub);
        if (value > next[mask]!) next[mask] = value;
      }
    }
    best = next;
  }
  return best[full - 1]!;
}

const TINY = { stops: 6, features: { tightWindows: true, breakShare: 1 } } as const;

/** How many tiny problems could not serve everything even optimally (so the oracle bites). */
let constrainedCount = 0;

describe('objective level 1: total priority served equals the brute-force optimum on tiny problems', () => {
  const seeds = Array.from({ length: 12 + Number(process.env.PROPERTY_SEEDS ?? 0) }, (_, i) => 3000 + i);
  it.each(seeds)('seed %i (project and one-off, 1–2 vehicles)', async (seed) => {
    const drivers = 1 + (seed % 2);
    for (const document of [
      generateProject(seed, { ...TINY, drivers, stops: 6 + (seed % 2) }),
      generateOneOff(seed, { ...TINY, drivers }),
    ]) {
      const { problem } = loadProblemDocument(document);
      const result = await solve(problem, { timeLimitMs: 10_000, seed, maxIterations: 1000 });
      const plan = buildPlan(problem, result);
      // The idle-start rule is exercised (and its known bug pinned) elsewhere; here only feasibility matters.
      expect(checkPlan(problem, plan, { checkIdleStart: false }), `seed ${seed} ${problem.surface}`).toEqual([]);
      const optimum = bestPriority(problem);
      if (optimum < problem.stops.reduce((sum, stop) => sum + stop.priority, 0)) constrainedCount++;
      expect(plan.summary.priority_served, `seed ${seed} ${problem.surface}: optimum ${optimum}`).toBe(optimum);
    }
  });

  it('the tiny problems are constrained: in several of them not every stop fits', () => {
    expect(constrainedCount).toBeGreaterThanOrEqual(5);
  });

  it('the brute force itself: a 10 loses to three 5s when only one of the sets fits', () => {
    // Sanity of the oracle on a hand-made case: one driver, 09:00–10:00, four stops next to
    // the depot; the priority-10 stop needs the whole hour, the three priority-5 stops 20 min each.
    const document = {
      name: 'oracle',
      date: '2025-05-01',
      drivers: [
        {
          name: 'Solo',
          start_location: { coords: { lat: 52.5, lng: 13.4 } },
          shift_start: '09:00',
          shift_end: '10:00',
        },
      ],
      stops: [
        { name: 'Big', location: { coords: { lat: 52.5, lng: 13.4 } }, duration: 50, priority: 10 },
        { name: 'S1', location: { coords: { lat: 52.5, lng: 13.4 } }, duration: 20, priority: 5 },
        { name: 'S2', location: { coords: { lat: 52.5, lng: 13.4 } }, duration: 20, priority: 5 },
        { name: 'S3', location: { coords: { lat: 52.5, lng: 13.4 } }, duration: 20, priority: 5 },
      ],
    };
    expect(bestPriority(loadProblemDocument(document).problem)).toBe(15);
  });
});
