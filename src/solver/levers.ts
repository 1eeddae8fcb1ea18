/**
 * The solver's levers: the search's parts and rules that can be switched on or off (SWAP*, the
 * population, the wider ruin, …), each with its default in params.ts and the measurements behind
 * it. This is their one list: SolveOptions takes them, every search is handed them as given
 * (leversOf: the solve in index.ts, each search of a plan in improve.ts, the decomposition's
 * sub-searches in decompose/search.ts), and LEVER_NAMES names them for `routeplan solve --levers`
 * and the bench's ablation rows (`npm run bench -- --without swap-star`). A new lever is a member
 * here and a name there; the compiler asks for the name.
 */

/** The levers every search is handed (leversOf). Absent: the lever's default (params.ts). */
export interface SearchLevers {
  /**
   * Experimental, off by default: also run the prize moves (ls/prize.ts) on the search's
   * candidates, not only on the best plan once the search ends. Kept for the bench to measure the
   * lever. Off because, measured at a fixed iteration count (3 solver seeds × 24 generated
   * feature-rich problems with unserved stops, two families), claiming in the search changed the
   * search's path and gained about as much priority as it lost (+115 / −87 in total, 15 plans
   * better, 10 worse), while the final pass alone gained +33 on 7 plans and never loses: the plan
   * is the search's, plus what the pass claims.
   */
  prizeInSearch?: boolean | undefined;
  /**
   * SWAP* between neighbouring routes in the local search (ls/moves/swap-star.ts). Absent: on
   * where no stop's window leaves out part of the working day (windowsBind: it paid on CVRP, not
   * with windows). False for the bench's ablation row (`npm run bench -- --without swap-star`).
   */
  swapStar?: boolean | undefined;
  /**
   * Fewer granular neighbours in the local search from FEW_LS_NEIGHBOURS_MIN_STOPS stops on
   * (params.ts, FEW_LS_NEIGHBOURS_BY_DEFAULT, says why: on Gehring–Homberger 1,000 the polish took
   * 80% of the search, but a 1,000-stop project whose moves are priced exactly lost 8–11% of
   * working time). Absent: on where windows bind and moves are priced by the segment summaries
   * (fewNeighboursPay in ls/local-search.ts). False for the bench's ablation row
   * (`npm run bench -- --without few-ls-neighbours`), true to force it (`--with few-ls-neighbours`).
   */
  fewLsNeighbours?: boolean | undefined;
  /**
   * SWAP* also pairs a changed route with the routes whose polar sectors around the depot overlap
   * its own (HGS-CVRP's pruning; ls/moves/sectors.ts), beside those holding its stops' near
   * neighbours. Absent: off (params.ts, SWAP_STAR_SECTORS, says why). True for the bench's row with
   * it (`npm run bench -- --with swap-star-sectors`).
   */
  swapStarSectors?: boolean | undefined;
  /**
   * A wider ruin where no window binds: AVG_REMOVED_WITHOUT_WINDOWS stops on average instead of
   * AVG_REMOVED (windowless.ts). Absent: WIDER_RUIN_BY_DEFAULT (params.ts says why). False for the
   * bench's ablation row (`npm run bench -- --without wider-ruin`).
   */
  widerRuin?: boolean | undefined;
  /**
   * The string swaps (HGS-CVRP's SWAP(2,1) and SWAP(2,2), ls/moves/swap-strings.ts) in the local
   * search where no window binds (windowless.ts). Absent: STRING_SWAPS_BY_DEFAULT (params.ts says
   * why). True for the bench's row with them (`npm run bench -- --with string-swaps`).
   */
  stringSwaps?: boolean | undefined;
  /**
   * Where windows bind, from MORE_BLINKS_MIN_STOPS stops on, the recreate skips a share
   * BLINK_RATE_LARGE_WINDOWED of the insertion positions instead of BLINK_RATE (windowless.ts,
   * blinkRate). Absent: MORE_BLINKS_BY_DEFAULT (params.ts says why: off).
   */
  moreBlinks?: boolean | undefined;
  /**
   * Where no window binds, from PENALISED_CAPACITY_MIN_STOPS stops on, the polish after each ruin and
   * recreate may load vehicles above their capacity at a penalty a unit of excess, then repairs
   * (search/penalised-polish.ts, HGS-CVRP's penalised local search). Absent:
   * PENALISED_CAPACITY_BY_DEFAULT (params.ts).
   */
  penalisedCapacity?: boolean | undefined;
  /**
   * Where windows bind, the polish after each ruin and recreate may let routes break windows at a
   * penalty a unit of time warp, then repairs (search/penalised-polish.ts, HGS-TW's penalised local
   * search). Absent: PENALISED_WINDOWS_BY_DEFAULT (params.ts). True for the bench's row with it
   * (`npm run bench -- --with penalised-windows`).
   */
  penalisedWindows?: boolean | undefined;
  /**
   * Where no window binds, from FEW_LS_NEIGHBOURS_MIN_STOPS stops on, the polish after a ruin and
   * recreate examines only the stops of the changed routes (windowless.ts,
   * changedRoutesOnlyWithoutWindows). Absent: CHANGED_ROUTES_ONLY_WITHOUT_WINDOWS (params.ts says
   * why). False for the bench's ablation row (`npm run bench -- --without changed-routes-only`).
   */
  changedRoutesOnly?: boolean | undefined;
  /**
   * Where no window binds, from SWAP_STAR_NEAR_ONLY_MIN_STOPS stops on, SWAP* trades a stop only into
   * a route holding one of its granular neighbours (windowless.ts, swapStarNearOnlyWithoutWindows).
   * Absent: SWAP_STAR_NEAR_ONLY_WITHOUT_WINDOWS (params.ts says why). False for the bench's ablation
   * row (`npm run bench -- --without swap-star-near-only`).
   */
  swapStarNearOnly?: boolean | undefined;
  /**
   * Where no window binds, from CHANGED_STOPS_ONLY_MIN_STOPS stops on, the local search skips a pair
   * of stops neither of whose surroundings changed since the first was last examined (windowless.ts,
   * changedStopsOnlyWithoutWindows; ls/changed-stops.ts). Absent: CHANGED_STOPS_ONLY_WITHOUT_WINDOWS
   * (params.ts says why: off). True for the bench's row with it (`npm run bench -- --with changed-stops-only`).
   */
  changedStopsOnly?: boolean | undefined;
  /**
   * The solver's own numbering of locations, near locations near in the matrix, from
   * LOCAL_ORDER_MIN_LOCATIONS on (local-order.ts): the same plans, read from fewer cache lines.
   * Absent: LOCAL_ORDER_BY_DEFAULT. False for the bench's ablation row (`--without local-order`).
   */
  localOrder?: boolean | undefined;
  /**
   * Experimental, off by default: the local search on problems above 1,000 stops whose moves are
   * priced by the exact evaluator (breaks, several windows, lateness…: LocalSearch.create), on
   * fewer neighbours and within the exact polish's budget of work. Kept for the bench to measure
   * (`npm run bench -- --with large-ls`): on the generated 5,000-stop problem at 60 s, on a machine
   * at a load of 14–20, two rounds went one each way (3.66 M vs 3.72 M s of working time, then
   * 3.72 M vs 3.60 M), every run ending at 0 iterations: not shown to pay.
   */
  largeLocalSearch?: boolean | undefined;
  /**
   * Restarts of a stalled ruin-and-recreate trajectory from children of an elite pool (SREX
   * crossover, HGS's diversity management: search/restarts.ts). Absent: POPULATION_BY_DEFAULT
   * (params.ts, with the measurement behind it). False for the bench's ablation row
   * (`npm run bench -- --without population`).
   */
  population?: boolean | undefined;
  /**
   * The fleet minimisation once during the search (SISR's: a route taken out, its stops fitted into
   * the others by ruin and recreate; search/fleet.ts), where windows bind, from FLEET_MIN_STOPS stops
   * on. Absent: FLEET_MINIMISATION_BY_DEFAULT (params.ts, off, with the measurement behind it). True
   * for the bench's row with it (`npm run bench -- --with fleet-minimisation`).
   */
  fleetMinimisation?: boolean | undefined;
  /**
   * The fleet minimisation where a search stalls, on windowed problems up to FLEET_AT_STALL_MAX_STOPS
   * stops: a plan serving every stop with fewer routes becomes the current one and the search goes on
   * cold for a fresh stall budget (search/fleet-at-stall.ts). Absent: FLEET_AT_STALL_BY_DEFAULT
   * (params.ts). `npm run bench -- --with fleet-at-stall` / `--without fleet-at-stall`.
   */
  fleetAtStall?: boolean | undefined;
}

