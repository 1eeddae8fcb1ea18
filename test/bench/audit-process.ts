/**
 * `node dist/test/bench/audit-process.js <problem file> [--bin path/to/bin/routeplan]... [--limits default,1,2,10] [--rounds n] [--seed s]`
 *
 * The priority audit (test/support/priority-audit.ts) of plans made as users make them: per
 * limit and round, a fresh `routeplan solve <problem> --json` process of each build (this
 * checkout's bin/routeplan first, then every `--bin`, the order rotating per run so machine noise
 * hits them alike), its plan checked by the independent checker and audited. One row per run:
 * served, priority, distance, working hours, iterations, stop reason, process wall time and the
 * audit's counts.
 * `default` runs without `--time-limit`. Exit 1 when a plan is infeasible or a run fails.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';
import { auditPriority, type PriorityAudit } from '../support/priority-audit.js';
import { repoRoot } from './benchmark-data.js';

interface Args {
  problem: string;
  bins: string[];
  limits: string[];
  rounds: number;
  seed: number;
}

interface SolverStats {
  iterations?: number;
  stop_reason?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { problem: '', bins: [join(repoRoot(), 'bin/routeplan')], limits: ['default', '1', '2', '10'], rounds: 1, seed: 0 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => argv[++i] ?? '';
    if (a === '--bin') args.bins.push(resolve(value()));
    else if (a === '--limits') args.limits = value().split(',');
    else if (a === '--rounds') args.rounds = Number(value());
    else if (a === '--seed') args.seed = Number(value());
    else args.problem = a;
  }
  if (args.problem === '')
    throw new Error('usage: audit-process.js <problem file> [--bin path]... [--limits default,1,2,10] [--rounds n] [--seed s]');
  return args;
}

/** One fresh process's plan and wall time, or its error. */
function solveFresh(bin: string, args: Args, limit: string): { plan: Plan; wallSec: number } | { error: string } {
  const flags = ['solve', args.problem, '--json', '--seed', String(args.seed), ...(limit === 'default' ? [] : ['--time-limit', limit])];
  const started = performance.now();
  const run = spawnSync(process.execPath, [bin, ...flags], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wallSec = (performance.now() - started) / 1000;
  if (run.status !== 0) return { error: `exit ${run.status}: ${run.stderr.slice(0, 300)}` };
  return { plan: JSON.parse(run.stdout) as Plan, wallSec };
}

function row(label: string, limit: string, plan: Plan, wallSec: number, findings: string[], audit: PriorityAudit): string {
  const solver = (plan as Plan & { solver?: SolverStats }).solver;
  const swapGain = audit.swaps.reduce((sum, c) => sum + c.gain, 0);
  return [
    label.padEnd(10),
    limit.padStart(7),
    String(plan.summary.served).padStart(6),
    String(plan.summary.priority_served).padStart(8),
    (plan.summary.distance_m / 1000).toFixed(1).padStart(9),
    (plan.summary.working_s / 3600).toFixed(1).padStart(7),
    String(solver?.iterations ?? '?').padStart(6),
    (solver?.stop_reason ?? '?').padEnd(14),
    wallSec.toFixed(2).padStart(6),
    String(audit.inserts.length).padStart(4),
    `${audit.swaps.length} (+${swapGain})`.padStart(9),
    String(audit.relocations.length).padStart(6),
    findings.length === 0 ? 'feasible' : `INFEASIBLE (${findings.length})`,
  ].join(' ');
}

function main(): number {
  const args = parseArgs(process.argv.slice(2));
  const { problem } = loadProblemDocument(JSON.parse(readFileSync(args.problem, 'utf8')));
  const labels = args.bins.map((b) => basename(dirname(dirname(resolve(b)))));
  console.log(`${args.problem}: fresh processes of ${labels.join(', ')}, seed ${args.seed}, ${args.rounds} round(s)`);
  console.log('build        limit served priority  dist km  work h  iter stop           wall  ins      swap  reloc checker');
  let ok = true;
  let run = 0;
  for (let round = 0; round < args.rounds; round++) {
    for (const limit of args.limits) {
      const order = args.bins.map((_, i) => (i + run) % args.bins.length);
      run++;
      for (const i of order) {
        const solved = solveFresh(args.bins[i]!, args, limit);
        if ('error' in solved) {
          console.log(`${labels[i]!.padEnd(10)} ${limit.padStart(7)} FAILED ${solved.error}`);
          ok = false;
          continue;
        }
        const findings = checkPlan(problem, solved.plan);
        ok &&= findings.length === 0;
        console.log(row(labels[i]!, limit, solved.plan, solved.wallSec, findings, auditPriority(problem, solved.plan)));
      }
    }
  }
  return ok ? 0 : 1;
}

process.exitCode = main();
