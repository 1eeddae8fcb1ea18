/**
 * SWAP*'s polar sectors (src/solver/ls/moves/sectors.ts; SolveOptions.swapStarSectors, off by
 * default): routes overlap when the angular ranges of their stops around the depot do, also across
 * the angle where the circle closes; a stale sector is grown again when its route changes; and a
 * capacity-only solve with the option passes the independent checker.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { solve } from '../../src/solver/index.js';
import { instanceOf } from '../../src/solver/instance.js';
import { RouteSectors } from '../../src/solver/ls/moves/sectors.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { Solution } from '../../src/solver/solution.js';
import { checkPlan } from '../support/checker.js';
import { buildProblem, capacitatedProblem, type LatLng } from '../support/problem-builder.js';

const DEPOT: LatLng = [52, 5];
/** Stops around the depot by compass point: the angle is that of (longitude, latitude) seen from it. */
const EAST_ABOVE: LatLng = [52.01, 5.1];
const EAST_BELOW: LatLng = [51.99, 5.1];
const EAST: LatLng = [52, 5.1];
const NORTH_EAST: LatLng = [52.07, 5.07];
const NORTH: LatLng = [52.1, 5];
const WEST: LatLng = [52, 4.9];

function compassProblem(): Problem {
  return buildProblem({
    vehicles: Array.from({ length: 6 }, () => ({ start: DEPOT })),
    stops: [EAST_ABOVE, EAST_BELOW, EAST, NORTH_EAST, NORTH, WEST].map((at) => ({ at })),
    objective: { cost: 'distance' },
  });
}

describe('SWAP* polar sectors', () => {
  it('overlap when the stops’ angular ranges do, across the closing angle too, and follow route changes', () => {
    const inst = instanceOf(compassProblem());
    const evaluator = new RouteEvaluator(inst);
    const sol = new Solution(inst, new CostEvaluator(inst, 1));
    const put = (v: number, stops: number[]): void => {
      for (const s of stops) expect(sol.insert(v, sol.len[v]!, s, evaluator)).toBe(true);
    };
    put(0, [0, 1]); // just above and just below east: the short way round holds angle 0
    put(1, [2]); // east
    put(2, [4]); // north
    put(3, [5]); // west
    put(4, [3]); // north-east
    const sectors = new RouteSectors(inst);
    expect(sectors.overlap(sol, 0, 1)).toBe(true);
    expect(sectors.overlap(sol, 1, 0)).toBe(true);
    expect(sectors.overlap(sol, 0, 2)).toBe(false);
    expect(sectors.overlap(sol, 0, 3)).toBe(false);
    expect(sectors.overlap(sol, 2, 3)).toBe(false);
    expect(sectors.overlap(sol, 0, 4)).toBe(false);
    // East joins the north-east route: its sector now spans from east to north-east, which the
    // route just above and below east overlaps.
    sol.detach(2);
    expect(sol.refreshRoute(1, evaluator)).toBe(true);
    put(4, [2]);
    expect(sectors.overlap(sol, 4, 0)).toBe(true);
    expect(sectors.overlap(sol, 4, 2)).toBe(false);
  });

  it('give a capacity-only solve whose plan passes the independent checker', async () => {
    const problem = capacitatedProblem(3, { stops: 120, vehicles: 12, capacity: 60, depot: DEPOT });
    const result = await solve(problem, { timeLimitMs: 20_000, seed: 1, maxIterations: 150, swapStarSectors: true });
    expect(result.unserved).toEqual([]);
    expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, result))))).toEqual([]);
  });
});