/** Every lever: the search's, and those the solve alone reads (its cooling, its prize pass, its second searches). */
export interface Levers extends SearchLevers {
  /**
   * A longer cooling where no window binds, from COOL_LONGER_MIN_STOPS stops on (windowless.ts,
   * coolWorkFor), with a stall as much longer (stallLimitsFor), for a search that may stop by
   * itself. Absent: LONGER_COOLING_BY_DEFAULT (params.ts says why). The bench's in-process solves
   * do not stop by themselves: compare a build with it on in fresh processes (`--process --baseline`).
   */
  longerCooling?: boolean | undefined;
  /**
   * The final prize pass's share of work (search/claim.ts), its time kept back before the
   * deadline. Absent: on. False for the bench's ablation row (`npm run bench -- --without
   * prize-claim`): the pass then runs until half the output reserve past the deadline, as before.
   */
  prizeClaim?: boolean | undefined;
  /**
   * Route minimisation by an ejection pool (Nagata & Bräysy 2009) where a windowed search of up to
   * EJECTION_POOL_MAX_STOPS stops stops by itself: a route is taken out of its best plan and a
   * second search runs with only the remaining vehicles, its plan kept when it ends better
   * (fewer-routes.ts, search/ejection-pool.ts). Absent: EJECTION_POOL_BY_DEFAULT (params.ts).
   */
  ejectionPool?: boolean | undefined;
  /**
   * One more search from its own first plan where a search of RESTART_MIN_STOPS to REHEAT_MAX_STOPS
   * stops, windows binding, stops by itself; the better plan wins (restart-at-stall.ts). Absent:
   * RESTART_AT_STALL_BY_DEFAULT (params.ts, RESTART_MIN_STOPS says why). False for the bench's
   * ablation row, in fresh processes (`npm run bench -- --process --without restart-at-stall`).
   */
  restartAtStall?: boolean | undefined;
}

