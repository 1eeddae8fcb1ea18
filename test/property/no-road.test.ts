/**
 * Property: a leg with no road (a provider's null cell, NO_ROAD in the matrices) is never driven.
 * Generated problems of both surfaces get random no-road cells and a few "islands" with no road to
 * or from anywhere; every plan must pass the independent checker, use no such leg, and leave each
 * island unserved as unreachable_in_shift with a message naming "no road".
 */
import { describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Problem } from '../../src/model/problem.js';
import { NO_ROAD } from '../../src/model/travel.js';
import type { Plan } from '../../src/output/plan-types.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import { NO_ROAD as CHECKER_NO_ROAD, checkPlan } from '../support/checker.js';
import { Random, generateOneOff, generateProject } from '../support/generate.js';

/** The problem with `share` of its legs cut and the given stops' places cut off entirely. */
function withoutRoads(problem: Problem, seed: number, share: number, islands: number[]): Problem {
  const rng = new Random(seed);
  const n = problem.travel.size;
  const cut = new Uint8Array(n * n);
  for (let k = 0; k < n * n; k++) if (k % (n + 1) !== 0 && rng.chance(share)) cut[k] = 1;
  const depots = new Set(problem.vehicles.flatMap((vehicle) => [vehicle.startLocation, vehicle.endLocation]));
  for (const s of islands) {
    const place = problem.stops[s]!.location;
    if (place < 0 || depots.has(place)) continue;
    for (let other = 0; other < n; other++) {
      if (other === place) continue;
      cut[place * n + other] = 1;
      cut[other * n + place] = 1;
    }
  }
  const blocked = (matrix: Int32Array): Int32Array => matrix.map((value, k) => (cut[k] ? NO_ROAD : value));
  return {
    ...problem,
    travel: { size: n, distance: blocked(problem.travel.distance), durations: problem.travel.durations.map(blocked) },
    travelSource: { kind: 'road', source: 'matrix', traffic: 1 },
  };
}

async function planOf(problem: Problem, seed: number): Promise<Plan> {
  const result = await solve(problem, { timeLimitMs: 20_000, seed, maxIterations: 80 });
  return JSON.parse(JSON.stringify(buildPlan(problem, result))) as Plan;
}

const CASES = [
  { surface: 'project', seeds: [1, 2, 3, 4, 5], share: 0.15 },
  { surface: 'oneoff', seeds: [6, 7, 8, 9], share: 0.3 },
  { surface: 'project', seeds: [10, 11], share: 0.6 },
] as const;

describe('no-road legs are never driven', () => {
  it('the checker and the model agree on what a no-road leg is', () => {
    expect(CHECKER_NO_ROAD).toBe(NO_ROAD);
  });

  for (const { surface, seeds, share } of CASES) {
    for (const seed of seeds) {
      it(`${surface}, seed ${seed}, ${share * 100}% of legs cut, two islands`, async () => {
        const document = surface === 'project' ? generateProject(seed, { stops: 30 }) : generateOneOff(seed, { stops: 30 });
        const { problem: geo } = loadProblemDocument(document, { expect: surface });
        const islands = [3, 17].filter((s) => s < geo.stops.length);
        const problem = withoutRoads(geo, seed, share, islands);
        const plan = await planOf(problem, seed);
        expect(checkPlan(problem, plan)).toEqual([]);
        for (const route of plan.routes) {
          for (const visit of route.visits) if (visit.kind === 'stop') expect(visit.travel_s).toBeLessThan(NO_ROAD);
          expect(route.end.travel_s).toBeLessThan(NO_ROAD);
        }
        const depots = new Set(problem.vehicles.flatMap((vehicle) => [vehicle.startLocation, vehicle.endLocation]));
        for (const s of islands) {
          if (depots.has(problem.stops[s]!.location) || problem.stops[s]!.location < 0) continue;
          const unserved = plan.unserved.find((entry) => entry.stop_index === s);
          expect(unserved, `island stop ${s}`).toBeDefined();
          if (unserved!.reason === 'unreachable_in_shift') expect(unserved!.message).toMatch(/^no road/);
        }
      });
    }
  }
});
