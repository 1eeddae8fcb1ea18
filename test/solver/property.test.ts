/**
 * Property tests: random problems (seeded, every feature on, 20–200 stops) solved with an
 * iteration limit; every result must pass the hand-written invariants and the independent
 * plan checker, and leave no unserved stop that fits as is.
 */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import { checkPlan, findInsertableUnserved } from '../support/checker.js';
import { randomProblem } from '../support/problem-builder.js';
import { checkInvariants } from './invariants.js';

const CASES = [
  { seed: 101, stops: 20, vehicles: 2 },
  { seed: 102, stops: 35, vehicles: 3 },
  { seed: 103, stops: 50, vehicles: 4 },
  { seed: 104, stops: 60, vehicles: 6 },
  { seed: 105, stops: 80, vehicles: 8 },
  { seed: 106, stops: 100, vehicles: 10 },
  { seed: 107, stops: 120, vehicles: 6 },
  { seed: 108, stops: 150, vehicles: 14 },
  { seed: 109, stops: 200, vehicles: 16 },
  { seed: 110, stops: 200, vehicles: 3 },
];

describe('random problems with every feature', () => {
  for (const c of CASES) {
    it(`seed ${c.seed}: ${c.stops} stops, ${c.vehicles} vehicles — feasible, complete, nothing insertable`, async () => {
      const problem = randomProblem(c.seed, { stops: c.stops, vehicles: c.vehicles, allFeatures: true });
      const result = await solve(problem, { timeLimitMs: 60_000, seed: c.seed, maxIterations: 120 });
      expect(checkInvariants(problem, result)).toEqual([]);
      const plan = JSON.parse(JSON.stringify(buildPlan(problem, result)));
      expect(checkPlan(problem, plan)).toEqual([]);
      expect(findInsertableUnserved(problem, plan)).toEqual([]);
      expect(result.routes.length).toBeGreaterThan(0);
    }, 60_000);
  }

  it('construction alone is already feasible and complete', async () => {
    for (const seed of [201, 202, 203, 204, 205]) {
      const problem = randomProblem(seed, { stops: 60, vehicles: 5, allFeatures: true });
      const result = await solve(problem, { timeLimitMs: 60_000, seed: 0, maxIterations: 0 });
      expect(checkInvariants(problem, result), `seed ${seed}`).toEqual([]);
    }
  }, 60_000);

  it('the search never ends worse than construction on the lexicographic objective', async () => {
    for (const seed of [301, 302, 303]) {
      const problem = randomProblem(seed, { stops: 70, vehicles: 5 });
      const built = await solve(problem, { timeLimitMs: 60_000, seed: 0, maxIterations: 0 });
      const searched = await solve(problem, { timeLimitMs: 60_000, seed: 0, maxIterations: 200 });
      const priority = (r: typeof built) =>
        r.routes.reduce(
          (a, route) => a + route.visits.reduce((b, v) => b + (v.kind === 'stop' ? problem.stops[v.stop]!.priority : 0), 0),
          0,
        );
      expect(priority(searched)).toBeGreaterThanOrEqual(priority(built));
      if (priority(searched) === priority(built)) {
        const cost = (r: typeof built) =>
          r.routes.reduce((a, x) => a + (problem.objective.cost === 'distance' ? x.distance : x.working), 0);
        expect(cost(searched)).toBeLessThanOrEqual(cost(built) + 1e-6);
      }
    }
  }, 60_000);
});
