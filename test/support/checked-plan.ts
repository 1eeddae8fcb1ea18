/** A document loaded, solved for real (seeded, iteration-bounded) and its plan passed through the independent checker. */
import { expect } from 'vitest';
import { buildPlan } from '../../src/output/plan.js';
import type { Plan } from '../../src/output/plan-types.js';
import { solve } from '../../src/solver/index.js';
import { load } from '../input/helpers.js';
import { checkPlan } from './checker.js';

const QUICK = { timeLimitMs: 5_000, seed: 1, maxIterations: 50 };

export async function checkedPlanOf(document: unknown): Promise<Plan> {
  const { problem } = load(document);
  const plan = buildPlan(problem, await solve(problem, QUICK));
  expect(checkPlan(problem, plan)).toEqual([]);
  return plan;
}
