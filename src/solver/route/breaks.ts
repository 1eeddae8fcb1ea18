/**
 * Breaks along a route (decisions.md): a leg that overlaps a break is paused for the break's
 * length, a leg or a departure that would begin inside a break begins at its end, and a
 * service is never split by a break. The vehicle's breaks are `brStart/brEnd[brOffset[v]..)`,
 * sorted and disjoint; a vehicle without breaks makes every function here the identity.
 */
import type { SolverInstance } from '../instance.js';

export function hasBreaks(inst: SolverInstance, v: number): boolean {
  return inst.brOffset[v + 1]! > inst.brOffset[v]!;
}

/** Arrival after driving `duration` from `time`, paused by the vehicle's breaks. */
export function drive(inst: SolverInstance, v: number, time: number, duration: number): number {
  if (duration === 0) return time;
  let t = time;
  let left = duration;
  for (let b = inst.brOffset[v]!, e = inst.brOffset[v + 1]!; b < e; b++) {
    const bs = inst.brStart[b]!;
    const be = inst.brEnd[b]!;
    if (be <= t) continue;
    if (t >= bs) {
      t = be;
      continue;
    }
    if (t + left <= bs) return t + left;
    left -= bs - t;
    t = be;
  }
  return t + left;
}

/** Latest time a leg of `leg` (paused by the vehicle's breaks) can begin and arrive by `arrival`. */
export function latestLegStart(inst: SolverInstance, v: number, arrival: number, leg: number): number {
  if (leg === 0) return arrival;
  let t = arrival;
  let left = leg;
  for (let b = inst.brOffset[v + 1]! - 1, b0 = inst.brOffset[v]!; b >= b0; b--) {
    const bs = inst.brStart[b]!;
    const be = inst.brEnd[b]!;
    if (bs >= t) continue;
    // A leg never ends inside (bs, be]: it ends by bs or resumes at be and ends after it.
    if (t <= be) {
      t = bs;
      continue;
    }
    if (t - left >= be) return t - left;
    left -= t - be;
    t = bs;
  }
  return t - left;
}

/** Earliest start ≥ `time` at which a service of `duration` is not split by a break. */
export function pastBreaks(inst: SolverInstance, v: number, time: number, duration: number): number {
  let t = time;
  for (let b = inst.brOffset[v]!, e = inst.brOffset[v + 1]!; b < e; b++) {
    if (t < inst.brEnd[b]! && t + duration > inst.brStart[b]!) t = inst.brEnd[b]!;
  }
  return t;
}

/** Latest start not after `time` at which a service of `duration` is not split by a break. */
export function latestServiceStart(inst: SolverInstance, v: number, time: number, duration: number): number {
  let t = time;
  for (let b = inst.brOffset[v + 1]! - 1, b0 = inst.brOffset[v]!; b >= b0; b--) {
    const bs = inst.brStart[b]!;
    if (t < inst.brEnd[b]! && t + duration > bs) t = bs - duration;
  }
  return t;
}

/** A departure inside a break waits for its end. */
export function departureAt(inst: SolverInstance, v: number, time: number): number {
  let t = time;
  for (let b = inst.brOffset[v]!, e = inst.brOffset[v + 1]!; b < e; b++) {
    if (t >= inst.brStart[b]! && t < inst.brEnd[b]!) t = inst.brEnd[b]!;
  }
  return t;
}
