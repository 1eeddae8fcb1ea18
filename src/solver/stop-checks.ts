/** Checks of one stop on its own, which the unserved reasons share. */
import { NO_ROAD } from '../model/travel.js';
import type { SolverInstance } from './instance.js';

/** Whether vehicle v can neither drive from its start to the stop nor from the stop to its end. */
export function noRoadAlone(inst: SolverInstance, v: number, s: number): boolean {
  const N = inst.nLoc;
  const loc = inst.stopLoc[s]!;
  const dur = inst.vDur[v]!;
  const end = inst.vEndLoc[v]!;
  return dur[inst.vStartLoc[v]! * N + loc]! >= NO_ROAD || (end >= 0 && dur[loc * N + end]! >= NO_ROAD);
}

export function anyWindowLongEnough(inst: SolverInstance, s: number): boolean {
  const d = inst.stopDur[s]!;
  const maxLate = inst.stopMaxLate[s]!;
  for (let w = inst.winOffset[s]!, e = inst.winOffset[s + 1]!; w < e; w++) {
    if (inst.winStart[w]! + d <= inst.winEnd[w]! + maxLate) return true;
  }
  return false;
}

export function formatDuration(inst: SolverInstance, duration: number): string {
  const seconds = duration / inst.problem.units.timePerSecond;
  if (inst.problem.surface === 'benchmark') return `${duration / 10} time units`;
  const minutes = seconds / 60;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)} min`;
}
