/** Runs the solver on benchmark instances one at a time, checks each plan and compares with the BKS. */
import { readFileSync } from 'node:fs';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import type { SolveOptions, SolveResult } from '../../src/solver/types.js';
import { solveInThreads } from '../../src/threads/searches.js';
import { checkPlan, findInsertableUnserved } from '../support/checker.js';
import { familyOf, listInstances, readBks, type BenchmarkSet, type BksEntry, type InstanceEntry } from './benchmark-data.js';
import { gapPercent, type InstanceResult } from './report.js';
import type { Experiment, Lever } from './args.js';
import type { Levers } from '../../src/solver/levers.js';

/** One search on this thread, as the bench has always measured it; several on worker threads. */
const solve = (problem: Problem, options: SolveOptions) => solveInThreads(problem, options, { inline: (options.threads ?? 1) === 1 });

export interface InstanceBenchOptions {
  timeLimitMs: number;
  seed: number;
  threads: number;
  /** Decomposition on (true) or off (false) with several threads; absent: the solver's default. */
  split?: boolean | undefined;
  maxIterations: number | null;
  /** Count local-search moves per operator (`--stats`). */
  operatorStats: boolean;
  /** The experimental prize moves in the search (`--prize-in-search`). */
  prizeInSearch?: boolean;
  /** SWAP* in the local search; off for its ablation row (`--without swap-star`), on also where windows bind (`--with swap-star`). */
  swapStar?: boolean;
  /** Fewer local-search neighbours on large problems; off for its ablation row (`--without few-ls-neighbours`), forced on with `--with few-ls-neighbours`. */
  fewLsNeighbours?: boolean;
  /** SWAP* also between routes whose polar sectors overlap; on for its row (`--with swap-star-sectors`). */
  swapStarSectors?: boolean;
  /** The wider ruin where windows do not bind; off for its ablation row (`--without wider-ruin`). */
  widerRuin?: boolean;
  /** The string swaps where windows do not bind; on for its row (`--with string-swaps`). */
  stringSwaps?: boolean;
  /** Only the changed routes' stops polished on large problems without windows; off for its ablation row (`--without changed-routes-only`). */
  changedRoutesOnly?: boolean;
  /** SWAP* only into routes near a stop on large problems without windows; off for its ablation row (`--without swap-star-near-only`). */
  swapStarNearOnly?: boolean;
  /** Pairs of unchanged stops skipped on problems without windows; on for its row (`--with changed-stops-only`). */
  changedStopsOnly?: boolean;
  /** The solver's own location numbering for the cache; off for its ablation row (`--without local-order`). */
  localOrder?: boolean;
  /** Restarts from an elite pool's children; off for its ablation row (`--without population`), on with `--with population`. */
  population?: boolean;
  /** The fleet minimisation during the search; off for its ablation row (`--without fleet-minimisation`), on with `--with fleet-minimisation`. */
  fleetMinimisation?: boolean;
  /** The fleet minimisation at the stall; off for its ablation row (`--without fleet-at-stall`), on with `--with fleet-at-stall`. */
  fleetAtStall?: boolean;
  /** Penalised capacity in the polish where windows do not bind; on or off for its rows (`--with` / `--without penalised-capacity`). */
  penalisedCapacity?: boolean;
  /** The final prize pass's share of work; off for its ablation row (`--without prize-claim`). */
  prizeClaim?: boolean;
  /** The experimental local search above 1,000 stops priced exactly (`--with large-ls`). */
  largeLocalSearch?: boolean;
}

