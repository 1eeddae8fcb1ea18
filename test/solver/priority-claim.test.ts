/**
 * Priority claimed at every limit (issue 26): the solver's plan for a priority-heavy generated
 * project leaves no chance the independent priority audit (test/support/priority-audit.ts) proves
 * — no unserved stop that fits as the plan stands, that could replace a served stop of lower
 * priority, or that fits once one served stop moves to another route — at a short iteration
 * limit, and also when the command's limit was spent before the solve began (the search then
 * stops at once: the final claim's share is work the clock cannot take, search/claim.ts). Before
 * that share, the second case left a stop replaceable by higher priority (+4) and served 117
 * stops against 136.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import type { Plan } from '../../src/output/plan-types.js';
import { solve } from '../../src/solver/index.js';
import type { SolveOptions } from '../../src/solver/types.js';
import { load } from '../input/helpers.js';
import { checkPlan } from '../support/checker.js';
import { generateProject } from '../support/generate.js';
import { auditLine, auditPriority } from '../support/priority-audit.js';

/** 200 stops with priorities from 1 to 10,000 for 6 drivers: a third of them cannot be served. */
function priorityHeavy(): Problem {
  return load(generateProject(2, { stops: 200, drivers: 6 })).problem;
}

async function checkedPlan(problem: Problem, options: SolveOptions): Promise<Plan> {
  const plan = JSON.parse(JSON.stringify(buildPlan(problem, await solve(problem, options)))) as Plan;
  expect(checkPlan(problem, plan)).toEqual([]);
  return plan;
}

function expectNothingToClaim(problem: Problem, plan: Plan): void {
  const audit = auditPriority(problem, plan);
  // Stops are left unserved, so the audit has something to look at.
  expect(audit.unserved).toBeGreaterThan(20);
  expect(auditLine(audit)).toMatch(/insertable 0; replaceable by higher priority 0 \(\+0\); relocate-then-insert 0;/);
}

describe('priority claimed at every limit', () => {
  it('at a short iteration limit, the plan leaves no priority one move would claim', async () => {
    const problem = priorityHeavy();
    expectNothingToClaim(problem, await checkedPlan(problem, { timeLimitMs: 60_000, seed: 1, maxIterations: 10 }));
  }, 60_000);

  it('with the limit spent before the solve began, the first plan still gets its claim, the same for the same seed', async () => {
    const problem = priorityHeavy();
    // `endsAt` in the past: the command's limit was gone while the input loaded.
    const options: SolveOptions = { timeLimitMs: 1_000, endsAt: 0, seed: 1, maxIterations: 10 };
    const plan = await checkedPlan(problem, options);
    expectNothingToClaim(problem, plan);
    const again = await checkedPlan(problem, options);
    expect(again.routes.map((r) => r.visits)).toEqual(plan.routes.map((r) => r.visits));
  }, 60_000);
});
