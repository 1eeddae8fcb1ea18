/**
 * Actions: one asynchronous solve each (`schedule` for POST /schedules, `optimize` for a project).
 * An action is written to disk as `pending` before it is acknowledged, and is rewritten when it
 * starts and when it ends, so that every acknowledged action survives a crash and runs again.
 * A cancel ends it as `failed` with the code `cancelled`, on disk too, so it never runs again.
 */
import { randomUUID } from 'node:crypto';
import type { ErrorBody, Warning } from '../errors.js';
import type { DocumentKind } from '../input/index.js';
import type { Plan } from '../output/plan-types.js';
import type { SolveProgress } from '../solver/types.js';
import { ActionIndex } from './action-index.js';
import type { ActionName, ActionRecord, ActionStatus } from './api-types.js';
import type { Optimizations } from './projects.js';
import type { ActionStore, StoredAction } from './action-store.js';
import { IdempotencyConflictError, IdempotencyKeys, type IdempotencyClaim } from './idempotency.js';
import type { Job, JobQueue } from './queue.js';
import { JobAbortedError, type SolveRunner } from './solve-runner.js';
import type { SolveJob } from './job.js';
import type { TravelSettings } from '../travel/types.js';
import type { GeocoderSettings } from '../geocode/types.js';

export type { ActionName, ActionRecord, ActionStatus } from './api-types.js';

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

const CANCELLED: ErrorBody['error'] = { code: 'cancelled', message: 'the optimization was cancelled', details: [] };

/** An accepted action; `replayed` when an Idempotency-Key found the one an identical earlier request created. */
export interface Accepted {
  record: ActionRecord;
  replayed: boolean;
}

/** What a cancel found: the cancelled record, or why there was nothing to cancel. */
export type CancelOutcome =
  { outcome: 'cancelled'; record: ActionRecord } | { outcome: 'not_found' } | { outcome: 'not_cancellable'; status: ActionStatus };

export class ActionService {
  private readonly index = new ActionIndex();
  private readonly idempotencyKeys = new IdempotencyKeys();
  /** Pending actions (waiting or running), one object each, so a cancel and the run change the same record. */
  private readonly live = new Map<string, StoredAction>();
  /** The queued job of each action still waiting, so that a cancel can give its place back. */
  private readonly waiting = new Map<string, Job>();
  /**
   * Per running action, what stops its solve: a cancel (which has failed the record first) or a
   * shutdown (which leaves it pending); the record's status tells the run which one it was.
   */
  private readonly stoppers = new Map<string, AbortController>();
  /** Deleted actions whose ended record may still be being saved again (saveEnded): it must not come back. */
  private readonly deleted = new WeakSet<StoredAction>();
  private interrupted = false;
  private recovered: StoredAction[] = [];

  constructor(
    private readonly store: ActionStore,
    private readonly queue: JobQueue,
    private readonly runner: SolveRunner,
    private readonly settings: SolveSettings,
    private readonly log: (event: Record<string, unknown>) => void,
    private readonly saveRetryDelaysMs: readonly number[] = SAVE_RETRY_DELAYS_MS,
  ) {}

  /** Each project's optimize actions, status current (for the project records). */
  get optimizations(): Optimizations {
    return this.index;
  }

