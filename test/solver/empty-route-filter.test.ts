/**
 * The distance filter of the move of a stop alone into an unused vehicle
 * (src/solver/ls/moves/empty-route-filter.ts): on round trips and open routes from one depot with
 * the distance as the cost, it never refuses a move the pricing would make, and it refuses most.
 */
import { describe, expect, it } from 'vitest';
import { emptyRouteShortens } from '../../src/solver/ls/moves/empty-route-filter.js';
import { oneDepotDistanceProblem, regretPlanWithMoves } from './helpers.js';

/** Many vehicles from one depot, distance as the cost: the filter applies and some vehicles stay unused. */
const SIZE = { stops: 40, vehicles: 30 };

describe('the distance filter of the move into an unused vehicle', () => {
  for (const openRoutes of [false, true]) {
    it(`refuses only moves the pricing refuses, and most of them${openRoutes ? ' (open routes)' : ''}`, () => {
      let refused = 0;
      let priced = 0;
      let improving = 0;
      for (let seed = 1; seed <= 6; seed++) {
        const { sol, moves } = regretPlanWithMoves(oneDepotDistanceProblem(seed, SIZE, openRoutes));
        const inst = sol.inst;
        expect(moves.distanceFilter).toBe(true);
        const empty = [...Array(inst.nVehicles).keys()].filter((v) => sol.len[v] === 0);
        expect(empty.length).toBeGreaterThan(0);
        for (let u = 0; u < inst.nStops; u++) {
          const ru = sol.routeOf[u]!;
          if (ru < 0 || sol.len[ru]! <= 1) continue;
          const pu = sol.posOf[u]!;
          moves.prepare(sol, ru);
          moves.prepare(sol, empty[0]!);
          moves.plans[0]
            .reset(ru)
            .range(ru, 0, pu)
            .range(ru, pu + 1, sol.len[ru]!);
          moves.plans[1].reset(empty[0]!).stop(u);
          const improves = moves.improves(sol, 2);
          const passes = emptyRouteShortens(sol, moves, u);
          priced++;
          if (!passes) refused++;
          if (improves) improving++;
          if (improves) expect(passes, `stop ${u}, seed ${seed}`).toBe(true);
        }
      }
      // Some moves do pay (a stop far out on its route's way), so the filter is checked against them too.
      expect(improving).toBeGreaterThan(0);
      expect(priced).toBeGreaterThan(100);
      expect(refused).toBeGreaterThan(priced / 2);
    });
  }
});
