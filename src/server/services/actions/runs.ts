/**
 * The worker side of the actions: a queued action's run, from its start being written to its
 * ending, and the actions the queue gives up on. The store's end() decides whether an ending
 * counts: of a cancel and a finished solve (in this process or another), the first wins. A solve's
 * ending is tried until the store holds it, and only then can a poll see it (durable-ending.ts).
 */
import type { ErrorBody } from '../../../errors.js';
import { StoreUnavailableError } from '../../store/errors.js';
import type { ActionStore, Ending, GaveUpReason, SolveHandlers, StoredAction } from '../../store/ports.js';
import type { SolveJob } from '../job.js';
import { JobAbortedError, type SolveRunner } from '../solve-runner.js';
import type { Plan } from '../../../output/plan-types.js';
import { withChanges } from '../plan-history.js';
import { CANCELLED, TOO_MANY_ATTEMPTS, progressOf, type SolveSettings } from './records.js';
import { endUntilWritten } from './durable-ending.js';
import { noMetrics, type ServiceMetrics } from '../../metrics.js';
import { withLogIds, type LogIds } from '../../log-context.js';

type Log = (event: Record<string, unknown>) => void;

export class ActionRuns {
  /** A clean shutdown has begun: an aborted solve was interrupted, not cancelled. */
  private stopping = false;

  constructor(
    private readonly store: ActionStore,
    private readonly runner: SolveRunner,
    private readonly settings: SolveSettings,
    private readonly log: Log,
    private readonly metrics: ServiceMetrics = noMetrics,
  ) {}

  /**
   * What the queue calls for each action it hands out or gives up on. Each runs under the action's
   * id (log-context.ts), and no other: a job the queue started while another request or run was
   * under way does not inherit that one's ids.
   */
  handlers(): SolveHandlers {
    return {
      solve: (actionUuid, signal) => withLogIds({ action_id: actionUuid }, () => this.execute(actionUuid, signal)),
      gaveUp: (actionUuid, why) => withLogIds({ action_id: actionUuid }, () => this.gaveUp(actionUuid, why)),
    };
  }

  /** From now on a solve that stops without an outcome was interrupted by the shutdown: its action stays pending. */
  beginShutdown(): void {
    this.stopping = true;
  }

  private async execute(actionUuid: string, signal: AbortSignal): Promise<void> {
    const stored = await this.store.load(actionUuid);
    // Cancelled or deleted while it waited (and the queue had already handed it out).
    if (!stored || stored.record.status !== 'pending') return;
    try {
      // Its lines carry the id of the request that accepted it too, whichever process runs it.
      await withLogIds(idsOf(stored), () => this.runOnce(stored, signal));
    } finally {
      this.store.clearProgress(actionUuid);
    }
  }

  private async runOnce(stored: StoredAction, signal: AbortSignal): Promise<void> {
    const id = stored.record.actionUuid;
    stored.attempts += 1;
    stored.record = { ...stored.record, started_at: new Date().toISOString(), updated_at: new Date().toISOString() };
    // The start is written for crash recovery only: a store that cannot be written must not stop the solve.
    const started = await this.store.update(stored).catch((error: unknown) => {
      this.log({ event: 'store_write_failed', action_id: id, reason: (error as Error).message });
      return true;
    });
    // Cancelled (or deleted) while its start was being written: nothing is to run.
    if (!started || stored.record.status !== 'pending') return;
    this.log({ event: 'solve_started', action_id: id, attempt: stored.attempts });
    const startedAt = Date.now();
    try {
      const outcome = await this.runner.run(this.solveOf(stored), signal, (progress) => this.store.setProgress(id, progressOf(progress)));
      // A cancel ended the action while it ran; its outcome, if any, is not wanted.
      if (stored.record.status !== 'pending') return this.countCancelled(stored, startedAt);
      const ending: Ending = outcome.ok
        ? { status: 'finished', solution: await this.recordedPlan(stored, outcome.plan) }
        : { status: 'failed', error: outcome.error };
      // Not shown to any poll before it is stored: it is retried until written (durable-ending.ts).
      const ended = await endUntilWritten(this.store, stored, ending, signal, this.log);
      if (ended === 'stopped') throw new JobAbortedError();
      const recorded = ended === 'written';
      if (recorded) this.metrics.solve(ending.status, (Date.now() - startedAt) / 1000);
      else await this.countCancelled(stored, startedAt);
      this.log({
        event: recorded ? 'solve_ended' : 'solve_discarded',
        action_id: id,
        status: ending.status,
        duration_ms: Date.now() - startedAt,
      });
    } catch (error) {
      await this.failed(stored, error, signal, startedAt);
    }
  }

