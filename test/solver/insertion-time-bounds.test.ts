/**
 * Where windows bind, the inserter leaves out a position its time bounds refuse before the segment
 * summaries price it (insertion.ts, bestBySummaries): only positions the summaries price Infinity,
 * so that every insertion, and every plan, stays what pricing each position gave. Checked against
 * every position priced by the summaries, on random problems with tight windows, and some are refused.
 */
import { describe, expect, it } from 'vitest';
import { instanceOf, type SolverInstance } from '../../src/solver/instance.js';
import { RouteSegments, SegmentAcc, segmentsApply } from '../../src/solver/ls/segments.js';
import { RouteTimeBounds } from '../../src/solver/ls/time-bounds.js';
import { windowsBind } from '../../src/solver/ls/windows-bind.js';
import { Solution } from '../../src/solver/solution.js';
import { randomProblem } from '../support/problem-builder.js';
import { partlyRoutedPlan } from './helpers.js';

/** The best position for u in route v and its cost by the summaries, every position priced (null: none fits). */
function everyPosition(inst: SolverInstance, sol: Solution, u: number, v: number): { pos: number; cost: number } | null {
  const segments = new RouteSegments(inst);
  const acc = new SegmentAcc(inst.dims);
  segments.ensure(sol, v, acc);
  let best: { pos: number; cost: number } | null = null;
  for (let p = 0; p <= sol.len[v]!; p++) {
    segments.startRoute(acc, v);
    segments.appendPrefix(acc, sol, v, p);
    segments.appendStop(acc, u);
    segments.appendSuffix(acc, sol, v, p);
    const cost = segments.finishRoute(acc, v);
    if (cost !== Infinity && (best === null || cost < best.cost - 1e-9)) best = { pos: p, cost };
  }
  return best;
}

describe('insertion where windows bind', () => {
  for (const seed of [51, 52, 53, 54]) {
    it(`the time bounds leave out only positions the summaries price as breaking a window (seed ${seed})`, () => {
      const inst = instanceOf(randomProblem(seed, { stops: 60, vehicles: 6, uniformSpeed: true }));
      expect(segmentsApply(inst) && windowsBind(inst)).toBe(true);
      const { sol, inserter, routable } = partlyRoutedPlan(inst, (s) => s % 3 !== 0);
      const times = new RouteTimeBounds(inst);
      let compared = 0;
      let refused = 0;
      for (const u of routable.filter((s) => sol.routeOf[s] === -1)) {
        for (let v = 0; v < inst.nVehicles; v++) {
          times.ensure(sol, v);
          for (let p = 0; p <= sol.len[v]!; p++) if (!times.mayJoin(sol, v, p, u, v, p)) refused++;
          const expected = everyPosition(inst, sol, u, v);
          const found = inserter.estimateInRoute(sol, u, v);
          expect(found, `stop ${u}, vehicle ${v}`).toBe(expected !== null);
          if (!found || expected === null) continue;
          compared++;
          expect(inserter.pos, `stop ${u}, vehicle ${v}`).toBe(expected.pos);
        }
      }
      expect(compared).toBeGreaterThan(10);
      expect(refused).toBeGreaterThan(100);
    });
  }
});
