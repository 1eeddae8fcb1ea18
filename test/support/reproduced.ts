import type { Plan } from '../../src/output/plan-types.js';

/**
 * The part of a plan a seed and an iteration limit reproduce: all of it but `solver`, which says
 * how long the search took.
 */
export function reproduced(plan: Plan): Omit<Plan, 'solver'> {
  const { solver: _howItRan, ...rest } = plan;
  return rest;
}
