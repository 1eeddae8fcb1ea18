/**
 * The steps between a validated spec and its problem that may read files or the network:
 * addresses → coordinates (src/geocode) and locations → a travel table (src/travel). Offline input
 * (coordinates everywhere, the haversine model) goes straight through, which is why the synchronous
 * loadProblemDocument still exists for it.
 */
import type { Warning } from '../errors.js';
import type { Problem } from '../model/problem.js';
import { buildProblem } from './build-problem.js';
import type { ProblemSpec } from './spec.js';
import type { LoadOptions } from './types.js';

export interface ResolvedProblem {
  problem: Problem;
  /** What resolving found worth saying (e.g. an address that landed far from the others). */
  warnings: Warning[];
}

export async function resolveSpec(spec: ProblemSpec, options: LoadOptions): Promise<ResolvedProblem> {
  const located = await locateStops(spec, options);
  return { problem: buildProblem(located.spec, options), warnings: located.warnings };
}

/** Geocoding's step (issue 9): today every location has coordinates (the schema requires them). */
function locateStops(spec: ProblemSpec, _options: LoadOptions): Promise<{ spec: ProblemSpec; warnings: Warning[] }> {
  return Promise.resolve({ spec, warnings: [] });
}
