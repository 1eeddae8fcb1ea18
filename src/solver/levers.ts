/**
 * The solver's levers (SolveOptions: SWAP*, the population, the wider ruin, …), handed on as
 * given wherever a search starts: the solve (index.ts), each search of a plan (improve.ts) and the
 * decomposition's sub-searches (decompose/search.ts). One list, so that a new lever reaches all.
 */
import type { SearchLimits } from './search/search.js';

export type Levers = Pick<
  SearchLimits,
  | 'prizeInSearch'
  | 'swapStar'
  | 'fewLsNeighbours'
  | 'swapStarSectors'
  | 'widerRuin'
  | 'stringSwaps'
  | 'changedRoutesOnly'
  | 'swapStarNearOnly'
  | 'changedStopsOnly'
  | 'penalisedCapacity'
  | 'largeLocalSearch'
  | 'population'
  | 'fleetMinimisation'
  | 'fleetAtStall'
>;

export function leversOf(options: Levers): Levers {
  return {
    prizeInSearch: options.prizeInSearch,
    swapStar: options.swapStar,
    fewLsNeighbours: options.fewLsNeighbours,
    swapStarSectors: options.swapStarSectors,
    widerRuin: options.widerRuin,
    stringSwaps: options.stringSwaps,
    changedRoutesOnly: options.changedRoutesOnly,
    swapStarNearOnly: options.swapStarNearOnly,
    changedStopsOnly: options.changedStopsOnly,
    penalisedCapacity: options.penalisedCapacity,
    largeLocalSearch: options.largeLocalSearch,
    population: options.population,
    fleetMinimisation: options.fleetMinimisation,
    fleetAtStall: options.fleetAtStall,
  };
}
