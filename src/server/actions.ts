/**
 * Actions: one asynchronous solve each (`schedule` for POST /schedules, `optimize` for a project).
 * An action is written to disk as `pending` before it is acknowledged, and is rewritten when it
 * starts and when it ends, so that every acknowledged action survives a crash and runs again.
 */
import { randomUUID } from 'node:crypto';
import type { ErrorBody, Warning } from '../errors.js';
import type { DocumentKind } from '../input/index.js';
import type { Plan } from '../output/plan-types.js';
import type { JsonStore } from './store.js';
import type { JobQueue } from './queue.js';
import { JobAbortedError, type SolveRunner } from './solve-runner.js';
import type { SolveJob } from './job.js';

export type ActionStatus = 'pending' | 'finished' | 'failed';
export type ActionName = 'schedule' | 'optimize';

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
}

/** The file on disk: the public record plus what is needed to run it again, never shown. */
interface StoredAction {
  owner: string;
  kind: DocumentKind;
  document: unknown;
  /** Times a run was started; a record that keeps killing the process is failed after MAX_ATTEMPTS. */
  attempts: number;
  record: ActionRecord;
}

export interface SolveSettings {
  timeLimitMs: number;
  seed: number;
  roadFactor?: number;
  baseSpeedKmh?: number;
}

export interface NewAction {
  owner: string;
  kind: DocumentKind;
  document: unknown;
  actionName: ActionName;
  warnings: Warning[];
  projectId?: string;
}

const MAX_ATTEMPTS = 3;

export class ActionService {
  private readonly owners = new Map<string, string>();
  private readonly abortRunning = new AbortController();

  constructor(
    private readonly store: JsonStore,
    private readonly queue: JobQueue,
    private readonly runner: SolveRunner,
    private readonly settings: SolveSettings,
    private readonly log: (event: Record<string, unknown>) => void,
  ) {}

  private recovered: StoredAction[] = [];

  /** Loads every stored action (so polls find them) and remembers the ones still pending. */
  async recover(): Promise<{ total: number; pending: number }> {
    const { records, unreadable } = await this.store.readAll<StoredAction>('actions');
    for (const bad of unreadable) this.log({ event: 'unreadable_record', file: bad.file, reason: bad.reason });
    for (const stored of records) this.owners.set(stored.record.actionUuid, stored.owner);
    this.recovered = records
      .filter((stored) => stored.record.status === 'pending')
      .sort((a, b) => a.record.created_at.localeCompare(b.record.created_at));
    return { total: records.length, pending: this.recovered.length };
  }

  /** Queues again, oldest first, the actions recover() found pending; they were accepted, so no limit applies. */
  async resumePending(): Promise<void> {
    const pending = this.recovered;
    this.recovered = [];
    for (const stored of pending) {
      if (stored.attempts >= MAX_ATTEMPTS) {
        await this.fail(stored, {
          code: 'too_many_attempts',
          message: `the solve was interrupted ${stored.attempts} times without finishing`,
          details: [],
        });
        continue;
      }
      this.queue.pushAccepted(() => this.execute(stored));
    }
  }

  /** Persists a new pending action and queues it; throws QueueFullError before writing anything. */
  async accept(request: NewAction): Promise<ActionRecord> {
    const reservation = this.queue.reserve();
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
    const stored: StoredAction = { owner: request.owner, kind: request.kind, document: request.document, attempts: 0, record };
    try {
      await this.store.write('actions', record.actionUuid, stored);
    } catch (error) {
      reservation.cancel();
      throw error;
    }
    this.owners.set(record.actionUuid, request.owner);
    reservation.start(() => this.execute(stored));
    return record;
  }

  /** The action if it exists and belongs to `owner`; null otherwise (so others get a 404). */
  async get(owner: string, actionUuid: string): Promise<ActionRecord | null> {
    if (this.owners.get(actionUuid) !== owner) return null;
    const stored = await this.store.read<StoredAction>('actions', actionUuid);
    return stored && stored.owner === owner ? stored.record : null;
  }

  /** Interrupts running solves; their actions stay pending on disk and run again at the next start. */
  interruptRunning(): void {
    this.abortRunning.abort();
  }

  private async execute(stored: StoredAction): Promise<void> {
    const id = stored.record.actionUuid;
    stored.attempts += 1;
    stored.record = { ...stored.record, started_at: new Date().toISOString(), updated_at: new Date().toISOString() };
    await this.store.write('actions', id, stored);
    this.log({ event: 'solve_started', action_id: id, attempt: stored.attempts });
    const startedAt = Date.now();
    try {
      const outcome = await this.runner.run(this.jobOf(stored), this.abortRunning.signal);
      if (outcome.ok) await this.finish(stored, outcome.plan);
      else await this.fail(stored, outcome.error);
      this.log({ event: 'solve_ended', action_id: id, status: stored.record.status, duration_ms: Date.now() - startedAt });
    } catch (error) {
      if (error instanceof JobAbortedError) {
        stored.attempts -= 1;
        await this.store.write('actions', id, stored);
        this.log({ event: 'solve_interrupted', action_id: id });
        return;
      }
      await this.fail(stored, { code: 'internal_error', message: (error as Error).message, details: [] });
    }
  }

  private jobOf(stored: StoredAction): SolveJob {
    return {
      kind: stored.kind,
      document: stored.document,
      timeLimitMs: this.settings.timeLimitMs,
      seed: this.settings.seed,
      ...(this.settings.roadFactor !== undefined ? { roadFactor: this.settings.roadFactor } : {}),
      ...(this.settings.baseSpeedKmh !== undefined ? { baseSpeedKmh: this.settings.baseSpeedKmh } : {}),
    };
  }

  private finish(stored: StoredAction, plan: Plan): Promise<void> {
    const now = new Date().toISOString();
    stored.record = { ...stored.record, status: 'finished', solution: plan, finished_at: now, updated_at: now };
    return this.store.write('actions', stored.record.actionUuid, stored);
  }

  private fail(stored: StoredAction, error: ErrorBody['error']): Promise<void> {
    const now = new Date().toISOString();
    stored.record = { ...stored.record, status: 'failed', error, finished_at: now, updated_at: now };
    return this.store.write('actions', stored.record.actionUuid, stored);
  }
}
