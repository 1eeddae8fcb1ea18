/**
 * The solver's own location numbering (src/solver/local-order.ts): on a problem above
 * LOCAL_ORDER_MIN_LOCATIONS whose locations come in random order, the renumbered instance reads the
 * same distance and travel time for every pair of places, and a seeded solve at fixed iterations
 * gives the same plan with and without it, a plan the independent checker accepts.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import type { SolverInstance } from '../../src/solver/instance.js';
import { orderedInstanceOf, problemLocation } from '../../src/solver/local-order.js';
import { stopAngles } from '../../src/solver/ls/moves/sectors.js';
import { LOCAL_ORDER_MAX_LOCATIONS, LOCAL_ORDER_MIN_LOCATIONS } from '../../src/solver/params.js';
import type { SolveOptions } from '../../src/solver/types.js';
import { checkPlan } from '../support/checker.js';
import { randomProblem } from '../support/problem-builder.js';
import { oneDepotDistanceProblem } from './helpers.js';

/** Every feature: locationless stops, open routes, ends away from the depot, several speeds (travel profiles). */
const allFeatures = randomProblem(26, { stops: LOCAL_ORDER_MIN_LOCATIONS + 120, vehicles: 30, allFeatures: true });
/** No windows, distance as the cost: where SWAP* and its polar sectors (coordinates) apply. */
const windowless = oneDepotDistanceProblem(27, { stops: LOCAL_ORDER_MIN_LOCATIONS + 20, vehicles: 25 });

/** No coordinates to go by (all one point): the numbering follows a nearest-neighbour chain over the matrix. */
const withoutCoordinates: Problem = { ...windowless, locations: windowless.locations.map(() => ({ lat: 0, lng: 0 })) };

/** The places a route visits, in the solver's numbering of `inst`: the stops' and the vehicles' start and end locations. */
function places(inst: SolverInstance): number[] {
  return [...inst.stopLoc, ...inst.vStartLoc, ...inst.vEndLoc];
}

/** The problems above the threshold, each renumbered its own way (curve, curve without windows, chain). */
const RENUMBERED: [string, Problem][] = [
  ['all features', allFeatures],
  ['windowless', windowless],
  ['without coordinates', withoutCoordinates],
];

describe('the renumbered instance', () => {
  it.each(RENUMBERED)('%s: locations really renumbered, every location mapped back to the problem’s', (_name, problem: Problem) => {
    const inst = orderedInstanceOf(problem);
    expect(inst.nLoc).toBeGreaterThanOrEqual(LOCAL_ORDER_MIN_LOCATIONS);
    expect(inst.locOrigin, 'renumbered above the threshold').not.toBeNull();
    const moved = inst.locOrigin!.filter((origin, loc) => origin !== loc).length;
    expect(moved, 'random order: most locations move').toBeGreaterThan(inst.nLoc / 2);
    expect([...inst.stopLoc].map((loc) => problemLocation(inst, loc))).toEqual(problem.stops.map((stop) => stop.location));
    expect([...inst.vStartLoc].map((loc) => problemLocation(inst, loc))).toEqual(problem.vehicles.map((v) => v.startLocation));
    expect([...inst.vEndLoc].map((loc) => problemLocation(inst, loc))).toEqual(problem.vehicles.map((v) => v.endLocation));
  });

  it.each(RENUMBERED)('%s: the same distance and travel time for every pair of places, for every vehicle', (_name, problem: Problem) => {
    const inst = orderedInstanceOf(problem);
    const base = orderedInstanceOf(problem, false);
    expect(base.locOrigin).toBeNull();
    expect(new Set(inst.vDur).size, 'travel profiles are permuted once each').toBe(new Set(base.vDur).size);
    const ours = places(inst);
    const theirs = places(base);
    const N = inst.nLoc;
    let mismatches = 0;
    for (let i = 0; i < ours.length; i++) {
      if (ours[i]! < 0 !== theirs[i]! < 0) mismatches++;
      for (let j = 0; j < ours.length; j++) {
        const [a, b, p, q] = [ours[i]!, ours[j]!, theirs[i]!, theirs[j]!];
        if (a < 0 || b < 0) continue;
        if (inst.dist[a * N + b] !== base.dist[p * N + q]) mismatches++;
        for (let v = 0; v < inst.nVehicles; v++) if (inst.vDur[v]![a * N + b] !== base.vDur[v]![p * N + q]) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
  });

  it('gives SWAP*’s polar sectors the same angles (coordinates read through the problem’s numbering)', () => {
    expect([...stopAngles(orderedInstanceOf(windowless))]).toEqual([...stopAngles(orderedInstanceOf(windowless, false))]);
    expect(new Set(stopAngles(orderedInstanceOf(windowless))).size, 'angles that say something').toBeGreaterThan(100);
  });

  it('keeps the problem’s numbering below the threshold (small problems keep their plans exactly)', () => {
    const small = randomProblem(5, { stops: 60, vehicles: 4, allFeatures: true });
    expect(orderedInstanceOf(small)).toBe(orderedInstanceOf(small, false));
    expect(orderedInstanceOf(small).locOrigin).toBeNull();
  });

  it('keeps the problem’s numbering above LOCAL_ORDER_MAX_LOCATIONS (the copies cost more than they give there)', () => {
    const large = oneDepotDistanceProblem(8, { stops: LOCAL_ORDER_MAX_LOCATIONS, vehicles: 10 });
    expect(orderedInstanceOf(large).nLoc).toBeGreaterThan(LOCAL_ORDER_MAX_LOCATIONS);
    expect(orderedInstanceOf(large).locOrigin).toBeNull();
  });
});

describe('plans with the renumbering', () => {
  // The checker measures legs from the coordinates: the problem without them is checked as the one it was made from (same matrix).
  it.each([
    ['all features', allFeatures, {}, allFeatures],
    ['windowless, SWAP* with polar sectors', windowless, { swapStarSectors: true }, windowless],
    ['without coordinates', withoutCoordinates, {}, windowless],
  ])(
    '%s: the same seeded plan at fixed iterations with and without it, and the checker accepts it',
    async (_name, problem, extra, checked) => {
      expect(orderedInstanceOf(problem).locOrigin, 'renumbered above the threshold').not.toBeNull();
      const options: SolveOptions = { timeLimitMs: 600_000, seed: 3, maxIterations: 25, ...extra };
      const renumbered = await solve(problem, { ...options, localOrder: true });
      const original = await solve(problem, { ...options, localOrder: false });
      expect(renumbered.routes.length).toBeGreaterThan(0);
      expect(renumbered.routes).toEqual(original.routes);
      expect(renumbered.unserved).toEqual(original.unserved);
      expect(checkPlan(checked, buildPlan(checked, renumbered))).toEqual([]);
    },
  );
});
