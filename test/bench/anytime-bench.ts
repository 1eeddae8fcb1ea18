/**
 * The anytime row (`npm run bench -- --set anytime`): generated one-off problems of 1,000 and 2,000
 * orders with a 25th as many routes (too few to serve all), each solved under wall-clock limits
 * 0.01, 0.1, 0.5, 1, 2 and 5 s (the full limit: no stall stop). Priority served must never fall as the limit grows, nor
 * violations rise at equal priority; the row says whether it held. Every plan is checked.
 */
import { loadProblemDocument } from '../../src/input/index.js';
import { buildPlan } from '../../src/output/plan.js';
import { solveInThreads } from '../../src/threads/searches.js';
import { checkPlan } from '../support/checker.js';
import type { BenchArgs } from './args.js';
import { generateLargeProblem } from './generate-large.js';

export const ANYTIME_SIZES = [1000, 2000] as const;
export const ANYTIME_LIMITS_S = [0.01, 0.1, 0.5, 1, 2, 5] as const;

export interface AnytimeRun {
  limitSec: number;
  elapsedSec: number;
  served: number;
  priority: number;
  /** Lateness plus overtime, seconds. */
  violations: number;
  /** Working time, seconds: the objective's cost for these problems. */
  working: number;
  feasible: boolean;
}

export interface AnytimeRow {
  orders: number;
  routes: number;
  runs: AnytimeRun[];
  /** Priority never fell as the limit grew, nor violations rose at equal priority. */
  monotone: boolean;
}

/** Whether each run is at least as good as the one before on priority, then violations. */
export function isMonotone(runs: readonly AnytimeRun[]): boolean {
  return runs.every((run, i) => {
    const before = runs[i - 1];
    if (before === undefined) return true;
    if (run.priority !== before.priority) return run.priority > before.priority;
    return run.violations <= before.violations;
  });
}

export async function runAnytimeBench(args: BenchArgs): Promise<AnytimeRow[]> {
  const rows: AnytimeRow[] = [];
  for (const orders of ANYTIME_SIZES) {
    // Too few routes for every order, so that priority is at stake at every limit.
    const routes = orders / 25;
    const document = generateLargeProblem({ stops: orders, vehicles: routes, seed: args.seed + 1, kind: 'oneoff' });
    const { problem } = loadProblemDocument(document);
    const runs: AnytimeRun[] = [];
    for (const limitSec of ANYTIME_LIMITS_S) {
      const result = await solveInThreads(
        problem,
        { timeLimitMs: limitSec * 1000, seed: args.seed, threads: args.threads, stopWhenStalled: false },
        { inline: args.threads === 1 },
      );
      const plan = JSON.parse(JSON.stringify(buildPlan(problem, result)));
      const s = plan.summary;
      runs.push({
        limitSec,
        elapsedSec: result.stats.elapsedMs / 1000,
        served: s.served,
        priority: s.priority_served,
        violations: s.lateness_s + s.overtime_s,
        working: s.working_s,
        feasible: checkPlan(problem, plan).length === 0,
      });
    }
    rows.push({ orders, routes, runs, monotone: isMonotone(runs) });
  }
  return rows;
}

export function formatAnytimeRows(rows: readonly AnytimeRow[]): string {
  const lines = ['orders routes  limit s  elapsed s  served  priority  violations s  working h  feasible'];
  for (const row of rows) {
    for (const run of row.runs) {
      lines.push(
        [
          String(row.orders).padStart(6),
          String(row.routes).padStart(6),
          run.limitSec.toFixed(2).padStart(8),
          run.elapsedSec.toFixed(2).padStart(10),
          String(run.served).padStart(7),
          String(run.priority).padStart(9),
          String(run.violations).padStart(13),
          (run.working / 3600).toFixed(1).padStart(10),
          (run.feasible ? 'yes' : 'NO').padStart(9),
        ].join(' '),
      );
    }
    lines.push(`  ${row.orders} orders: priority served ${row.monotone ? 'never fell' : 'FELL'} as the limit grew`);
  }
  return lines.join('\n');
}
