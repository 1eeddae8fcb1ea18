/**
 * `node dist/test/bench/audit-plan.js <problem file> <plan.json>`: the priority audit
 * (test/support/priority-audit.ts) of a plan made elsewhere — typically a fresh
 * `bin/routeplan solve <problem> --json > plan.json`, as users run it — after the checker.
 * Prints the checker's findings and the audit's counts; `--json` prints the audit as JSON.
 * Exit 1 when the plan is infeasible, 2 on a usage error.
 */
import { readFileSync } from 'node:fs';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';
import { auditLine, auditPriority } from '../support/priority-audit.js';

function main(argv: string[]): number {
  const json = argv.includes('--json');
  const [problemPath, planPath] = argv.filter((a) => a !== '--json');
  if (problemPath === undefined || planPath === undefined) {
    console.error('usage: node dist/test/bench/audit-plan.js <problem file> <plan.json> [--json]');
    return 2;
  }
  const { problem } = loadProblemDocument(JSON.parse(readFileSync(problemPath, 'utf8')));
  const plan = JSON.parse(readFileSync(planPath, 'utf8')) as Plan;
  const findings = checkPlan(problem, plan);
  for (const f of findings.slice(0, 20)) console.error(`checker: ${f}`);
  const audit = auditPriority(problem, plan);
  if (json) console.log(JSON.stringify(audit, null, 2));
  else {
    const solver = (plan as Plan & { solver?: { iterations?: number; stop_reason?: string } }).solver;
    console.log(
      `${planPath}: served ${plan.summary.served}, priority ${plan.summary.priority_served}, distance ${plan.summary.distance_m} m, ` +
        `${solver?.iterations ?? '?'} iterations (${solver?.stop_reason ?? '?'}); ${findings.length === 0 ? 'feasible' : 'INFEASIBLE'}`,
    );
    console.log(`audit: ${auditLine(audit)}`);
  }
  return findings.length === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
