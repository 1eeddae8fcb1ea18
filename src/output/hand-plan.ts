/**
 * A plan made by hand, as the service answers it: the routes timed by the solver's exact route
 * evaluator (solver/retime.ts), as a JSON plan of the same shape as a solved one, and every rule
 * they break (plan-violations.ts). The plan has no `solver` block: no search made it.
 */
import type { Problem } from '../model/problem.js';
import { retimeRoutes, type HandRoute } from '../solver/retime.js';
import { buildPlan } from './plan.js';
import type { Plan } from './plan-types.js';
import { planViolations, type PlanViolation } from './plan-violations.js';

export type { HandRoute } from '../solver/retime.js';

export interface TimedHandPlan {
  plan: Plan;
  violations: PlanViolation[];
}

export function timeHandPlan(problem: Problem, routes: readonly HandRoute[]): TimedHandPlan {
  const result = retimeRoutes(problem, routes);
  const { solver: _solver, ...plan } = buildPlan(problem, result);
  return { plan, violations: planViolations(problem, result) };
}
