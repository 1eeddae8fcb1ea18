import { describe, expect, it } from 'vitest';
import { instanceOf, nearestNeighbours } from '../../src/solver/instance.js';
import { SmallestK } from '../../src/solver/smallest-k.js';
import { randomProblem } from '../support/problem-builder.js';

function smallest(k: number, keys: number[]): number[] {
  const list = new SmallestK(k);
  keys.forEach((key, id) => list.offer(key, id));
  const out = new Int32Array(list.count);
  list.copyIdsTo(out, 0);
  return [...out];
}

describe('SmallestK (neighbour lists)', () => {
  it('keeps the k smallest keys, nearest first', () => {
    expect(smallest(3, [5, 1, 4, 2, 3])).toEqual([1, 3, 4]);
  });

  it('equal keys keep the earlier offer first', () => {
    expect(smallest(2, [7, 7, 7])).toEqual([0, 1]);
  });

  it('fewer offers than k gives all of them, sorted', () => {
    expect(smallest(5, [3, 1])).toEqual([1, 0]);
  });

  it('k = 0 keeps nothing', () => {
    expect(smallest(0, [1, 2])).toEqual([]);
  });

  it('matches a full sort on random keys', () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const keys = Array.from({ length: 200 }, () => Math.floor(random() * 50));
    const sorted = keys.map((key, id) => ({ key, id })).sort((a, b) => a.key - b.key || a.id - b.id);
    expect(smallest(20, keys)).toEqual(sorted.slice(0, 20).map((entry) => entry.id));
  });
});

describe('nearestNeighbours', () => {
  it('on a symmetric matrix reads one direction and gives the very lists of reading both', () => {
    for (const seed of [3, 4]) {
      const problem = randomProblem(seed, { stops: 150, vehicles: 4 });
      const inst = instanceOf(problem);
      expect(inst.distSymmetric, 'the offline model vouches for its symmetry').toBe(true);
      const bothWays = nearestNeighbours({ ...inst, distSymmetric: false }, 40);
      expect([...nearestNeighbours(inst, 40)]).toEqual([...bothWays]);
    }
  });

  it('a matrix nobody vouches for is read both ways: lists ranked by the way there and back, ties by index', () => {
    const problem = randomProblem(5, { stops: 30, vehicles: 2 });
    const size = problem.travel.size;
    // Stop 0's ways out reversed (the far made near): its way there and back is then the same to everyone.
    const distance = Int32Array.from(problem.travel.distance);
    const out = problem.stops[0]!.location;
    for (let j = 0; j < size; j++) if (j !== out) distance[out * size + j] = 1_000_000 - distance[out * size + j]!;
    const inst = instanceOf({ ...problem, travel: { ...problem.travel, distance, symmetric: undefined } });
    expect(inst.distSymmetric).toBe(false);
    const lists = nearestNeighbours(inst, 5);
    const n = inst.nStops;
    const key = (s: number, t: number) =>
      distance[inst.stopLoc[s]! * size + inst.stopLoc[t]!]! + distance[inst.stopLoc[t]! * size + inst.stopLoc[s]!]!;
    for (let s = 0; s < n; s++) {
      const others = Array.from({ length: n }, (_, t) => t).filter((t) => t !== s);
      const expected = others.sort((a, b) => key(s, a) - key(s, b) || a - b).slice(0, 5);
      expect([...lists.subarray(s * 5, s * 5 + 5)], `stop ${s}`).toEqual(expected);
    }
    // Read one way, stop 0's list would be its farthest stops instead.
    expect([...nearestNeighbours({ ...inst, distSymmetric: true }, 5).subarray(0, 5)]).not.toEqual([...lists.subarray(0, 5)]);
  });
});
