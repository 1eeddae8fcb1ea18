/**
 * The routes the recreate tries for a stop (Inserter.collectNear): the routes in `extra` that hold
 * stops, and the first unused vehicle of each class (unused vehicles of a class are alike), in
 * vehicle order. The walk over the fleet ends once every class has its first; checked against the
 * whole fleet walked, on fleets of many classes and of one.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { instanceOf, vehicleClassCount, type SolverInstance } from '../../src/solver/instance.js';
import { Solution } from '../../src/solver/solution.js';
import { randomProblem } from '../support/problem-builder.js';
import { partlyRoutedPlan } from './helpers.js';

/** The used routes of `extra` and every class's first unused vehicle, the whole fleet walked, in vehicle order. */
function expectedCandidates(inst: SolverInstance, sol: Solution, extra: number[]): number[] {
  const list = new Set(extra.filter((v) => sol.len[v]! > 0));
  const seen = new Set<number>();
  for (let v = 0; v < inst.nVehicles; v++) {
    if (sol.len[v] !== 0 || seen.has(inst.vClass[v]!)) continue;
    seen.add(inst.vClass[v]!);
    list.add(v);
  }
  return [...list].sort((a, b) => a - b);
}

function fleets(): { name: string; problem: Problem; oneClass: boolean }[] {
  const mixed = randomProblem(61, { stops: 50, vehicles: 14 });
  const alike = randomProblem(62, { stops: 50, vehicles: 14 });
  return [
    { name: 'many classes', problem: mixed, oneClass: false },
    { name: 'one class', problem: { ...alike, vehicles: alike.vehicles.map(() => alike.vehicles[0]!) }, oneClass: true },
  ];
}

describe('the routes a recreate tries for a stop', () => {
  for (const { name, problem, oneClass } of fleets()) {
    it(`are the used routes asked for and the first unused vehicle of each class (${name})`, () => {
      const inst = instanceOf(problem);
      expect(vehicleClassCount(inst) === 1).toBe(oneClass);
      const { sol, inserter } = partlyRoutedPlan(inst, (s) => s % 2 === 0);
      const out = new Int32Array(inst.nVehicles);
      const mark = new Uint8Array(inst.nVehicles);
      const neighbours = new Int32Array(0);
      let unusedFound = 0;
      for (let v = 0; v < inst.nVehicles; v++) {
        const extra = [v, (v * 7) % inst.nVehicles];
        const count = inserter.collectNear(sol, 0, neighbours, 0, extra, out, mark, 0);
        expect(Array.from(out.subarray(0, count)), `extra ${extra.join(',')}`).toEqual(expectedCandidates(inst, sol, extra));
        unusedFound += Array.from(out.subarray(0, count)).filter((w) => sol.len[w] === 0).length;
      }
      expect(unusedFound).toBeGreaterThan(0);
    });
  }
});
