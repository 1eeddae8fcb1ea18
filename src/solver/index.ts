/**
 * The built-in solver. Pure TypeScript, no I/O: reads a `Problem`, returns routes and unserved stops.
 * OWNER: solver helper.
 */
import type { Problem } from '../model/problem.js';
import type { SolveOptions, SolveResult } from './types.js';

export type { SolveOptions, SolveResult } from './types.js';

export async function solve(_problem: Problem, _options: SolveOptions): Promise<SolveResult> {
  throw new Error('not implemented yet');
}
