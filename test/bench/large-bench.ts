/**
 * The scale bench: a generated (or given) 5,000-stop / 500-vehicle problem loaded through the
 * input layer, solved once, checked, with time to first plan, final cost and peak memory.
 */
import { leverOptions } from './instance-bench.js';
import { readFileSync } from 'node:fs';
import { loadProblemDocument } from '../../src/input/index.js';
import { buildPlan } from '../../src/output/plan.js';
import type { Problem } from '../../src/model/problem.js';
import type { SolveOptions, SolveProgress } from '../../src/solver/types.js';
import { solveInThreads } from '../../src/threads/searches.js';
import { checkPlan, findInsertableUnserved } from '../support/checker.js';
import { auditLine, auditPriority } from '../support/priority-audit.js';
import type { BenchArgs } from './args.js';
import { generateLargeProblem } from './generate-large.js';

/** One search on this thread, as the bench has always measured it; several on worker threads. */
const solve = (problem: Problem, options: SolveOptions) => solveInThreads(problem, options, { inline: (options.threads ?? 1) === 1 });

export interface LargeBenchResult {
  source: string;
  stops: number;
  vehicles: number;
  loadSec: number;
  /** Solver clock at its first progress report (its first complete plan); null if it never reported. */
  firstPlanSec: number | null;
  firstPlanUnserved: number | null;
  /**
   * Wall time of a probe solve with a 1 ms limit: the solver must still return a complete plan,
   * so this is its time to a first feasible plan whatever its progress cadence.
   */
  probeSec: number;
  probeUnserved: number;
  probeFeasible: boolean;
  solveSec: number;
  stoppedBy: string;
  iterations: number;
  objective: string;
  /** Level-4 cost in reported units: metres for `distance`, seconds of working time for `time`. */
  cost: number;
  distanceKm: number;
  workingHours: number;
  routesUsed: number;
  served: number;
  unserved: number;
  priorityServed: number;
  unservedByReason: Record<string, number>;
  feasible: boolean;
  problems: string[];
  /** Unserved stops the checker could still insert as the plan stands (a missed level-1 gain). */
  insertableUnserved: string[];
  /** The priority audit's counts (test/support/priority-audit.ts): what one move would still claim. */
  priorityAudit: string;
  peakRssMb: number;
  peakHeapMb: number;
}

class MemoryWatch {
  private peakHeap = 0;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => this.sample(), 100);
    this.timer.unref();
    this.sample();
  }

  /** Sampled on a timer and on every progress report (the timer starves while the solver computes). */
  sample(): void {
    this.peakHeap = Math.max(this.peakHeap, process.memoryUsage().heapUsed);
  }

  stop(): { peakRssMb: number; peakHeapMb: number } {
    clearInterval(this.timer);
    this.sample();
    // maxRSS is the kernel's high-water mark in kilobytes: exact, unlike any sampling.
    return { peakRssMb: process.resourceUsage().maxRSS / 1024, peakHeapMb: this.peakHeap / 2 ** 20 };
  }
}