  /** A solve stopped by a cancel (here or in another process) counts as cancelled; one taken over elsewhere counts there. */
  private async countCancelled(stored: StoredAction, startedAt: number): Promise<void> {
    const now = stored.record.status === 'pending' ? await this.store.load(stored.record.actionUuid).catch(() => null) : stored;
    if (now?.record.error?.code === CANCELLED.code) this.metrics.solve('cancelled', (Date.now() - startedAt) / 1000);
  }

  /** A project's plan with what changed against the project's plan before it; another plan as solved. */
  private recordedPlan(stored: StoredAction, plan: Plan): Promise<Plan> {
    const projectId = stored.record.project_id;
    return projectId === undefined ? Promise.resolve(plan) : withChanges(this.store, projectId, stored.record.actionUuid, plan);
  }

  /** A run that threw: interrupted, a store that could not be read for its plan (the queue runs it again), or an internal error (its ending retried until written). */
  private async failed(stored: StoredAction, error: unknown, signal: AbortSignal, startedAt: number): Promise<void> {
    if (stored.record.status !== 'pending') return this.countCancelled(stored, startedAt);
    if (error instanceof JobAbortedError) return this.interrupted(stored, error, startedAt);
    if (error instanceof StoreUnavailableError) throw error;
    const ended = await endUntilWritten(this.store, stored, { status: 'failed', error: internalError(error) }, signal, this.log);
    if (ended === 'written') this.metrics.solve('failed', (Date.now() - startedAt) / 1000);
  }

  /**
   * A solve stopped without an outcome: by a shutdown, when its action stays pending (and the error
   * goes on to the queue), or by its queue, whose claim on it lapsed (another process cancelled it,
   * or took it over), when the action is no longer this process's to write.
   */
  private async interrupted(stored: StoredAction, error: JobAbortedError, startedAt: number): Promise<void> {
    const id = stored.record.actionUuid;
    if (!this.stopping) {
      this.log({ event: 'solve_released', action_id: id });
      return this.countCancelled(stored, startedAt);
    }
    stored.attempts -= 1;
    this.log({ event: 'solve_interrupted', action_id: id });
    await this.store.update(stored).catch((failure: unknown) => {
      this.log({ event: 'store_write_failed', action_id: id, reason: (failure as Error).message });
    });
    throw error;
  }

  /** Fails an action whose runs the queue gave up on: their workers died, or the service crashed, each time (a graceful stop never counts). */
  private async gaveUp(actionUuid: string, why: GaveUpReason): Promise<void> {
    const stored = await this.store.load(actionUuid);
    if (!stored || stored.record.status !== 'pending') return;
    if (why.cause === 'crashed') {
      await this.store.end(stored, {
        status: 'failed',
        error: TOO_MANY_ATTEMPTS(`the service crashed ${why.crashes} times while solving it`),
      });
      return;
    }
    const cutShort = `its solve was cut short ${stored.attempts} times, its worker dying each time`;
    await this.store.end(stored, { status: 'failed', error: TOO_MANY_ATTEMPTS(cutShort) });
    withLogIds(idsOf(stored), () => this.log({ event: 'solve_abandoned', action_id: actionUuid, attempts: stored.attempts }));
  }

  private solveOf(stored: StoredAction): SolveJob {
    const { timeLimitMs, seed, roadFactor, baseSpeedKmh, travel, geocoder } = this.settings;
    return {
      kind: stored.kind,
      document: stored.document,
      timeLimitMs,
      seed,
      ...(roadFactor !== undefined ? { roadFactor } : {}),
      ...(baseSpeedKmh !== undefined ? { baseSpeedKmh } : {}),
      ...(travel !== undefined ? { travel } : {}),
      ...(geocoder !== undefined ? { geocoder } : {}),
      // A project lists the addresses that found nothing; its optimization leaves those stops out.
      ...(geocoder !== undefined && stored.kind === 'project' ? { allowUnresolved: true } : {}),
    };
  }
}

/** The ids of an action's run's lines: its own, and the request's that accepted it (whichever process runs it). */
function idsOf(stored: StoredAction): LogIds {
  const requestId = stored.request_id;
  return { action_id: stored.record.actionUuid, ...(requestId !== undefined ? { request_id: requestId } : {}) };
}

function internalError(error: unknown): ErrorBody['error'] {
  return { code: 'internal_error', message: (error as Error).message, details: [] };
}
