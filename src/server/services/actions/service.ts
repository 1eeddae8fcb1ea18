/**
 * Actions: one asynchronous solve each (`schedule` for POST /schedules, `optimize` for a project).
 * An action is stored as `pending` before it is acknowledged, and is rewritten when it starts and
 * when it ends, so that every acknowledged action survives a crash and runs again. A cancel ends it
 * as `failed` with the code `cancelled`, in the store too, so it never runs again. The store and
 * the queue are the data directory's (this process alone) or PostgreSQL's (any number of
 * processes): an ending is written only over a pending action, so of two processes that end the
 * same action the first wins and the second leaves it.
 */
import { randomUUID } from 'node:crypto';
import type { ErrorBody, Warning } from '../../../errors.js';
import type { DocumentKind } from '../../../input/index.js';
import type { Plan } from '../../../output/plan-types.js';
import type { SolveProgress } from '../../../solver/types.js';
import type { ActionName, ActionProgress, ActionRecord, ActionStatus } from '../../api-types.js';
import type { Optimizations } from '../projects.js';
import type { ActionStore, CrashNotes, StoredAction } from '../../store/data-dir/action-store.js';
import { StoreUnavailableError, type LoadedRecords } from '../../store/data-dir/json-store.js';
import { IdempotencyConflictError, IdempotencyTurns, type IdempotencyClaim } from '../idempotency.js';
import type { SolveQueue } from '../../store/data-dir/solve-queue.js';
import { JobAbortedError, type SolveRunner } from '../solve-runner.js';
import type { SolveJob } from '../job.js';
import type { TravelSettings } from '../../../travel/types.js';
import type { GeocoderSettings } from '../../../geocode/types.js';

export type { ActionName, ActionRecord, ActionStatus } from '../../api-types.js';

export interface SolveSettings {
  timeLimitMs: number;
  seed: number;
  roadFactor?: number;
  baseSpeedKmh?: number;
  travel?: TravelSettings;
  geocoder?: GeocoderSettings;
}

export interface NewAction {
  owner: string;
  kind: DocumentKind;
  document: unknown;
  actionName: ActionName;
  warnings: Warning[];
  projectId?: string;
}

/**
 * An action during whose runs the service died of an error this often is failed rather than run
 * again, so that one poisonous request cannot keep the service crashing. Only those deaths count:
 * a kill -9, an out-of-memory kill or a power cut leaves no trace and the action runs again, and a
 * solve's own failures (its worker thread crashing, running out of memory or time) already fail
 * the action without taking the service down.
 */
const MAX_CRASHES = 3;

/**
 * Waits between retries of a finished action's write that failed (a full disk): about half a
 * minute in all. Meanwhile, and after, polls read the outcome from memory; if the disk never has
 * room, the action is still pending on disk and runs again at the next start.
 */
export const SAVE_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000, 15_000];

/** An action failed for what happened to its runs, not for what it asked: `why` says what that was. */
const TOO_MANY_ATTEMPTS = (why: string): ErrorBody['error'] => ({
  code: 'too_many_attempts',
  message: `${why}; it is not run again`,
  details: [],
});

const CANCELLED: ErrorBody['error'] = { code: 'cancelled', message: 'the optimization was cancelled', details: [] };

/** An accepted action; `replayed` when an Idempotency-Key found the one an identical earlier request created. */
export interface Accepted {
  record: ActionRecord;
  replayed: boolean;
}

/** The data directory's recovery at start: every action, and the crash notes of the last run. */
export type Recovery = CrashNotes & { loadAll(): Promise<LoadedRecords<StoredAction>> };

type Ending = { status: 'finished'; solution: Plan } | { status: 'failed'; error: ErrorBody['error'] };

/** What writing an ended action to the data directory came to: written, or not written yet (retried). */
type SaveOutcome = 'saved' | 'failed';

/** What a cancel found: the cancelled record, or why there was nothing to cancel. */
export type CancelOutcome =
  { outcome: 'cancelled'; record: ActionRecord } | { outcome: 'not_found' } | { outcome: 'not_cancellable'; status: ActionStatus };

export class ActionService {
  /** One request per Idempotency-Key at a time within this process (the store's unique key guards between processes). */
  private readonly idempotencyTurns = new IdempotencyTurns();
  /**
   * The actions whose run this process holds, one object each, so that a cancel and the run change
   * the same record: with a queue that is not durable, from acceptance to their end; with a durable
   * one, while they run here.
   */
  private readonly live = new Map<string, StoredAction>();
  /** Deleted actions whose ended record may still be being saved again (saveEnded): it must not come back. */
  private readonly deleted = new WeakSet<StoredAction>();
  /** A clean shutdown has begun: an aborted solve was interrupted, not cancelled, and no crash is noted. */
  private stopping = false;
  private recovered: StoredAction[] = [];