export async function runLargeBench(args: BenchArgs, split?: boolean): Promise<LargeBenchResult> {
  const memory = new MemoryWatch();
  const source = args.input ?? `generated ${args.kind} --stops ${args.stops} --vehicles ${args.vehicles} --seed ${args.seed}`;
  const document: unknown =
    args.input !== null
      ? JSON.parse(readFileSync(args.input, 'utf8'))
      : generateLargeProblem({ stops: args.stops, vehicles: args.vehicles, seed: args.seed, kind: args.kind });

  const loadStarted = performance.now();
  const { problem } = loadProblemDocument(document);
  const loadSec = (performance.now() - loadStarted) / 1000;
  memory.sample();

  const probeStarted = performance.now();
  const probe = await solve(problem, { timeLimitMs: 1, seed: args.seed, threads: args.threads });
  const probeSec = (performance.now() - probeStarted) / 1000;
  const probeFeasible = checkPlan(problem, buildPlan(problem, probe)).length === 0;
  memory.sample();

  let first: SolveProgress | null = null;
  const onProgress = (progress: SolveProgress): void => {
    first ??= progress;
    memory.sample();
  };
  const solveStarted = performance.now();
  const result = await solve(problem, {
    timeLimitMs: args.timeSeconds * 1000,
    seed: args.seed,
    threads: args.threads,
    ...(split === undefined ? {} : { split }),
    onProgress,
    stopWhenStalled: false,
    ...leverOptions(args),
    ...(args.iterations === null ? {} : { maxIterations: args.iterations }),
  });
  const solveSec = (performance.now() - solveStarted) / 1000;

  const plan = buildPlan(problem, result);
  const problems = checkPlan(problem, plan);
  const peaks = memory.stop();
  const insertableUnserved = findInsertableUnserved(problem, plan);
  // Neighbour-limited, so bounded on 5,000 stops too; nothing to do when every stop is served.
  const priorityAudit = auditLine(auditPriority(problem, plan));
  const firstReport = first as SolveProgress | null;
  const unservedByReason: Record<string, number> = {};
  for (const u of plan.unserved) unservedByReason[u.reason] = (unservedByReason[u.reason] ?? 0) + 1;
  return {
    source,
    stops: problem.stops.length,
    vehicles: problem.vehicles.length,
    loadSec,
    firstPlanSec: firstReport === null ? null : firstReport.elapsedMs / 1000,
    firstPlanUnserved: firstReport === null ? null : firstReport.unserved,
    probeSec,
    probeUnserved: probe.unserved.length,
    probeFeasible,
    solveSec,
    stoppedBy: result.stats.stoppedBy,
    iterations: result.stats.iterations,
    objective: problem.objective.cost,
    cost: problem.objective.cost === 'distance' ? plan.summary.distance_m : plan.summary.working_s,
    distanceKm: plan.summary.distance_m / 1000,
    workingHours: plan.summary.working_s / 3600,
    routesUsed: plan.summary.routes_used,
    served: plan.summary.served,
    unserved: plan.summary.unserved,
    priorityServed: plan.summary.priority_served,
    unservedByReason,
    feasible: problems.length === 0,
    problems,
    insertableUnserved,
    priorityAudit,
    ...peaks,
  };
}

export function formatLargeResult(r: LargeBenchResult): string {
  const lines = [
    `source            ${r.source}`,
    `size              ${r.stops} stops, ${r.vehicles} vehicles`,
    `load + matrix     ${r.loadSec.toFixed(2)} s`,
    `first plan probe  ${r.probeSec.toFixed(2)} s wall with a 1 ms limit (${r.probeUnserved} unserved, ${r.probeFeasible ? 'feasible' : 'INFEASIBLE'})`,
    `first progress    ${r.firstPlanSec === null ? 'not reported (no onProgress call)' : `${r.firstPlanSec.toFixed(2)} s (${r.firstPlanUnserved} unserved then)`}`,
    `solve             ${r.solveSec.toFixed(2)} s, stopped by ${r.stoppedBy}, ${r.iterations} iterations`,
    `final cost        ${r.cost.toFixed(0)} (${r.objective === 'distance' ? 'metres' : 'working seconds'}); ${r.distanceKm.toFixed(1)} km, ${r.workingHours.toFixed(1)} working h`,
    `routes used       ${r.routesUsed}`,
    `served/unserved   ${r.served} / ${r.unserved}  ${JSON.stringify(r.unservedByReason)}`,
    `priority served   ${r.priorityServed}`,
    `missed inserts    ${r.insertableUnserved.length} unserved stops would still fit the final plan`,
    `priority audit    ${r.priorityAudit}`,
    `peak memory       ${r.peakRssMb.toFixed(0)} MB RSS (maxRSS), ${r.peakHeapMb.toFixed(0)} MB heap (sampled)`,
    `feasible          ${r.feasible ? 'yes' : `NO (${r.problems.length} checker findings)`}`,
  ];
  for (const p of r.problems.slice(0, 20)) lines.push(`  - ${p}`);
  for (const p of r.insertableUnserved.slice(0, 5)) lines.push(`  ~ ${p}`);
  return lines.join('\n');
}
