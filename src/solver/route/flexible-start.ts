/**
 * A flexible vehicle departs as late as possible without making the route end later, making
 * any stop late (or later than its window allows), or breaking a rule. Without breaks, the
 * forward pass's waiting and slack bound the delay directly (evaluator.ts); with breaks,
 * waiting alone does not bound it (a later departure can also drop a break pause from a leg),
 * so the bound is propagated backward here.
 */
import type { SolverInstance } from '../instance.js';
import { latestLegStart, latestServiceStart } from './breaks.js';
import type { PassTrace, RouteRef } from './pass.js';
import { serviceDuration } from './windows.js';

/**
 * The latest ready time at the start of `route` that keeps the end (`end0`) and the lateness
 * of the forward pass described by `trace`, exactly: the latest ready time after the last
 * service that still reaches the end by `end0`, then for each stop the latest service start
 * that keeps its window and lateness (moved before any break it would be split by) and the
 * latest ready time before its leg whose break-paused arrival is not after that. The schedule
 * is monotone in the departure, so this is the latest departure (once moved out of a break).
 */
export function latestDepartureBound(inst: SolverInstance, route: RouteRef, trace: PassTrace, end0: number): number {
  const { v, seq, len } = route;
  const N = inst.nLoc;
  const dur = inst.vDur[v]!;
  const endLoc = inst.vEndLoc[v]!;
  const lastLoc = inst.stopLoc[seq[len - 1]!]!;
  let latest = endLoc >= 0 ? latestLegStart(inst, v, end0, dur[lastLoc * N + endLoc]!) : end0;
  for (let i = len - 1; i >= 0; i--) {
    const s = seq[i]!;
    const loc = inst.stopLoc[s]!;
    const prevStopLoc = i > 0 ? inst.stopLoc[seq[i - 1]!]! : -1;
    const prevLoc = i > 0 ? prevStopLoc : inst.vStartLoc[v]!;
    const d = serviceDuration(inst, s, prevStopLoc);
    const windowEnd = inst.winEnd[trace.win[i]!]!;
    const start0 = trace.start[i]!;
    // A late stop keeps its lateness only by keeping its start; an on-time one may start
    // until its window end allows.
    const keep = start0 + d - windowEnd > 0 ? start0 : windowEnd - d;
    const startBound = latestServiceStart(inst, v, Math.min(latest - d, keep), d);
    latest = latestLegStart(inst, v, startBound, dur[prevLoc * N + loc]!);
  }
  return latest;
}
