/**
 * Granular neighbours (src/solver/ls/neighbours.ts): each stop's list holds the stops of smallest
 * measure (the cheaper way of travel plus the waiting and time warp it forces), nearest first and
 * ties in stop order, exactly as measuring every pair would give: the pairs left out on their cost
 * alone (a lower bound of the measure) are never ones that belong.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { instanceOf, type SolverInstance } from '../../src/solver/instance.js';
import { granularNeighbours } from '../../src/solver/ls/neighbours.js';
import { WAIT_WEIGHT, WARP_WEIGHT } from '../../src/solver/params.js';
import { capacitatedProblem, randomProblem } from '../support/problem-builder.js';

/** The measure from i to j, written out as the module's comment describes it. */
function measure(inst: SolverInstance, i: number, j: number): number {
  const N = inst.nLoc;
  const li = inst.stopLoc[i]!;
  const lj = inst.stopLoc[j]!;
  const dur = inst.vDur[0];
  const cost = inst.costIsDistance ? inst.dist[li * N + lj]! : (dur?.[li * N + lj] ?? 0);
  if (!dur) return cost;
  const window = (s: number): [number, number] => {
    let lo = Infinity;
    let hi = -Infinity;
    for (let w = inst.winOffset[s]!; w < inst.winOffset[s + 1]!; w++) {
      lo = Math.min(lo, inst.winStart[w]!);
      hi = Math.max(hi, inst.winEnd[w]! - inst.stopDur[s]!);
    }
    return [lo === Infinity ? 0 : lo, hi === -Infinity ? 0 : hi];
  };
  const [earlyI, lateI] = window(i);
  const [earlyJ, lateJ] = window(j);
  const t = dur[li * N + lj]!;
  const wait = earlyJ - t - inst.stopDur[i]! - lateI;
  const warp = earlyI + inst.stopDur[i]! + t - lateJ;
  return cost + WAIT_WEIGHT * Math.max(0, Math.min(wait, 1e9)) + WARP_WEIGHT * Math.max(0, Math.min(warp, 1e9));
}

/** Every stop's k nearest by sorting all others on the measure, both ways, ties in stop order (-1 pads a short list). */
function bruteForce(inst: SolverInstance, k: number): Int32Array {
  const n = inst.nStops;
  const kk = Math.min(k, n - 1);
  const out = new Int32Array(n * kk).fill(-1);
  for (let i = 0; i < n; i++) {
    const others = [];
    for (let j = 0; j < n; j++) if (j !== i) others.push({ j, key: Math.min(measure(inst, i, j), measure(inst, j, i)) });
    others.sort((a, b) => a.key - b.key || a.j - b.j);
    others.slice(0, kk).forEach((o, r) => (out[i * kk + r] = o.j));
  }
  return out;
}

function withCost(problem: Problem, cost: 'distance' | 'time'): Problem {
  return { ...problem, objective: { cost, minimizeRoutes: false, balance: 'none' } };
}

describe('granular neighbours', () => {
  it('are the stops of smallest measure, nearest first, as measuring every pair gives (windows, distance or time)', () => {
    for (const seed of [1, 2, 3]) {
      for (const cost of ['distance', 'time'] as const) {
        const inst = instanceOf(withCost(randomProblem(seed, { stops: 90, vehicles: 5, uniformSpeed: true }), cost));
        for (const k of [5, 20])
          expect(Array.from(granularNeighbours(inst, k)), `seed ${seed} ${cost} k ${k}`).toEqual(Array.from(bruteForce(inst, k)));
      }
    }
  });

  it('are the nearest stops where no window binds', () => {
    for (const seed of [4, 5]) {
      const inst = instanceOf(capacitatedProblem(seed, { stops: 80, vehicles: 6, capacity: 40 }));
      expect(Array.from(granularNeighbours(inst, 12))).toEqual(Array.from(bruteForce(inst, 12)));
    }
  });
});
