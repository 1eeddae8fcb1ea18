/**
 * The shapes the JSON API answers with, declared once for the service that writes them and the
 * web page that reads them (src/web imports these as types only, so nothing here may need Node).
 */
import type { ErrorBody, Warning } from '../errors.js';
import type { Plan } from '../output/plan-types.js';

/** The action's status as decisions.md names them; a cancel is `failed` with the code `cancelled`. */
export type ActionStatus = 'pending' | 'finished' | 'failed';

export type ActionName = 'schedule' | 'optimize';

/** The solver's best plan so far, as GET /v2/schedules/{actionUuid} shows it while the action runs. */
export interface ActionProgress {
  elapsed_ms: number;
  iterations: number;
  served: number;
  unserved: number;
  routes_used: number;
  cost: number;
}

/** What GET /v2/schedules/{actionUuid} answers. */
export interface ActionRecord {
  actionUuid: string;
  actionName: ActionName;
  status: ActionStatus;
  created_at: string;
  updated_at: string;
  started_at?: string;
  finished_at?: string;
  /** For `optimize` actions: the project optimized. */
  project_id?: string;
  warnings?: Warning[];
  solution?: Plan;
  error?: ErrorBody['error'];
  /** While pending and once the solver reported: its best plan so far (never stored). */
  progress?: ActionProgress;
}

/** One optimize action of a project, as the project's answers list it. */
export interface OptimizationSummary {
  actionUuid: string;
  status: ActionStatus;
  created_at: string;
}

/** What GET /session answers to a signed-in browser. */
export interface SessionView {
  owner: string;
  csrfToken: string;
  expiresAt: string;
  openAccess: boolean;
  tiles: { url: string; attribution: string } | null;
  timeLimitSeconds: number;
}
