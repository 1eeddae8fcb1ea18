/**
 * Actions: one asynchronous solve each (`schedule` for POST /schedules, `optimize` for a project).
 * An action is stored as `pending` before it is acknowledged, and is rewritten when it starts and
 * when it ends, so that every acknowledged action survives a crash and runs again. A cancel ends it
 * as `failed` with the code `cancelled`, in the store too, so it never runs again. The store and
 * its queue are either store's (store/ports.ts): this service has one path for both, and the
 * store's end() says whether an ending counts (of two that end the same action, the first wins).
 * The runs themselves are in runs.ts.
 */
import type { ActionRecord } from '../../api-types.js';
import type { Plan } from '../../../output/plan-types.js';
import { endedRecord } from '../../store/records.js';
import { withChanges } from '../plan-history.js';
import type { ActionStore, Optimizations, SolveQueue, StoredAction } from '../../store/ports.js';
import { IdempotencyConflictError, IdempotencyTurns, type IdempotencyClaim } from '../idempotency.js';
import type { SolveRunner } from '../solve-runner.js';
import { ActionRuns } from './runs.js';
import { noMetrics, type ServiceMetrics } from '../../metrics.js';
import { cursorOf, type ActionListAnswer, type ActionListRequest } from '../../action-list.js';
import { CANCELLED, newStoredAction, type Accepted, type CancelOutcome, type NewAction, type SolveSettings } from './records.js';

export type { ActionName, ActionRecord, ActionStatus } from '../../api-types.js';
export type { Accepted, CancelOutcome, NewAction, SolveSettings } from './records.js';

export class ActionService {
  /** One request per Idempotency-Key at a time within this process (the store's unique key guards between processes). */
  private readonly idempotencyTurns = new IdempotencyTurns();
  private readonly runs: ActionRuns;

  constructor(
    private readonly store: ActionStore,
    private readonly queue: SolveQueue,
    runner: SolveRunner,
    settings: SolveSettings,
    private readonly log: (event: Record<string, unknown>) => void,
    metrics: ServiceMetrics = noMetrics,
  ) {
    this.runs = new ActionRuns(store, runner, settings, log, metrics);
  }

  /** Each project's optimize actions, status current (for the project records). */
  get optimizations(): Optimizations {
    return this.store;
  }

  /** Starts running queued actions in this process (the roles `worker` and `all`), those accepted before a restart too. */
  work(): Promise<void> {
    return this.queue.work(this.runs.handlers());
  }

  /**
   * Stores a new pending action and queues it; throws QueueFullError before writing anything.
   * With an Idempotency-Key (idempotency.ts): the action that key created, if the request is the
   * same (`replayed`); IdempotencyConflictError if it is another.
   */
  async accept(request: NewAction, idempotency?: IdempotencyClaim): Promise<Accepted> {
    if (!idempotency) return { record: await this.create(request), replayed: false };
    return this.idempotencyTurns.once(request.owner, idempotency.key, {
      earlier: () => this.createdWith(request.owner, idempotency),
      create: () => this.create(request, idempotency),
    });
  }

  /** The action an earlier request with this key created (null if none, or if it is gone); throws on another request. */
  private async createdWith(owner: string, idempotency: IdempotencyClaim): Promise<ActionRecord | null> {
    const stored = await this.store.findByIdempotencyKey(owner, idempotency.key);
    if (!stored) return null;
    if (stored.idempotency?.fingerprint !== idempotency.fingerprint) {
      throw new IdempotencyConflictError({ kind: 'action', id: stored.record.actionUuid });
    }
    return stored.record;
  }

  private async create(request: NewAction, idempotency?: IdempotencyClaim): Promise<ActionRecord> {
    const stored = newStoredAction(request, idempotency);
    await this.queue.admit(stored);
    return stored.record;
  }

