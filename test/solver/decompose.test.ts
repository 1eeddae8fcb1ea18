/** Decomposition by angle (solver/decompose/parts.ts) and warm-started searches (solver/improve.ts). */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { compareObjective } from '../../src/solver/cost.js';
import { mergeParts, routesInPart, splitByAngle, subProblem } from '../../src/solver/decompose/parts.js';
import { improvePlan, objectiveOfRoutes } from '../../src/solver/improve.js';
import { randomProblem } from '../support/problem-builder.js';

const unbalanced = (problem: Problem): Problem => ({ ...problem, objective: { ...problem.objective, balance: 'none' } });
const plain = (routes: Int32Array[]) => routes.map((r) => Array.from(r));

describe('decomposition by angle', () => {
  it('parts split the vehicles and the stops exactly, and merging their routes gives the plan back', async () => {
    const problem = unbalanced(randomProblem(501, { stops: 160, vehicles: 6, allFeatures: true }));
    const start = await improvePlan(problem, null, { timeLimitMs: 60_000, seed: 1, maxIterations: 20 });
    for (const count of [2, 3]) {
      for (const rotation of [0, 0.37, 0.99]) {
        const parts = splitByAngle(problem, start.routes, count, rotation);
        expect(parts).toHaveLength(count);
        const vehicles = parts.flatMap((p) => p.vehicles).sort((a, b) => a - b);
        const stops = parts.flatMap((p) => p.stops).sort((a, b) => a - b);
        expect(vehicles).toEqual(problem.vehicles.map((_, v) => v));
        expect(stops).toEqual(problem.stops.map((_, s) => s));
        const partRoutes = parts.map((part) => routesInPart(part, start.routes, problem.stops.length));
        expect(plain(mergeParts(problem.vehicles.length, parts, partRoutes))).toEqual(plain(start.routes));
        // Each part is a problem of its own whose plan is the part's routes, priced the same.
        const sum = parts.reduce((total, part, p) => total + objectiveOfRoutes(subProblem(problem, part), partRoutes[p]!).cost, 0);
        expect(sum).toBeCloseTo(start.objective.cost, 6);
      }
    }
  }, 120_000);

  it('sectors are contiguous in angle: used routes of one part are not interleaved with the other', async () => {
    const problem = unbalanced(randomProblem(502, { stops: 200, vehicles: 10, uniformSpeed: true, allFeatures: false }));
    const start = await improvePlan(problem, null, { timeLimitMs: 60_000, seed: 2, maxIterations: 10 });
    const rotation = 0.25;
    const [a, b] = splitByAngle(problem, start.routes, 2, rotation);
    const depot = problem.locations[problem.vehicles[0]!.startLocation]!;
    // The centroid angle of a route as a fraction of a turn from where the first sector starts.
    const angle = (v: number): number => {
      const points = Array.from(start.routes[v]!, (s) => problem.locations[problem.stops[s]!.location]!);
      const lat = points.reduce((sum, p) => sum + p.lat, 0) / points.length;
      const lng = points.reduce((sum, p) => sum + p.lng, 0) / points.length;
      const turn = Math.atan2(lat - depot.lat, lng - depot.lng) / (2 * Math.PI) - rotation;
      return turn - Math.floor(turn);
    };
    const used = (vs: number[]) => vs.filter((v) => start.routes[v]!.length > 0).map(angle);
    expect(used(a!.vehicles).length).toBeGreaterThan(0);
    expect(used(b!.vehicles).length).toBeGreaterThan(0);
    expect(Math.max(...used(a!.vehicles))).toBeLessThanOrEqual(Math.min(...used(b!.vehicles)));
  }, 120_000);

  it('a warm-started search is never worse than its start (lexicographic) and reproduces for a seed', async () => {
    for (const seed of [503, 504]) {
      const problem = unbalanced(randomProblem(seed, { stops: 150, vehicles: 4, allFeatures: true }));
      const start = await improvePlan(problem, null, { timeLimitMs: 60_000, seed: 3, maxIterations: 5 });
      const parts = splitByAngle(problem, start.routes, 2, 0.5);
      for (const part of parts) {
        const sub = subProblem(problem, part);
        const initial = routesInPart(part, start.routes, problem.stops.length);
        const before = objectiveOfRoutes(sub, initial);
        const options = { timeLimitMs: 60_000, seed: 9, maxIterations: 40, arcCost: start.arcCost, coolWindow: { from: 0.5, to: 0.6 } };
        const a = await improvePlan(sub, initial, options);
        const b = await improvePlan(sub, initial, options);
        expect(compareObjective(a.objective, before, sub.objective.minimizeRoutes)).toBeLessThanOrEqual(0);
        expect(plain(a.routes)).toEqual(plain(b.routes));
        expect(objectiveOfRoutes(sub, a.routes)).toEqual(a.objective);
      }
    }
  }, 120_000);
});