  constructor(
    private readonly store: ActionStore,
    private readonly queue: SolveQueue,
    private readonly runner: SolveRunner,
    private readonly settings: SolveSettings,
    private readonly log: (event: Record<string, unknown>) => void,
    private readonly saveRetryDelaysMs: readonly number[] = SAVE_RETRY_DELAYS_MS,
    /** The data directory's: its actions are read at start, and its crash notes counted. */
    private readonly recovery?: Recovery,
  ) {}

  /** Each project's optimize actions, status current (for the project records). */
  get optimizations(): Optimizations {
    return this.store;
  }

  /** Starts running queued actions in this process (the roles `worker` and `all`). */
  work(): Promise<void> {
    return this.queue.work({
      solve: (actionUuid, signal) => this.execute(actionUuid, signal),
      gaveUp: (actionUuid) => this.gaveUp(actionUuid),
    });
  }

  /** Loads every stored action (so polls find them) and remembers the ones still pending (the data directory). */
  async recover(): Promise<{ total: number; pending: number }> {
    if (!this.recovery) return { total: 0, pending: 0 };
    const { records, unreadable } = await this.recovery.loadAll();
    for (const bad of unreadable) this.log({ event: 'unreadable_record', file: bad.file, reason: bad.reason });
    await this.countCrashes(this.recovery, records);
    this.recovered = records
      .filter((stored) => stored.record.status === 'pending')
      .sort((a, b) => a.record.created_at.localeCompare(b.record.created_at));
    for (const stored of this.recovered) this.live.set(stored.record.actionUuid, stored);
    return { total: records.length, pending: this.recovered.length };
  }

  /** Queues again, oldest first, the actions recover() found pending; they were accepted, so no limit applies. */
  async resumePending(): Promise<void> {
    const pending = this.recovered;
    this.recovered = [];
    for (const stored of pending) {
      if (stored.record.status !== 'pending') continue;
      if ((stored.crashes ?? 0) >= MAX_CRASHES) {
        await this.end(stored, {
          status: 'failed',
          error: TOO_MANY_ATTEMPTS(`the service crashed ${stored.crashes} times while solving it`),
        });
        continue;
      }
      this.queue.requeue(stored.owner, stored.record.actionUuid);
    }
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
    const actionUuid = stored.record.actionUuid;
    if (stored.idempotency?.fingerprint !== idempotency.fingerprint) throw new IdempotencyConflictError({ kind: 'action', id: actionUuid });
    return (this.queue.durable ? undefined : this.live.get(actionUuid))?.record ?? stored.record;
  }

