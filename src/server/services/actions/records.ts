/** An action's records as the service makes them (a new one, its progress, the errors it ends with), and what a solve is run with. */
import { randomUUID } from 'node:crypto';
import type { ErrorBody, Warning } from '../../../errors.js';
import type { DocumentKind } from '../../../input/index.js';
import type { SolveProgress } from '../../../solver/types.js';
import type { ActionName, ActionProgress, ActionRecord, ActionStatus, PlanKind } from '../../api-types.js';
import type { IdempotencyClaim, StoredAction } from '../../store/ports.js';
import type { DocumentSolve } from '../../../threads/protocol.js';
import { logIds } from '../../log-context.js';

/** What every solve of this service is run with: the service-wide part of a worker's solve. */
export type SolveSettings = Pick<DocumentSolve, 'timeLimitMs' | 'seed' | 'roadFactor' | 'baseSpeedKmh' | 'travel' | 'geocoder'>;

export interface NewAction {
  owner: string;
  kind: DocumentKind;
  document: unknown;
  actionName: ActionName;
  warnings: Warning[];
  projectId?: string;
  /** The version of that project optimized: a plan fits only the stops and drivers it was made for. */
  projectVersion?: number;
  /** For a project's plan: how it is made (default `optimized`), and for an edited one the plan it was edited from. */
  planKind?: PlanKind;
  basedOn?: string;
}

/** An accepted action; `replayed` when an Idempotency-Key found the one an identical earlier request created. */
export interface Accepted {
  record: ActionRecord;
  replayed: boolean;
}

/** What a cancel found: the cancelled record, or why there was nothing to cancel. */
export type CancelOutcome =
  { outcome: 'cancelled'; record: ActionRecord } | { outcome: 'not_found' } | { outcome: 'not_cancellable'; status: ActionStatus };

/** An action failed for what happened to its runs, not for what it asked: `why` says what that was. */
export const TOO_MANY_ATTEMPTS = (why: string): ErrorBody['error'] => ({
  code: 'too_many_attempts',
  message: `${why}; it is not run again`,
  details: [],
});

export const CANCELLED: ErrorBody['error'] = { code: 'cancelled', message: 'the optimization was cancelled', details: [] };

export function newStoredAction(request: NewAction, idempotency?: IdempotencyClaim): StoredAction {
  const now = new Date().toISOString();
  const record: ActionRecord = {
    actionUuid: randomUUID(),
    actionName: request.actionName,
    status: 'pending',
    created_at: now,
    updated_at: now,
    ...(request.projectId !== undefined ? { project_id: request.projectId } : {}),
    ...(request.projectVersion !== undefined ? { project_version: request.projectVersion } : {}),
    ...(request.projectId !== undefined ? { kind: request.planKind ?? 'optimized' } : {}),
    ...(request.basedOn !== undefined ? { based_on: request.basedOn } : {}),
    ...(request.warnings.length > 0 ? { warnings: request.warnings } : {}),
  };
  // The request that accepts it, so that its run's log lines name that request too (log-context.ts).
  const requestId = logIds().request_id;
  return {
    owner: request.owner,
    kind: request.kind,
    document: request.document,
    attempts: 0,
    ...(idempotency ? { idempotency } : {}),
    ...(requestId !== undefined ? { request_id: requestId } : {}),
    record,
  };
}

export function progressOf(progress: SolveProgress): ActionProgress {
  return {
    elapsed_ms: Math.round(progress.elapsedMs),
    iterations: progress.iterations,
    served: progress.served,
    unserved: progress.unserved,
    routes_used: progress.routesUsed,
    cost: progress.cost,
  };
}
