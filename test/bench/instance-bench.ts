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
import { leverOfName, type LeverName, type Levers } from '../../src/solver/levers.js';

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
  /** The levers switched on or off (`--with`, `--without`); absent ones take their defaults. */
  levers: Levers;
}

/** The solve options that switch off the levers named by `--without` and on those named by `--with`. */
export function leverOptions(args: { without: readonly LeverName[]; with: readonly LeverName[] }): Levers {
  const levers: Levers = {};
  for (const [names, on] of [
    [args.without, false],
    [args.with, true],
  ] as const) {
    for (const name of names) levers[leverOfName(name)!] = on;
  }
  return levers;
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
      ...options.levers,
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
