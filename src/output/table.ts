/** Human-readable plan: a summary, one table per route, a table of unserved stops. OWNER: CLI helper. */
import type { Plan } from './plan-types.js';

export interface RenderOptions {
  color: boolean;
}

/** Renders a plan from its JSON alone (so `poll` can show a remote plan the same way). */
export function renderPlanTables(_plan: Plan, _options: RenderOptions): string {
  throw new Error('not implemented yet');
}
