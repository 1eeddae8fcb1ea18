/** Builds the JSON plan (contract version 1) from a problem and a solve result. OWNER: CLI/output helper. */
import type { Problem } from '../model/problem.js';
import type { SolveResult } from '../solver/types.js';
import type { Plan } from './plan-types.js';

export function buildPlan(_problem: Problem, _result: SolveResult): Plan {
  throw new Error('not implemented yet');
}