/** The solve options that switch off the levers named by `--without` and on the experiments named by `--with`. */
export function leverOptions(args: {
  without: readonly Lever[];
  with: readonly Experiment[];
}): Pick<InstanceBenchOptions, Exclude<keyof Levers, 'prizeInSearch'> | 'prizeClaim' | 'localOrder'> {
  return {
    ...(args.without.includes('swap-star') ? { swapStar: false } : {}),
    ...(args.without.includes('population') ? { population: false } : {}),
    ...(args.without.includes('prize-claim') ? { prizeClaim: false } : {}),
    ...(args.without.includes('wider-ruin') ? { widerRuin: false } : {}),
    ...(args.without.includes('few-ls-neighbours') ? { fewLsNeighbours: false } : {}),
    ...(args.without.includes('changed-routes-only') ? { changedRoutesOnly: false } : {}),
    ...(args.without.includes('swap-star-near-only') ? { swapStarNearOnly: false } : {}),
    ...(args.without.includes('local-order') ? { localOrder: false } : {}),
    ...(args.without.includes('fleet-minimisation') ? { fleetMinimisation: false } : {}),
    ...(args.without.includes('fleet-at-stall') ? { fleetAtStall: false } : {}),
    ...(args.without.includes('penalised-capacity') ? { penalisedCapacity: false } : {}),
    ...(args.with.includes('swap-star') ? { swapStar: true } : {}),
    ...(args.with.includes('large-ls') ? { largeLocalSearch: true } : {}),
    ...(args.with.includes('population') ? { population: true } : {}),
    ...(args.with.includes('few-ls-neighbours') ? { fewLsNeighbours: true } : {}),
    ...(args.with.includes('swap-star-sectors') ? { swapStarSectors: true } : {}),
    ...(args.with.includes('string-swaps') ? { stringSwaps: true } : {}),
    ...(args.with.includes('changed-stops-only') ? { changedStopsOnly: true } : {}),
    ...(args.with.includes('fleet-minimisation') ? { fleetMinimisation: true } : {}),
    ...(args.with.includes('fleet-at-stall') ? { fleetAtStall: true } : {}),
    ...(args.with.includes('penalised-capacity') ? { penalisedCapacity: true } : {}),
  };
}

/** The set's instances whose names start with one of `filters` (case-insensitive), at most `limit`. */
export function selectInstances(set: BenchmarkSet, filters: string[], limit: number | null): InstanceEntry[] {
  const wanted = filters.map((f) => f.toLowerCase());
  const selected = listInstances(set).filter((e) => wanted.length === 0 || wanted.some((f) => nameMatches(e.name.toLowerCase(), f)));
  return limit === null ? selected : selected.slice(0, limit);
}

/** A filter is a prefix of the name, or the whole name when it ends in `$` (R1_10_1$ leaves out R1_10_10). */
function nameMatches(name: string, filter: string): boolean {
  return filter.endsWith('$') ? name === filter.slice(0, -1) : name.startsWith(filter);
}