  /** Loads every stored action (so polls find them) and remembers the ones still pending. */
  async recover(): Promise<{ total: number; pending: number }> {
    const { records, unreadable } = await this.store.loadAll();
    for (const bad of unreadable) this.log({ event: 'unreadable_record', file: bad.file, reason: bad.reason });
    await this.countCrashes(records);
    for (const stored of records) {
      this.index.add(stored.owner, stored.record);
      if (stored.idempotency) this.idempotencyKeys.remember(stored.owner, stored.idempotency.key, stored.record.actionUuid);
    }
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
          error: {
            code: 'too_many_attempts',
            message: `the service crashed ${stored.crashes} times while solving it; it is not run again`,
            details: [],
          },
        });
        continue;
      }
      this.queue.pushAccepted(stored.owner, this.jobOf(stored));
    }
  }

  /**
   * Persists a new pending action and queues it; throws QueueFullError before writing anything.
   * With an Idempotency-Key (idempotency.ts): the action that key created, if the request is the
   * same (`replayed`); IdempotencyConflictError if it is another.
   */
  async accept(request: NewAction, idempotency?: IdempotencyClaim): Promise<Accepted> {
    if (!idempotency) return { record: await this.create(request), replayed: false };
    return this.idempotencyKeys.inTurn(request.owner, idempotency.key, async () => {
      const earlier = await this.createdWith(request.owner, idempotency);
      if (earlier) return { record: earlier, replayed: true };
      const record = await this.create(request, idempotency);
      this.idempotencyKeys.remember(request.owner, idempotency.key, record.actionUuid);
      return { record, replayed: false };
    });
  }

  /** The action an earlier request with this key created (null if none, or if it is gone); throws on another request. */
  private async createdWith(owner: string, idempotency: IdempotencyClaim): Promise<ActionRecord | null> {
    const actionUuid = this.idempotencyKeys.lookup(owner, idempotency.key);
    if (actionUuid === undefined) return null;
    const stored = this.live.get(actionUuid) ?? (await this.store.load(actionUuid));
    if (!stored) {
      this.idempotencyKeys.forget(actionUuid);
      return null;
    }
    if (stored.idempotency?.fingerprint !== idempotency.fingerprint) throw new IdempotencyConflictError({ kind: 'action', id: actionUuid });
    return stored.record;
  }

  private async create(request: NewAction, idempotency?: IdempotencyClaim): Promise<ActionRecord> {
    const reservation = this.queue.reserve(request.owner);
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
    const stored: StoredAction = {
      owner: request.owner,
      kind: request.kind,
      document: request.document,
      attempts: 0,
      ...(idempotency ? { idempotency } : {}),
      record,
    };
    try {
      await this.store.save(stored);
    } catch (error) {
      reservation.cancel();
      throw error;
    }
    this.index.add(request.owner, record);
    this.live.set(record.actionUuid, stored);
    reservation.start(this.jobOf(stored));
    return record;
  }

  /** The action if it exists and belongs to `owner`, with its progress while it runs; null otherwise (so others get a 404). */
  async get(owner: string, actionUuid: string): Promise<ActionRecord | null> {
    if (this.index.ownerOf(actionUuid) !== owner) return null;
    const stored = this.live.get(actionUuid) ?? (await this.store.load(actionUuid));
    if (!stored || stored.owner !== owner) return null;
    const progress = this.index.progressOf(actionUuid);
    return progress && stored.record.status === 'pending' ? { ...stored.record, progress } : stored.record;
  }

  /** Ends a pending action as failed/cancelled: a waiting one never runs, a running one has its solve stopped. */
  async cancel(owner: string, actionUuid: string): Promise<CancelOutcome> {
    const existing = await this.get(owner, actionUuid);
    if (!existing) return { outcome: 'not_found' };
    const stored = this.live.get(actionUuid);
    if (!stored || stored.record.status !== 'pending') return { outcome: 'not_cancellable', status: existing.status };
    const waiting = this.waiting.get(actionUuid);
    if (waiting) {
      this.queue.withdraw(waiting);
      this.waiting.delete(actionUuid);
    }
    const running = this.stoppers.get(actionUuid);
    // The record is failed before the solve is stopped, so that the run, seeing it end, leaves it so.
    const written = this.end(stored, { status: 'failed', error: CANCELLED });
    running?.abort();
    await written;
    this.log({ event: 'solve_cancelled', action_id: actionUuid, was: running ? 'running' : 'waiting' });
    return { outcome: 'cancelled', record: stored.record };
  }

  /**
   * Deletes the action, its request and its plan: a pending one is cancelled first (its solve
   * stopped), so nothing runs for a deleted action. False when there is no such action of `owner`.
   */
  async remove(owner: string, actionUuid: string, why: 'request' | 'retention' = 'request'): Promise<boolean> {
    if (this.index.ownerOf(actionUuid) !== owner) return false;
    const live = this.live.get(actionUuid);
    if (live?.record.status === 'pending') await this.cancel(owner, actionUuid);
    if (live) this.deleted.add(live);
    await this.store.remove(actionUuid);
    this.live.delete(actionUuid);
    this.index.remove(actionUuid);
    this.idempotencyKeys.forget(actionUuid);
    this.log({ event: 'action_deleted', action_id: actionUuid, by: why });
    return true;
  }

  /**
   * Retention: deletes the actions (with their requests, plans and idempotency keys) that ended
   * more than `retentionMs` before `now`; pending ones, waiting or running, never. Returns how many.
   */
  async sweep(now: Date, retentionMs: number): Promise<number> {
    const before = new Date(now.getTime() - retentionMs).toISOString();
    let deleted = 0;
    for (const { actionUuid, owner } of this.index.endedBefore(before)) {
      if (this.live.get(actionUuid)?.record.status === 'pending') continue;
      if (await this.remove(owner, actionUuid, 'retention')) deleted += 1;
    }
    return deleted;
  }

  /**
   * Called as the process exits: when it dies of an error (not after interruptRunning, a clean
   * shutdown), the actions still running are noted, and counted against them at the next start.
   */
  noteRunningAtExit(): void {
    if (this.interrupted || this.stoppers.size === 0) return;
    this.store.noteCrash([...this.stoppers.keys()]);
  }

  /** Each crash note adds one crash to the actions it names, then is removed. */
  private async countCrashes(records: StoredAction[]): Promise<void> {
    const notes = await this.store.crashNotes();
    for (const note of notes) {
      for (const stored of records.filter((candidate) => note.running.includes(candidate.record.actionUuid))) {
        stored.crashes = (stored.crashes ?? 0) + 1;
        await this.store.save(stored);
        this.log({ event: 'crash_counted', action_id: stored.record.actionUuid, crashes: stored.crashes });
      }
    }
    for (const note of notes) await this.store.removeCrashNote(note.id);
  }

  /** Interrupts running solves; their actions stay pending on disk and run again at the next start. */
  interruptRunning(): void {
    this.interrupted = true;
    for (const stopper of this.stoppers.values()) stopper.abort();
  }

  private jobOf(stored: StoredAction): Job {
    const id = stored.record.actionUuid;
    const job = (): Promise<void> => {
      this.waiting.delete(id);
      return this.execute(stored);
    };
    this.waiting.set(id, job);
    return job;
  }

  private async execute(stored: StoredAction): Promise<void> {
    const id = stored.record.actionUuid;
    // Cancelled while it waited (and the queue had already handed it out).
    if (stored.record.status !== 'pending') return;
    const stopper = new AbortController();
    if (this.interrupted) stopper.abort();
    this.stoppers.set(id, stopper);
    try {
      await this.runOnce(stored, stopper.signal);
    } finally {
      this.stoppers.delete(id);
      this.index.clearProgress(id);
    }
  }

  private async runOnce(stored: StoredAction, signal: AbortSignal): Promise<void> {
    const id = stored.record.actionUuid;
    stored.attempts += 1;
    stored.record = { ...stored.record, started_at: new Date().toISOString(), updated_at: new Date().toISOString() };
    // The start is written for crash recovery only: a disk without room must not stop the solve.
    await this.store.save(stored).catch((error: unknown) => {
      this.log({ event: 'store_write_failed', action_id: id, reason: (error as Error).message });
    });
    // Cancelled (or deleted) while its start was being written: nothing is to run.
    if (stored.record.status !== 'pending') return;
    this.log({ event: 'solve_started', action_id: id, attempt: stored.attempts });
    const startedAt = Date.now();
    const onProgress = (progress: SolveProgress): void => this.index.setProgress(id, progress);
    try {
      const outcome = await this.runner.run(this.solveOf(stored), signal, onProgress);
      // A cancel ended the action while it ran; its outcome, if any, is not wanted.
      if (stored.record.status !== 'pending') return;
      await this.end(stored, outcome.ok ? { status: 'finished', solution: outcome.plan } : { status: 'failed', error: outcome.error });
      this.log({ event: 'solve_ended', action_id: id, status: stored.record.status, duration_ms: Date.now() - startedAt });
    } catch (error) {
      if (stored.record.status !== 'pending') return;
      if (error instanceof JobAbortedError) {
        stored.attempts -= 1;
        this.log({ event: 'solve_interrupted', action_id: id });
        await this.store.save(stored).catch((failure: unknown) => {
          this.log({ event: 'store_write_failed', action_id: id, reason: (failure as Error).message });
        });
        return;
      }
      await this.end(stored, { status: 'failed', error: { code: 'internal_error', message: (error as Error).message, details: [] } });
    }
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
   * Finishes or fails the action: the record changes at once (every reader sees it from now on),
   * then it is written; it stays among the live ones until the write is done, so a read cannot
   * find the older file meanwhile. A failed write is retried in the background (saveEnded).
   */
  private async end(
    stored: StoredAction,
    ending: { status: 'finished'; solution: Plan } | { status: 'failed'; error: ErrorBody['error'] },
  ): Promise<void> {
    const now = new Date().toISOString();
    stored.record = { ...stored.record, ...ending, finished_at: now, updated_at: now };
    this.index.setStatus(stored.record.actionUuid, ending.status, now);
    if (await this.save(stored)) return;
    void this.saveEnded(stored);
  }

  /** Writes an ended action; true once it is on disk (it then leaves the live ones). */
  private async save(stored: StoredAction): Promise<boolean> {
    if (this.deleted.has(stored)) return true;
    try {
      await this.store.save(stored);
      this.live.delete(stored.record.actionUuid);
      return true;
    } catch (error) {
      this.log({ event: 'store_write_failed', action_id: stored.record.actionUuid, reason: (error as Error).message });
      return false;
    }
  }

  /** Retries an ended action's write with growing waits; the record stays live (polls see the outcome) until one succeeds. */
  private async saveEnded(stored: StoredAction): Promise<void> {
    for (const delayMs of this.saveRetryDelaysMs) {
      await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
      if (await this.save(stored)) return;
    }
    this.log({ event: 'record_not_saved', action_id: stored.record.actionUuid, status: stored.record.status });
  }
}
