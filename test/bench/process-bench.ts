/**
 * `npm run bench -- --process`: each instance solved by a fresh `routeplan solve` process, as
 * users run it (issue 26). The in-process bench warms Node's JIT before timing; a fresh process
 * pays module loading and runs its first plans in V8's interpreter, which at 0.1 s decides the
 * plan. The plan is read from the process's `--json` output, checked by the independent checker
 * and re-measured on the instance's matrix like every other plan of the bench.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Problem } from '../../src/model/problem.js';
import type { Plan } from '../../src/output/plan-types.js';
import { LEVER_NAMES, type Levers } from '../../src/solver/levers.js';
import { checkPlan } from '../support/checker.js';
import { repoRoot, type BksEntry, type InstanceEntry } from './benchmark-data.js';
import { gapPercent } from './report.js';

/** One fresh-process solve of an instance. */
export interface ProcessResult {
  /** Which binary ran: `routeplan` (this checkout) or `baseline`. */
  label: string;
  cost: number | null;
  gapPct: number | null;
  /** Search iterations the process reported (0: the first plan, polished at most, was returned). */
  iterations: number | null;
  /**
   * Why the search ended (the plan's `solver.stop_reason`): `no_improvement` where it stopped by
   * itself, `time` where the limit cut it; a lever that acts only at a stall acts only on the former.
   */
  stopReason: string | null;
  unserved: number | null;
  /** Routes the plan uses (issue 26: beside the best-known plans' route counts). */
  routes: number | null;
  /** Wall time of the whole process: start-up, reading, solving, writing. */
  wallSec: number;
  /** The solver's own elapsed time as the process reported it. */
  solveSec: number | null;
  feasible: boolean;
  problems: string[];
  error: string | null;
}

export interface ProcessRunOptions {
  /** The `bin/routeplan` script to run with this Node. */
  bin: string;
  label: string;
  timeSeconds: number;
  seed: number;
  threads: number;
  /** Levers switched on or off (`--levers`); the baselines run without. */
  levers?: Levers;
}

/** This checkout's `bin/routeplan`. */
export function ownBin(): string {
  return join(repoRoot(), 'bin', 'routeplan');
}

/** The command line of one solve (without the Node executable). */
export function processArgs(entry: Pick<InstanceEntry, 'path' | 'format'>, options: ProcessRunOptions): string[] {
  return [
    options.bin,
    'solve',
    entry.path,
    '--format',
    entry.format,
    '--time-limit',
    String(options.timeSeconds),
    '--seed',
    String(options.seed),
    '--threads',
    String(options.threads),
    '--json',
    '--quiet',
    ...leversFlag(options.levers ?? {}),
  ];
}

/** `--levers swap-star=off,population=on`, or nothing when no lever is switched. */
export function leversFlag(levers: Levers): string[] {
  const list = (Object.keys(levers) as (keyof Levers)[]).map((key) => `${LEVER_NAMES[key]}=${levers[key] ? 'on' : 'off'}`);
  return list.length === 0 ? [] : ['--levers', list.join(',')];
}

export async function benchProcess(
  problem: Problem,
  entry: InstanceEntry,
  bks: BksEntry | null,
  options: ProcessRunOptions,
): Promise<ProcessResult> {
  const started = performance.now();
  const run = await execute(process.execPath, processArgs(entry, options));
  const wallSec = (performance.now() - started) / 1000;
  const failed = (error: string): ProcessResult => ({
    label: options.label,
    cost: null,
    gapPct: null,
    iterations: null,
    stopReason: null,
    unserved: null,
    routes: null,
    wallSec,
    solveSec: null,
    feasible: false,
    problems: [error],
    error,
  });
  let plan: Plan;
  try {
    plan = JSON.parse(run.stdout) as Plan;
  } catch {
    return failed(`exit ${run.code}, no JSON plan: ${run.stderr.trim().slice(0, 200)}`);
  }
  if (run.code !== 0) return failed(`exit ${run.code}: ${run.stderr.trim().slice(0, 200)}`);
  const problems = checkPlan(problem, plan);
  const cost = planDistanceFromMatrix(problem, plan) / problem.units.distancePerReported;
  return {
    label: options.label,
    cost,
    gapPct: bks === null ? null : gapPercent(cost, bks.distance),
    iterations: plan.solver?.iterations ?? null,
    stopReason: plan.solver?.stop_reason ?? null,
    unserved: plan.unserved.length,
    routes: plan.routes.filter((route) => route.visits.some((visit) => visit.kind === 'stop')).length,
    wallSec,
    solveSec: plan.solver?.elapsed_s ?? null,
    feasible: problems.length === 0,
    problems,
    error: null,
  };
}