  /**
   * Keeps a plan made without a solve (a plan edited by hand) as a finished action of its project,
   * with its changes against the project's plan before it: history, exports and dispatch read it
   * as any other. Stored finished at once, so no queue ever runs it.
   */
  async keep(request: NewAction, plan: Plan): Promise<ActionRecord> {
    const stored = newStoredAction(request);
    const solution =
      request.projectId === undefined ? plan : await withChanges(this.store, request.projectId, stored.record.actionUuid, plan);
    stored.record = endedRecord(stored.record, { status: 'finished', solution });
    await this.store.create(stored);
    this.log({ event: 'plan_kept', action_id: stored.record.actionUuid, kind: stored.record.kind });
    return stored.record;
  }

  /** The action if it exists and belongs to `owner`, with its progress while it runs; null otherwise (so others get a 404). */
  async get(owner: string, actionUuid: string): Promise<ActionRecord | null> {
    const stored = await this.find(owner, actionUuid);
    if (!stored) return null;
    if (stored.record.status !== 'pending') return stored.record;
    const progress = await this.store.progressOf(actionUuid);
    return progress ? { ...stored.record, progress } : stored.record;
  }

  /** The owner's actions, newest first, one page (GET /v2/schedules): `next_cursor` null on the last. */
  async list(owner: string, request: ActionListRequest): Promise<ActionListAnswer> {
    // One more than the page: whether there is a next page is known without another query.
    const found = await this.store.listOf(owner, { ...request, limit: request.limit + 1 });
    const actions = found.slice(0, request.limit);
    return { actions, next_cursor: found.length > request.limit ? cursorOf(actions[actions.length - 1]!) : null };
  }

  /** The store is read every time: what another process, or this one, has written is what counts. */
  private async find(owner: string, actionUuid: string): Promise<StoredAction | null> {
    const stored = await this.store.load(actionUuid);
    return stored && stored.owner === owner ? stored : null;
  }

  /** Ends a pending action as failed/cancelled: a waiting one never runs, a running one has its solve stopped. */
  async cancel(owner: string, actionUuid: string): Promise<CancelOutcome> {
    const stored = await this.find(owner, actionUuid);
    if (!stored) return { outcome: 'not_found' };
    if (stored.record.status !== 'pending') return { outcome: 'not_cancellable', status: stored.record.status };
    const wasRunning = this.queue.runningHere().includes(actionUuid) || stored.record.started_at !== undefined;
    // The record is failed before the solve is stopped, so that the run, seeing it end, leaves it so.
    if ((await this.store.end(stored, { status: 'failed', error: CANCELLED })) === 'lost-race') {
      const now = await this.find(owner, actionUuid);
      return now ? { outcome: 'not_cancellable', status: now.record.status } : { outcome: 'not_found' };
    }
    await this.queue.cancel(actionUuid);
    this.log({ event: 'solve_cancelled', action_id: actionUuid, was: wasRunning ? 'running' : 'waiting' });
    return { outcome: 'cancelled', record: stored.record };
  }

  /**
   * Deletes the action, its request and its plan: a pending one is cancelled first (its solve
   * stopped), so nothing runs for a deleted action. False when there is no such action of `owner`.
   */
  async remove(owner: string, actionUuid: string, why: 'request' | 'retention' = 'request'): Promise<boolean> {
    const stored = await this.find(owner, actionUuid);
    if (!stored) return false;
    if (stored.record.status === 'pending') await this.cancel(owner, actionUuid);
    await this.store.remove(actionUuid);
    this.log({ event: 'action_deleted', action_id: actionUuid, by: why });
    return true;
  }

  /**
   * Retention: deletes the actions (with their requests, plans and idempotency keys) that ended
   * more than `retentionMs` before `now`; pending ones, waiting or running, never. Returns how many.
   */
  async sweep(now: Date, retentionMs: number): Promise<number> {
    let deleted = 0;
    for (const { actionUuid, owner } of await this.store.endedBefore(new Date(now.getTime() - retentionMs))) {
      if (await this.remove(owner, actionUuid, 'retention')) deleted += 1;
    }
    return deleted;
  }

  /**
   * A clean shutdown: no new solve starts, running ones get `timeoutMs` to finish and are then
   * interrupted; their actions stay pending and run again (at the next start, or on another worker).
   */
  async shutdown(timeoutMs: number): Promise<{ leftWaiting: number; interrupted: boolean }> {
    this.runs.beginShutdown();
    return this.queue.stop(timeoutMs);
  }
}
