/**
 * The solve's time limit as its options give it (SolveOptions.timeLimitMs, endsAt), read alike by
 * one search (index.ts), its restarts (restart-at-stall.ts) and the searches on threads.
 */
import type { SolveOptions } from './types.js';

/** The wall-clock bound in milliseconds; a missing, zero or non-finite limit means none. */
export function timeLimitOf(options: Pick<SolveOptions, 'timeLimitMs'>): number {
  return Number.isFinite(options.timeLimitMs) && options.timeLimitMs > 0 ? options.timeLimitMs : Infinity;
}

/** The time left of the limit, in milliseconds: `timeLimitOf`, or less when the caller's `endsAt` comes sooner. */
export function timeLeftOf(options: Pick<SolveOptions, 'timeLimitMs' | 'endsAt'>): number {
  const limit = timeLimitOf(options);
  if (options.endsAt === undefined) return limit;
  return Math.max(0, Math.min(limit, options.endsAt - absoluteNow()));
}

/** Milliseconds since the epoch at sub-millisecond resolution, read alike on every thread. */
export function absoluteNow(): number {
  return performance.timeOrigin + performance.now();
}