/** Distance of the plan's stop sequences re-measured on the matrix, independent of the plan's own sums. */
export function planDistanceFromMatrix(problem: Problem, plan: Plan): number {
  const n = problem.travel.size;
  let total = 0;
  for (const route of plan.routes) {
    const vehicle = problem.vehicles[route.vehicle_index]!;
    let at = vehicle.startLocation;
    for (const visit of route.visits) {
      if (visit.kind !== 'stop') continue;
      const location = problem.stops[visit.stop_index]!.location;
      total += problem.travel.distance[at * n + location]!;
      at = location;
    }
    if (vehicle.endLocation >= 0) total += problem.travel.distance[at * n + vehicle.endLocation]!;
  }
  return total;
}

function execute(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolvePromise({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}

/** Means over the plans that are feasible and serve everyone, with the count of zero-iteration runs. */
export interface ProcessSummary {
  label: string;
  runs: number;
  complete: number;
  meanGapPct: number | null;
  zeroIterations: number;
  /** Runs whose search stopped by itself (`no_improvement`) before the limit; null where not reported. */
  stoppedByItself: number | null;
  meanIterations: number | null;
  meanWallSec: number;
  infeasible: number;
}

export function summarizeProcess(label: string, results: ProcessResult[]): ProcessSummary {
  const complete = results.filter((r) => r.error === null && r.feasible && r.unserved === 0 && r.gapPct !== null);
  const iterations = results.map((r) => r.iterations).filter((i): i is number => i !== null);
  return {
    label,
    runs: results.length,
    complete: complete.length,
    meanGapPct: mean(complete.map((r) => r.gapPct!)),
    zeroIterations: iterations.filter((i) => i === 0).length,
    stoppedByItself: results.filter((r) => r.stopReason === 'no_improvement').length,
    meanIterations: mean(iterations),
    meanWallSec: mean(results.map((r) => r.wallSec)) ?? 0,
    infeasible: results.filter((r) => r.error !== null || !r.feasible).length,
  };
}

export function formatProcessSummary(rows: ProcessSummary[]): string {
  const header = [
    'solver'.padEnd(22),
    'runs'.padStart(5),
    'complete'.padStart(9),
    'mean gap%'.padStart(10),
    'zero-it'.padStart(8),
    'own-stop'.padStart(9),
    'mean it'.padStart(9),
    'wall s'.padStart(7),
  ];
  const lines = rows.map((r) =>
    [
      r.label.padEnd(22),
      String(r.runs).padStart(5),
      String(r.complete).padStart(9),
      (r.meanGapPct === null ? '-' : r.meanGapPct.toFixed(2)).padStart(10),
      String(r.zeroIterations).padStart(8),
      (r.stoppedByItself === null ? '-' : String(r.stoppedByItself)).padStart(9),
      (r.meanIterations === null ? '-' : r.meanIterations.toFixed(0)).padStart(9),
      r.meanWallSec.toFixed(2).padStart(7),
    ].join(' '),
  );
  return [header.join(' '), ...lines].join('\n');
}

/** One row cell per process result: gap, iterations, routes, wall time, and `stall` where the search stopped by itself. */
export function formatProcessCell(r: ProcessResult): string {
  if (r.error !== null) return `${r.label}: failed`;
  const gap = r.gapPct === null ? '-' : `${r.gapPct.toFixed(2)}%`;
  return `${r.label} ${gap} it ${r.iterations ?? '-'} routes ${r.routes ?? '-'} ${r.wallSec.toFixed(2)} s${r.stopReason === 'no_improvement' ? ' stall' : ''}${r.feasible ? '' : ' INFEASIBLE'}`;
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}
