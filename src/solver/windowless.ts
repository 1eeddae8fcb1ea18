/**
 * The settings that differ where no stop's window binds (windowsBind: capacity-only problems such
 * as CVRP X), decided here in one place, each from its pair of values in params.ts; and the
 * recreate's blink rate, which differs on large problems where windows do bind (blinkRateOf).
 */
import { windowsBind } from './ls/windows-bind.js';
import type { SolverInstance } from './instance.js';
import { coolWorkOf } from './search/accept.js';
import { stallLimitsOf } from './stop/index.js';
import {
  AVG_REMOVED,
  AVG_REMOVED_WITHOUT_WINDOWS,
  BLINK_RATE,
  BLINK_RATE_LARGE_WINDOWED,
  CHANGED_ROUTES_ONLY_WITHOUT_WINDOWS,
  CHANGED_STOPS_ONLY_MIN_STOPS,
  CHANGED_STOPS_ONLY_WITHOUT_WINDOWS,
  SWAP_STAR_NEAR_ONLY_MIN_STOPS,
  SWAP_STAR_NEAR_ONLY_WITHOUT_WINDOWS,
  COOL_LONGER_MIN_STOPS,
  COOL_WORK_FACTOR_WITHOUT_WINDOWS,
  FEW_LS_NEIGHBOURS_MIN_STOPS,
  LONGER_COOLING_BY_DEFAULT,
  LS_NEIGHBOURS,
  LS_NEIGHBOURS_WITHOUT_WINDOWS,
  MORE_BLINKS_BY_DEFAULT,
  MORE_BLINKS_MIN_STOPS,
  STRING_SWAPS_BY_DEFAULT,
  WIDER_RUIN_BY_DEFAULT,
} from './params.js';

export interface WindowSettings {
  /** The local search's granular neighbours per stop (before the size rules of lsNeighboursOf). */
  lsNeighbours: number;
  /** The ruin's average number of removed stops (SISR's c̄; search/ruin.ts). */
  avgRemoved: number;
  /** Whether the local search also trades strings of two stops (ls/moves/swap-strings.ts). */
  stringSwaps: boolean;
}

/**
 * The settings for a problem whose windows bind (`windowed`) or do not; `widerRuin`
 * (SolveOptions.widerRuin, WIDER_RUIN_BY_DEFAULT when absent) widens the ruin where they do not,
 * and `stringSwaps` (SolveOptions.stringSwaps, STRING_SWAPS_BY_DEFAULT when absent) adds the
 * string swaps there.
 */
export function windowSettings(windowed: boolean, widerRuin?: boolean, stringSwaps?: boolean): WindowSettings {
  if (windowed) return { lsNeighbours: LS_NEIGHBOURS, avgRemoved: AVG_REMOVED, stringSwaps: false };
  const avgRemoved = (widerRuin ?? WIDER_RUIN_BY_DEFAULT) ? AVG_REMOVED_WITHOUT_WINDOWS : AVG_REMOVED;
  return { lsNeighbours: LS_NEIGHBOURS_WITHOUT_WINDOWS, avgRemoved, stringSwaps: stringSwaps ?? STRING_SWAPS_BY_DEFAULT };
}

/** The settings for `inst`, by whether its windows bind. */
export function windowSettingsOf(inst: SolverInstance, widerRuin?: boolean): WindowSettings {
  return windowSettings(windowsBind(inst), widerRuin);
}

/**
 * How many times as long as coolWorkOf's a search on `inst` that may stop by itself cools: with
 * `longer` (SolveOptions.longerCooling, LONGER_COOLING_BY_DEFAULT when absent)
 * COOL_WORK_FACTOR_WITHOUT_WINDOWS where windows do not bind, from COOL_LONGER_MIN_STOPS stops on
 * (it says why); else 1.
 */
function coolingFactorOf(inst: SolverInstance, longer?: boolean): number {
  const applies = (longer ?? LONGER_COOLING_BY_DEFAULT) && !windowsBind(inst) && inst.nStops >= COOL_LONGER_MIN_STOPS;
  return applies ? COOL_WORK_FACTOR_WITHOUT_WINDOWS : 1;
}