/** Each lever's name where people type it: `routeplan solve --levers swap-star=off`, `npm run bench -- --without swap-star`. */
export const LEVER_NAMES = {
  prizeInSearch: 'prize-in-search',
  swapStar: 'swap-star',
  fewLsNeighbours: 'few-ls-neighbours',
  swapStarSectors: 'swap-star-sectors',
  widerRuin: 'wider-ruin',
  stringSwaps: 'string-swaps',
  moreBlinks: 'more-blinks',
  penalisedCapacity: 'penalised-capacity',
  penalisedWindows: 'penalised-windows',
  changedRoutesOnly: 'changed-routes-only',
  swapStarNearOnly: 'swap-star-near-only',
  changedStopsOnly: 'changed-stops-only',
  localOrder: 'local-order',
  longerCooling: 'longer-cooling',
  prizeClaim: 'prize-claim',
  largeLocalSearch: 'large-ls',
  population: 'population',
  fleetMinimisation: 'fleet-minimisation',
  fleetAtStall: 'fleet-at-stall',
  ejectionPool: 'ejection-pool',
  restartAtStall: 'restart-at-stall',
} as const satisfies Record<keyof Levers, string>;

export type LeverName = (typeof LEVER_NAMES)[keyof Levers];

/** The levers the solve alone reads; every other one is handed on to each search. */
const SOLVE_ONLY: readonly Exclude<keyof Levers, keyof SearchLevers>[] = ['longerCooling', 'prizeClaim', 'ejectionPool', 'restartAtStall'];

/** The search's levers that `options` gives, to hand on to a search. */
export function leversOf(options: SearchLevers): SearchLevers {
  const given: Levers = options;
  const levers: Levers = {};
  for (const key of Object.keys(LEVER_NAMES) as (keyof Levers)[]) {
    if (given[key] !== undefined && !(SOLVE_ONLY as readonly string[]).includes(key)) levers[key] = given[key];
  }
  return levers;
}

/** The option a lever's name switches, or undefined for a name that is none. */
export function leverOfName(name: string): keyof Levers | undefined {
  return (Object.keys(LEVER_NAMES) as (keyof Levers)[]).find((key) => LEVER_NAMES[key] === name);
}
