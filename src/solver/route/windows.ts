/**
 * Service at a stop (decisions.md): its duration (squashed after an order at the same
 * location), its start in one window, and the greedy window choice — the first window in
 * which the service can start (not before arrival, not split by a break) and finish inside,
 * else the least late one within the stop's lateness allowance.
 */
import type { SolverInstance } from '../instance.js';
import { pastBreaks } from './breaks.js';

/** Where and when a service starts: a reused output of the window choice. */
export class ServiceChoice {
  start = 0;
  late = 0;
  windowEnd = 0;
  win = 0;

  set(w: number, start: number, late: number, windowEnd: number): this {
    this.start = start;
    this.late = late;
    this.windowEnd = windowEnd;
    this.win = w;
    return this;
  }

  /** Service of `duration` reached at `arrival` in window `w`; null when later than `maxLate` allows. */
  inWindow(inst: SolverInstance, v: number, w: number, arrival: number, duration: number, maxLate: number): this | null {
    const windowEnd = inst.winEnd[w]!;
    const start = serviceStart(inst, v, w, arrival, duration);
    let late = start + duration - windowEnd;
    if (late <= 0) late = 0;
    else if (late > maxLate) return null;
    return this.set(w, start, late, windowEnd);
  }
}

/** Effective service duration of `s` given the location of the stop served just before (-1: none). */
export function serviceDuration(inst: SolverInstance, s: number, prevStopLoc: number): number {
  const d = inst.stopDur[s]!;
  if (inst.squash >= 0 && prevStopLoc === inst.stopLoc[s] && d > inst.squash) return inst.squash;
  return d;
}

/** Earliest start in window `w` of a service of `duration` reached at `arrival`, not split by a break. */
export function serviceStart(inst: SolverInstance, v: number, w: number, arrival: number, duration: number): number {
  const ws = inst.winStart[w]!;
  return pastBreaks(inst, v, arrival > ws ? arrival : ws, duration);
}

/**
 * Picks the service start of stop `s` reached at `arrival` by the greedy window choice into
 * `out`; null when no window works.
 */
export function chooseStart(
  inst: SolverInstance,
  v: number,
  s: number,
  arrival: number,
  duration: number,
  out: ServiceChoice,
): ServiceChoice | null {
  const maxLate = inst.stopMaxLate[s]!;
  let found = false;
  let bestLate = Infinity;
  for (let w = inst.winOffset[s]!, e = inst.winOffset[s + 1]!; w < e; w++) {
    const windowEnd = inst.winEnd[w]!;
    // Even starting at arrival this window would be too late.
    if (arrival + duration - windowEnd > maxLate) continue;
    const start = serviceStart(inst, v, w, arrival, duration);
    const late = start + duration - windowEnd;
    if (late <= 0) return out.set(w, start, 0, windowEnd);
    if (late <= maxLate && late < bestLate) {
      bestLate = late;
      found = true;
      out.set(w, start, late, windowEnd);
    }
  }
  return found ? out : null;
}