/** The work a search that may stop by itself cools over on `inst` (coolWorkOf, coolingFactorOf times). */
export function coolWorkFor(inst: SolverInstance, longer?: boolean): number {
  return coolWorkOf(inst.nStops) * coolingFactorOf(inst, longer);
}

/**
 * The stall that stops such a search (stallLimitsOf), its work as many times as long as its cooling
 * is (coolingFactorOf): a longer cooling is longer hot, with longer stretches without a better
 * plan, and the stall of the shorter one cut it a third of the way (COOL_WORK_FACTOR_WITHOUT_WINDOWS
 * says what that cost).
 */
export function stallLimitsFor(inst: SolverInstance, longer?: boolean): ReturnType<typeof stallLimitsOf> {
  const stall = stallLimitsOf(inst.nStops);
  return { ...stall, plateauWork: stall.plateauWork * coolingFactorOf(inst, longer) };
}

/**
 * Whether, where windows do not bind, the local search on `nStops` stops examines only the stops of
 * the routes changed since its last run (ls/local-search.ts, as examinesChangedRoutesOnly does where
 * they bind): with `only` (SolveOptions.changedRoutesOnly, CHANGED_ROUTES_ONLY_WITHOUT_WINDOWS when
 * absent), from FEW_LS_NEIGHBOURS_MIN_STOPS stops on.
 */
export function changedRoutesOnlyWithoutWindows(nStops: number, only?: boolean): boolean {
  return (only ?? CHANGED_ROUTES_ONLY_WITHOUT_WINDOWS) && nStops >= FEW_LS_NEIGHBOURS_MIN_STOPS;
}

/**
 * Whether, where windows do not bind, SWAP* on `nStops` stops trades a stop only into a route that
 * holds one of its granular neighbours (ls/moves/swap-star.ts, setNearOnly): with `only`
 * (SolveOptions.swapStarNearOnly, SWAP_STAR_NEAR_ONLY_WITHOUT_WINDOWS when absent), from
 * SWAP_STAR_NEAR_ONLY_MIN_STOPS stops on.
 */
export function swapStarNearOnlyWithoutWindows(nStops: number, only?: boolean): boolean {
  return (only ?? SWAP_STAR_NEAR_ONLY_WITHOUT_WINDOWS) && nStops >= SWAP_STAR_NEAR_ONLY_MIN_STOPS;
}

/**
 * Whether, where windows do not bind, the local search on `nStops` stops skips a pair of stops
 * neither of whose surroundings changed since the first was last examined (ls/changed-stops.ts):
 * with `only` (SolveOptions.changedStopsOnly, CHANGED_STOPS_ONLY_WITHOUT_WINDOWS when absent), from
 * CHANGED_STOPS_ONLY_MIN_STOPS stops on.
 */
export function changedStopsOnlyWithoutWindows(nStops: number, only?: boolean): boolean {
  return (only ?? CHANGED_STOPS_ONLY_WITHOUT_WINDOWS) && nStops >= CHANGED_STOPS_ONLY_MIN_STOPS;
}

/**
 * The share of insertion positions the recreate skips on `nStops` stops (SISR's blinks; search/recreate.ts):
 * with `more` (SolveOptions.moreBlinks, MORE_BLINKS_BY_DEFAULT when absent) BLINK_RATE_LARGE_WINDOWED
 * where windows bind, from MORE_BLINKS_MIN_STOPS stops on, where a small ruin's stops mostly go back
 * where they were; BLINK_RATE elsewhere.
 */
export function blinkRate(nStops: number, windowed: boolean, more?: boolean): number {
  return (more ?? MORE_BLINKS_BY_DEFAULT) && windowed && nStops >= MORE_BLINKS_MIN_STOPS ? BLINK_RATE_LARGE_WINDOWED : BLINK_RATE;
}

/** The recreate's blink rate for `inst`, by its size and whether its windows bind (blinkRate). */
export function blinkRateOf(inst: SolverInstance, more?: boolean): number {
  return blinkRate(inst.nStops, windowsBind(inst), more);
}