export async function benchInstance(
  set: BenchmarkSet,
  entry: InstanceEntry,
  options: InstanceBenchOptions,
  bksTable = readBks(set),
): Promise<InstanceResult> {
  const problem = loadBenchmarkText(readFileSync(entry.path, 'utf8'), entry.format, entry.name);
  const bks = bksTable.get(entry.name) ?? null;
  const base = {
    instance: entry.name,
    family: familyOf(entry.name),
    customers: problem.stops.length,
    bks: bks?.distance ?? null,
    bksRoutes: bks?.vehicles ?? null,
  };
  const started = performance.now();
  let result: SolveResult;
  try {
    result = await solve(problem, {
      timeLimitMs: options.timeLimitMs,
      seed: options.seed,
      threads: options.threads,
      ...(options.split === undefined ? {} : { split: options.split }),
      operatorStats: options.operatorStats,
      ...(options.prizeInSearch ? { prizeInSearch: true } : {}),
      ...(options.swapStar === undefined ? {} : { swapStar: options.swapStar }),
      ...(options.fewLsNeighbours === undefined ? {} : { fewLsNeighbours: options.fewLsNeighbours }),
      ...(options.swapStarSectors === true ? { swapStarSectors: true } : {}),
      ...(options.widerRuin === false ? { widerRuin: false } : {}),
      ...(options.stringSwaps === true ? { stringSwaps: true } : {}),
      ...(options.changedRoutesOnly === false ? { changedRoutesOnly: false } : {}),
      ...(options.swapStarNearOnly === false ? { swapStarNearOnly: false } : {}),
      ...(options.changedStopsOnly === true ? { changedStopsOnly: true } : {}),
      ...(options.localOrder === false ? { localOrder: false } : {}),
      ...(options.fleetMinimisation === undefined ? {} : { fleetMinimisation: options.fleetMinimisation }),
      ...(options.fleetAtStall === undefined ? {} : { fleetAtStall: options.fleetAtStall }),
      ...(options.penalisedCapacity === undefined ? {} : { penalisedCapacity: options.penalisedCapacity }),
      ...(options.population === undefined ? {} : { population: options.population }),
      ...(options.prizeClaim === false ? { prizeClaim: false } : {}),
      ...(options.largeLocalSearch === true ? { largeLocalSearch: true } : {}),
      // Quality is compared at equal time: the search uses the whole limit.
      stopWhenStalled: false,
      ...(options.maxIterations === null ? {} : { maxIterations: options.maxIterations }),
    });
  } catch (error) {
    return crashed(base, 'solve', error, (performance.now() - started) / 1000);
  }
  const timeSec = (performance.now() - started) / 1000;
  return assess(problem, result, base, bks, timeSec);
}

type Base = Pick<InstanceResult, 'instance' | 'family' | 'customers' | 'bks' | 'bksRoutes'>;

function assess(problem: Problem, result: SolveResult, base: Base, bks: BksEntry | null, timeSec: number): InstanceResult {
  const problems: string[] = [];
  let missedInserts: string[] = [];
  const recomputed = routeDistanceFromMatrix(problem, result);
  const reported = result.routes.reduce((sum, route) => sum + route.distance, 0);
  if (recomputed !== reported) problems.push(`solver reports distance ${reported} but its routes measure ${recomputed} on the matrix`);
  try {
    const plan = buildPlan(problem, result);
    problems.push(...checkPlan(problem, plan));
    // Not a feasibility failure, but a missed level-1 gain worth seeing next to the gap.
    missedInserts = findInsertableUnserved(problem, plan);
  } catch (error) {
    return crashed(base, 'buildPlan/checkPlan', error, timeSec, problems);
  }
  const cost = recomputed / problem.units.distancePerReported;
  return {
    ...base,
    cost,
    gapPct: bks === null ? null : gapPercent(cost, bks.distance),
    routes: result.routes.length,
    timeSec,
    feasible: problems.length === 0,
    unserved: result.unserved.length,
    problems,
    missedInserts,
    error: null,
    ...(result.stats.operators && { operators: result.stats.operators }),
  };
}

function crashed(base: Base, stage: string, error: unknown, timeSec: number, earlier: string[] = []): InstanceResult {
  const message = `${stage}: ${error instanceof Error ? error.message : String(error)}`;
  return {
    ...base,
    cost: null,
    gapPct: null,
    routes: null,
    timeSec,
    feasible: false,
    unserved: null,
    problems: [...earlier, message],
    missedInserts: [],
    error: message,
  };
}

/** Distance of the solver's stop sequences re-measured on the matrix, independent of its own sums. */
export function routeDistanceFromMatrix(problem: Problem, result: SolveResult): number {
  const n = problem.travel.size;
  let total = 0;
  for (const route of result.routes) {
    const vehicle = problem.vehicles[route.vehicle]!;
    let at = vehicle.startLocation;
    for (const visit of route.visits) {
      if (visit.kind !== 'stop') continue;
      const location = problem.stops[visit.stop]!.location;
      total += problem.travel.distance[at * n + location]!;
      at = location;
    }
    if (vehicle.endLocation >= 0) total += problem.travel.distance[at * n + vehicle.endLocation]!;
  }
  return total;
}
