/**
 * Granular neighbourhoods: for each stop, the stops it is most plausibly served next to. The
 * measure mixes distance with the time windows (as in Vidal's HGS): going from i to j costs
 * the travel plus a share of the waiting it forces (j's window opens long after i's closes)
 * and a larger share of the time warp it implies (j's window closes before i can get there).
 */
import type { SolverInstance } from '../instance.js';
import { NEIGHBOUR_TILE, WAIT_WEIGHT, WARP_WEIGHT } from '../params.js';
import { SmallestK } from '../smallest-k.js';

export function granularNeighbours(inst: SolverInstance, k: number): Int32Array {
  const n = inst.nStops;
  const kk = Math.min(k, Math.max(0, n - 1));
  const out = new Int32Array(n * kk).fill(-1);
  const nearest = Array.from({ length: NEIGHBOUR_TILE }, () => new SmallestK(kk));
  const bound = new Float64Array(NEIGHBOUR_TILE);
  const N = inst.nLoc;
  const dur = inst.vDur[0];
  // What `proximity` starts from, each way: a lower bound of the measure (undefined: no cost, every measure 0).
  const costs = inst.costIsDistance ? inst.dist : dur;
  // On a symmetric distance the way back is the way there: the bound reads the tile's row alone.
  const oneWay = inst.costIsDistance && inst.distSymmetric;
  const early = new Float64Array(n);
  const late = new Float64Array(n);
  for (let s = 0; s < n; s++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let w = inst.winOffset[s]!, e = inst.winOffset[s + 1]!; w < e; w++) {
      lo = Math.min(lo, inst.winStart[w]!);
      hi = Math.max(hi, inst.winEnd[w]! - inst.stopDur[s]!);
    }
    early[s] = lo === Infinity ? 0 : lo;
    late[s] = hi === -Infinity ? 0 : hi;
  }
  // A tile of stops at a time, as in instance.ts's nearestNeighbours: the way back reads one row.
  for (let i0 = 0; i0 < n; i0 += NEIGHBOUR_TILE) {
    const i1 = Math.min(n, i0 + NEIGHBOUR_TILE);
    for (let i = i0; i < i1; i++) nearest[i - i0]!.reset();
    bound.fill(Infinity);
    for (let j = 0; j < n; j++) {
      const lj = inst.stopLoc[j]!;
      if (lj < 0) continue;
      for (let i = i0; i < i1; i++) {
        const li = inst.stopLoc[i]!;
        if (j === i || li < 0) continue;
        // The waiting and warp only add to the cost, so a pair whose cost both ways cannot make the list is left before they are priced: most pairs.
        if (costs !== undefined && lowerBound(costs, N, li, lj, oneWay) >= bound[i - i0]!) continue;
        const key = Math.min(proximity(inst, dur, early, late, i, j, li, lj, N), proximity(inst, dur, early, late, j, i, lj, li, N));
        if (key >= bound[i - i0]!) continue;
        const list = nearest[i - i0]!;
        list.offer(key, j);
        bound[i - i0] = list.bound;
      }
    }
    for (let i = i0; i < i1; i++) if (inst.stopLoc[i]! >= 0) nearest[i - i0]!.copyIdsTo(out, i * kk);
  }
  return out;
}

/** The smaller cost of the two ways between locations li and lj: read from lj's row alone when `oneWay` (symmetric). */
function lowerBound(costs: Int32Array, N: number, li: number, lj: number, oneWay: boolean): number {
  const back = costs[lj * N + li]!;
  return oneWay ? back : Math.min(costs[li * N + lj]!, back);
}

function proximity(
  inst: SolverInstance,
  dur: Int32Array | undefined,
  early: Float64Array,
  late: Float64Array,
  i: number,
  j: number,
  li: number,
  lj: number,
  N: number,
): number {
  const cost = inst.costIsDistance ? inst.dist[li * N + lj]! : (dur?.[li * N + lj] ?? 0);
  if (!dur) return cost;
  const t = dur[li * N + lj]!;
  const wait = early[j]! - t - inst.stopDur[i]! - late[i]!;
  const warp = early[i]! + inst.stopDur[i]! + t - late[j]!;
  return cost + WAIT_WEIGHT * Math.max(0, Math.min(wait, 1e9)) + WARP_WEIGHT * Math.max(0, Math.min(warp, 1e9));
}
