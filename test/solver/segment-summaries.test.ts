/**
 * The segment summaries of a route (ls/segments.ts, RouteSegments.ensure) are worked out with their
 * sums in locals where no stop has a sequence: every prefix's and suffix's summary, its load and the
 * route's cost must be, to the last bit, what appending (prefixes) and prepending (suffixes) the
 * stops one by one through the accumulator gives, as the summaries of sequenced stops still are
 * built; otherwise moves would be priced differently and plans would change. On random problems
 * with tight windows, closed and open routes: the routes of greedy insertion, and stops in a random
 * order on the vehicles it left unused (routes that break windows).
 */
import { describe, expect, it } from 'vitest';
import { insertGreedily } from '../../src/solver/construct.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { instanceOf } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { RouteSegments, SegmentAcc, segmentsApply } from '../../src/solver/ls/segments.js';
import { Rng } from '../../src/solver/rng.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { Solution } from '../../src/solver/solution.js';
import { randomProblem } from '../support/problem-builder.js';

/** The fields of an accumulator, loads included. */
function fieldsOf(acc: SegmentAcc): number[] {
  return [acc.d, acc.tw, acc.e, acc.l, acc.dist, acc.first, acc.last, acc.stops, acc.seqLo, acc.seqHi, acc.seqBroken, ...acc.load];
}

describe('segment summaries', () => {
  for (const [seed, openRoutes] of [
    [61, false],
    [62, false],
    [63, true],
  ] as const) {
    it(`worked out in locals are those the accumulator builds stop by stop, to the last bit (seed ${seed}${openRoutes ? ', open routes' : ''})`, () => {
      const base = randomProblem(seed, { stops: 80, vehicles: 16, uniformSpeed: true });
      const problem = openRoutes ? { ...base, vehicles: base.vehicles.map((v) => ({ ...v, endLocation: -1 })) } : base;
      const inst = instanceOf(problem);
      expect(segmentsApply(inst) && !inst.sequenced).toBe(true);
      const evaluator = new RouteEvaluator(inst);
      const sol = new Solution(inst, new CostEvaluator(inst));
      const routable = Array.from({ length: inst.nStops }, (_, s) => s).filter((s) => inst.stopLoc[s]! >= 0);
      insertGreedily(sol, new Inserter(inst, evaluator), evaluator, routable);
      // And as many routes of stops in a random order, which break windows (time warp) and shifts.
      const rng = new Rng(seed);
      const shuffled = Int32Array.from(routable);
      rng.shuffle(shuffled);
      const empty = Array.from({ length: inst.nVehicles }, (_, v) => v).filter((v) => sol.len[v] === 0);
      for (let i = 0; i < empty.length; i++) {
        const stops = shuffled.subarray(
          Math.floor((i * shuffled.length) / empty.length),
          Math.floor(((i + 1) * shuffled.length) / empty.length),
        );
        sol.assignRoute(empty[i]!, stops, stops.length);
      }
      const segments = new RouteSegments(inst);
      // The same summaries built through the accumulator, stop by stop, as where stops have sequences.
      const stopByStop = new RouteSegments(inst);
      Object.assign(stopByStop, { sequenced: true });
      const acc = new SegmentAcc(inst.dims);
      const expected = new SegmentAcc(inst.dims);
      let compared = 0;
      let warped = 0;
      for (let v = 0; v < inst.nVehicles; v++) {
        segments.ensure(sol, v, acc);
        stopByStop.ensure(sol, v, expected);
        expect(Object.is(segments.routeCost[v], stopByStop.routeCost[v]), `route ${v} cost`).toBe(true);
        const n = sol.len[v]!;
        for (let k = 0; k <= n; k++) {
          for (const piece of ['prefix', 'suffix'] as const) {
            segments.clear(acc);
            stopByStop.clear(expected);
            if (piece === 'prefix') {
              segments.appendPrefix(acc, sol, v, k);
              stopByStop.appendPrefix(expected, sol, v, k);
            } else {
              segments.appendSuffix(acc, sol, v, k);
              stopByStop.appendSuffix(expected, sol, v, k);
            }
            const got = fieldsOf(acc);
            const want = fieldsOf(expected);
            expect(
              got.every((x, i) => Object.is(x, want[i])),
              `route ${v} ${piece} ${k}: ${got.join(' ')} vs ${want.join(' ')}`,
            ).toBe(true);
            compared++;
            if (acc.tw > 0) warped++;
          }
          for (let d = 0; d < inst.dims; d++) expect(Object.is(segments.headLoad(v, k, d), stopByStop.headLoad(v, k, d))).toBe(true);
        }
      }
      expect(compared).toBeGreaterThan(100);
      expect(warped).toBeGreaterThan(10);
    });
  }
});
