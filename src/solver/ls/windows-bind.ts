/**
 * Whether stops' windows bind: the one test of it for the solver's settings that differ where they
 * do not (windowless.ts, SWAP*, the local search's neighbours, the fleet minimisation, the arcs
 * deciding moves). Kept apart from the moves so that any of them may read it.
 */
import type { SolverInstance } from '../instance.js';

/**
 * Whether some stop's window leaves out part of the vehicles' working day. There SWAP* does not
 * pay: its arc pricing ignores the windows, most of its cheapest pairs are late somewhere, and in
 * one interleaved run it cost Solomon's 56 a fifth more time for the same gap at 1,000 iterations
 * (0.54 % either way) and Gehring–Homberger 1000 a third of its iterations at 10 s, while CVRP X
 * (no windows) gained 1.0 point of gap at 10 s (README, Benchmarks). Pricing the places by the
 * segment summaries there (`byWindows`) did not change that (SWAP_STAR_UNDER_WINDOWS says how).
 */
export function windowsBind(inst: SolverInstance): boolean {
  let dayStart = Infinity;
  let dayEnd = -Infinity;
  for (let v = 0; v < inst.nVehicles; v++) {
    dayStart = Math.min(dayStart, inst.vDepart0[v]!);
    dayEnd = Math.max(dayEnd, inst.vShiftEnd[v]!);
  }
  for (let w = 0; w < inst.winStart.length; w++) if (inst.winStart[w]! > dayStart || inst.winEnd[w]! < dayEnd) return true;
  return false;
}