  private async create(request: NewAction, idempotency?: IdempotencyClaim): Promise<ActionRecord> {
    const ticket = await this.queue.reserve(request.owner);
    const stored = newStoredAction(request, idempotency);
    const actionUuid = stored.record.actionUuid;
    try {
      await this.store.create(stored);
    } catch (error) {
      ticket.cancel();
      throw error;
    }
    if (!this.queue.durable) this.live.set(actionUuid, stored);
    try {
      await ticket.start(actionUuid);
    } catch (error) {
      // Not queued, so not accepted: nothing is left behind that would never run.
      this.live.delete(actionUuid);
      await this.store.remove(actionUuid).catch(() => undefined);
      throw error;
    }
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

  /** The shared store is read every time: what another process, or this one, has written is what counts. */
  private async find(owner: string, actionUuid: string): Promise<StoredAction | null> {
    const stored = (this.queue.durable ? undefined : this.live.get(actionUuid)) ?? (await this.store.load(actionUuid));
    return stored && stored.owner === owner ? stored : null;
  }

  /** Ends a pending action as failed/cancelled: a waiting one never runs, a running one has its solve stopped. */
  async cancel(owner: string, actionUuid: string): Promise<CancelOutcome> {
    const stored = await this.find(owner, actionUuid);
    if (!stored) return { outcome: 'not_found' };
    if (stored.record.status !== 'pending') return { outcome: 'not_cancellable', status: stored.record.status };
    const wasRunning = this.queue.runningHere().includes(actionUuid) || stored.record.started_at !== undefined;
    // The record is failed before the solve is stopped, so that the run, seeing it end, leaves it so.
    if (!(await this.end(stored, { status: 'failed', error: CANCELLED }))) {
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
    const live = this.live.get(actionUuid);
    if (live) this.deleted.add(live);
    await this.store.remove(actionUuid);
    this.live.delete(actionUuid);
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
      if (this.live.get(actionUuid)?.record.status === 'pending') continue;
      if (await this.remove(owner, actionUuid, 'retention')) deleted += 1;
    }
    return deleted;
  }

  /**
   * Called as the process exits: when it dies of an error (not during a clean shutdown), the
   * actions still running are noted (the data directory), and counted against them at the next start.
   */
  noteRunningAtExit(): void {
    const running = this.queue.runningHere();
    if (this.stopping || running.length === 0) return;
    this.recovery?.noteCrash(running);
  }

  /** Each crash note adds one crash to the actions it names, then is removed. */
  private async countCrashes(notes: CrashNotes, records: StoredAction[]): Promise<void> {
    const found = await notes.crashNotes();
    for (const note of found) {
      for (const stored of records.filter((candidate) => note.running.includes(candidate.record.actionUuid))) {
        stored.crashes = (stored.crashes ?? 0) + 1;
        await this.store.save(stored);
        this.log({ event: 'crash_counted', action_id: stored.record.actionUuid, crashes: stored.crashes });
      }
    }
    for (const note of found) await notes.removeCrashNote(note.id);
  }

  /**
   * A clean shutdown: no new solve starts, running ones get `timeoutMs` to finish and are then
   * interrupted; their actions stay pending and run again (at the next start, or on another worker).
   */
  async shutdown(timeoutMs: number): Promise<{ leftWaiting: number; interrupted: boolean }> {
    this.stopping = true;
    return this.queue.stop(timeoutMs);
  }

  private async execute(actionUuid: string, signal: AbortSignal): Promise<void> {
    const stored = this.live.get(actionUuid) ?? (await this.store.load(actionUuid));
    // Cancelled or deleted while it waited (and the queue had already handed it out).
    if (!stored || stored.record.status !== 'pending') return;
    this.live.set(actionUuid, stored);
    try {
      await this.runOnce(stored, signal);
    } finally {
      this.store.clearProgress(actionUuid);
      // A durable queue holds the action again once it no longer runs here.
      if (this.queue.durable && this.live.get(actionUuid) === stored) this.live.delete(actionUuid);
    }
  }

  private async runOnce(stored: StoredAction, signal: AbortSignal): Promise<void> {
    const id = stored.record.actionUuid;
    stored.attempts += 1;
    stored.record = { ...stored.record, started_at: new Date().toISOString(), updated_at: new Date().toISOString() };
    // The start is written for crash recovery only: a store that cannot be written must not stop the solve.
    const started = await this.store.save(stored).catch((error: unknown) => {
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
      if (stored.record.status !== 'pending') return;
      const ending: Ending = outcome.ok ? { status: 'finished', solution: outcome.plan } : { status: 'failed', error: outcome.error };
      const recorded = await this.end(stored, ending);
      this.log({
        event: recorded ? 'solve_ended' : 'solve_discarded',
        action_id: id,
        status: ending.status,
        duration_ms: Date.now() - startedAt,
      });
    } catch (error) {
      if (stored.record.status !== 'pending') return;
      if (error instanceof JobAbortedError) return this.interrupted(stored, error);
      // The outcome could not be stored in the shared store: the queue runs the action again.
      if (error instanceof StoreUnavailableError) throw error;
      await this.end(stored, { status: 'failed', error: { code: 'internal_error', message: (error as Error).message, details: [] } });
    }
  }

  /**
   * A solve stopped without an outcome: by a shutdown, when its action stays pending (and the error
   * goes on to the queue), or by its queue, whose claim on it lapsed (another process cancelled it,
   * or took it over), when the action is no longer this process's to write.
   */
  private async interrupted(stored: StoredAction, error: JobAbortedError): Promise<void> {
    const id = stored.record.actionUuid;
    if (!this.stopping) {
      this.log({ event: 'solve_released', action_id: id });
      return;
    }
    stored.attempts -= 1;
    this.log({ event: 'solve_interrupted', action_id: id });
    await this.store.save(stored).catch((failure: unknown) => {
      this.log({ event: 'store_write_failed', action_id: id, reason: (failure as Error).message });
    });
    throw error;
  }

  /** Fails an action whose runs the queue gave up on (their workers died each time). */
  private async gaveUp(actionUuid: string): Promise<void> {
    const stored = await this.store.load(actionUuid);
    if (!stored || stored.record.status !== 'pending') return;
    const why = `its solve was cut short ${stored.attempts} times, its worker dying or stopping each time`;
    await this.end(stored, { status: 'failed', error: TOO_MANY_ATTEMPTS(why) });
    this.log({ event: 'solve_abandoned', action_id: actionUuid, attempts: stored.attempts });
  }

  private solveOf(stored: StoredAction): SolveJob {
    return {
      kind: stored.kind,
      document: stored.document,
      timeLimitMs: this.settings.timeLimitMs,
      seed: this.settings.seed,
      ...(this.settings.roadFactor !== undefined ? { roadFactor: this.settings.roadFactor } : {}),
      ...(this.settings.baseSpeedKmh !== undefined ? { baseSpeedKmh: this.settings.baseSpeedKmh } : {}),
      ...(this.settings.travel !== undefined ? { travel: this.settings.travel } : {}),
      ...(this.settings.geocoder !== undefined ? { geocoder: this.settings.geocoder } : {}),
      // A project lists the addresses that found nothing; its optimization leaves those stops out.
      ...(this.settings.geocoder !== undefined && stored.kind === 'project' ? { allowUnresolved: true } : {}),
    };
  }

  /**
   * Finishes or fails the action. With the data directory, the record changes at once (every reader
   * sees it from now on), then it is written; it stays among the live ones until the write is
   * done, so a read cannot find the older record meanwhile, and a failed write is retried in the
   * background (saveEnded). With a shared store, the ending counts once it is written (endShared).
   */
  private async end(stored: StoredAction, ending: Ending): Promise<boolean> {
    const now = new Date().toISOString();
    const before = stored.record;
    stored.record = { ...stored.record, ...ending, finished_at: now, updated_at: now };
    if (this.queue.durable) return this.endShared(stored, before);
    if ((await this.save(stored)) === 'failed') void this.saveEnded(stored);
    return true;
  }

  /**
   * The ending in the shared store, written only over a pending action: false when another process
   * had already ended it (its ending stands). A store that cannot be written throws, the action
   * still pending, so that the caller answers 503 or the queue runs the action again.
   */
  private async endShared(stored: StoredAction, before: ActionRecord): Promise<boolean> {
    let written: boolean;
    try {
      written = await this.store.save(stored);
    } catch (error) {
      stored.record = before;
      throw error;
    }
    if (!written) stored.record = before;
    this.live.delete(before.actionUuid);
    return written;
  }

  /** Writes an ended action to the data directory; it then leaves the live ones. */
  private async save(stored: StoredAction): Promise<SaveOutcome> {
    if (this.deleted.has(stored)) return 'saved';
    try {
      await this.store.save(stored);
      this.live.delete(stored.record.actionUuid);
      return 'saved';
    } catch (error) {
      this.log({ event: 'store_write_failed', action_id: stored.record.actionUuid, reason: (error as Error).message });
      return 'failed';
    }
  }

  /** Retries an ended action's write with growing waits; the record stays live (polls see the outcome) until one succeeds. */
  private async saveEnded(stored: StoredAction): Promise<void> {
    for (const delayMs of this.saveRetryDelaysMs) {
      await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
      if ((await this.save(stored)) === 'saved') return;
    }
    this.log({ event: 'record_not_saved', action_id: stored.record.actionUuid, status: stored.record.status });
  }
}

function newStoredAction(request: NewAction, idempotency?: IdempotencyClaim): StoredAction {
  const now = new Date().toISOString();
  const record: ActionRecord = {
    actionUuid: randomUUID(),
    actionName: request.actionName,
    status: 'pending',
    created_at: now,
    updated_at: now,
    ...(request.projectId !== undefined ? { project_id: request.projectId } : {}),
    ...(request.warnings.length > 0 ? { warnings: request.warnings } : {}),
  };
  return {
    owner: request.owner,
    kind: request.kind,
    document: request.document,
    attempts: 0,
    ...(idempotency ? { idempotency } : {}),
    record,
  };
}

function progressOf(progress: SolveProgress): ActionProgress {
  return {
    elapsed_ms: Math.round(progress.elapsedMs),
    iterations: progress.iterations,
    served: progress.served,
    unserved: progress.unserved,
    routes_used: progress.routesUsed,
    cost: progress.cost,
  };
}
