/**
 * The prefix and suffix summaries of a route without sequenced stops, for RouteSegments.ensure
 * (segments.ts), worked out with the running sums in locals and stored field by field.
 */
import type { SolverInstance } from '../instance.js';
import { FAR } from '../params.js';

/** Stored fields per summary: D, TW, E, L, distance, last location, stop count, lowest and highest sequence, out of order. */
export const FIELDS = 10;

/** The latest start of a service of `duration` in window `w` (its L alone), kept finite. */
export function latestStart(winEnd: Float64Array, w: number, duration: number): number {
  return Math.min(winEnd[w]! - duration, FAR);
}

/**
 * The prefixes' summaries of seq[0..n), each stop appended as RouteSegments.appendStop appends it (concat), with
 * the sums in locals: through the accumulator's fields each stop cost some 420 instructions
 * (its doubles live boxed in the object), a tenth of RC1_10_1's local search. The same
 * operations in the same order, so the same figures to the last bit (segment-summaries.test.ts). Only
 * without sequences (their order is summarised through the accumulator).
 */
export function storePrefixes(
  inst: SolverInstance,
  dur: Int32Array,
  seq: Int32Array,
  n: number,
  pre: Float64Array,
  preLoad: Float64Array,
): void {
  const { stopLoc, winOffset, winStart, winEnd, stopDur, stopLoad, dims } = inst;
  const dist = inst.dist;
  const N = inst.nLoc;
  let d = 0;
  let tw = 0;
  let e = 0;
  let l = 0;
  let length = 0;
  let last = -1;
  for (let i = 0; i < n; i++) {
    const s = seq[i]!;
    const loc = stopLoc[s]!;
    const w = winOffset[s]!;
    const sd = stopDur[s]!;
    const se = winStart[w]!;
    const sl = latestStart(winEnd, w, sd);
    if (last < 0) {
      d = sd;
      tw = 0;
      e = se;
      l = sl;
      length = 0;
    } else {
      const t = dur[last * N + loc]!;
      const delta = d - tw + t;
      const waitGap = se - delta - l;
      const wait = waitGap > 0 ? waitGap : 0;
      const warpGap = e + delta - sl;
      const warp = warpGap > 0 ? warpGap : 0;
      const ne = Math.max(se - delta, e) - wait;
      const nl = Math.min(sl - delta, l) + warp;
      d = d + sd + t + wait;
      tw = tw + warp;
      e = ne;
      l = nl;
      length += dist[last * N + loc]!;
    }
    last = loc;
    storeSummary(pre, i, d, tw, e, l, length, last, i + 1);
    for (let k = 0; k < dims; k++) preLoad[i * dims + k] = (i === 0 ? 0 : preLoad[(i - 1) * dims + k]!) + stopLoad[s * dims + k]!;
  }
}

/** The suffixes' summaries of seq[0..n), each stop prepended as RouteSegments.prependStop prepends it, the sums in locals (storePrefixes). */
export function storeSuffixes(
  inst: SolverInstance,
  dur: Int32Array,
  seq: Int32Array,
  n: number,
  suf: Float64Array,
  sufLoad: Float64Array,
): void {
  const { stopLoc, winOffset, winStart, winEnd, stopDur, stopLoad, dims } = inst;
  const dist = inst.dist;
  const N = inst.nLoc;
  let d = 0;
  let tw = 0;
  let e = 0;
  let l = 0;
  let length = 0;
  let first = -1;
  let last = -1;
  for (let i = n - 1; i >= 0; i--) {
    const s = seq[i]!;
    const loc = stopLoc[s]!;
    const w = winOffset[s]!;
    const sd = stopDur[s]!;
    const se = winStart[w]!;
    const sl = latestStart(winEnd, w, sd);
    if (i === n - 1) {
      d = sd;
      tw = 0;
      e = se;
      l = sl;
      length = 0;
      last = loc;
    } else {
      const t = dur[loc * N + first]!;
      const delta = sd + t;
      const waitGap = e - delta - sl;
      const wait = waitGap > 0 ? waitGap : 0;
      const warpGap = se + delta - l;
      const warp = warpGap > 0 ? warpGap : 0;
      const ne = Math.max(e - delta, se) - wait;
      const nl = Math.min(l - delta, sl) + warp;
      d = sd + d + t + wait;
      tw = tw + warp;
      e = ne;
      l = nl;
      length += dist[loc * N + first]!;
    }
    first = loc;
    storeSummary(suf, i, d, tw, e, l, length, last, n - i);
    for (let k = 0; k < dims; k++) sufLoad[i * dims + k] = (i === n - 1 ? 0 : sufLoad[(i + 1) * dims + k]!) + stopLoad[s * dims + k]!;
  }
}

/** Stores summary i of a stretch without sequenced stops (storePrefixes, storeSuffixes): its sequence fields 0. */
function storeSummary(
  arr: Float64Array,
  i: number,
  d: number,
  tw: number,
  e: number,
  l: number,
  dist: number,
  last: number,
  stops: number,
): void {
  const o = i * FIELDS;
  arr[o] = d;
  arr[o + 1] = tw;
  arr[o + 2] = e;
  arr[o + 3] = l;
  arr[o + 4] = dist;
  arr[o + 5] = last;
  arr[o + 6] = stops;
  arr[o + 7] = 0;
  arr[o + 8] = 0;
  arr[o + 9] = 0;
}
