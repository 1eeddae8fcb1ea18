import { describe, expect, it } from 'vitest';
import { SmallestK } from '../../src/solver/smallest-k.js';

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
