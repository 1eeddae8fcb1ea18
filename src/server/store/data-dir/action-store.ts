/**
 * The data directory's ActionStore (ports.ts): actions as `actions/<uuid>.json`, an index of all of
 * them in memory, and the pending ones kept as one live object each, so that a cancel and the run
 * change the same record. An ending counts at once, in memory (this process is the only reader):
 * its write is retried in the background when the disk refuses it, and until it succeeds the
 * ended record stays live, so that no read finds the older one on disk.
 */
import { randomUUID } from 'node:crypto';
import type { ActionProgress, OptimizationSummary } from '../../api-types.js';
import type { ActionRef, ActionStore, EndOutcome, Ending, StoredAction } from '../ports.js';
import { IdempotencyKeyTakenError } from '../errors.js';
import { endedRecord } from '../records.js';
import { ActionIndex } from './action-index.js';
import type { JsonStore } from './json-store.js';
import type { Resumed } from './solve-queue.js';

type Log = (event: Record<string, unknown>) => void;

/**
 * Waits between retries of an ended action's write that failed (a full disk): about half a
 * minute in all. Meanwhile, and after, reads find the ending in memory; if the disk never has
 * room, the action is still pending on disk and runs again at the next start.
 */
export const SAVE_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000, 15_000];

/**
 * An action during whose runs the service died of an error this often is failed rather than run
 * again, so that one poisonous request cannot keep the service crashing. Only those deaths count:
 * a kill -9, an out-of-memory kill or a power cut leaves no trace and the action runs again, and a
 * solve's own failures (its worker thread crashing, running out of memory or time) already fail
 * the action without taking the service down.
 */
const MAX_CRASHES = 3;

/** What recover() found: every stored action, and the pending ones to queue again (oldest first). */
export interface RecoveredActions {
  total: number;
  resumed: Resumed[];
}

export class DataDirActionStore implements ActionStore {
  private readonly index = new ActionIndex();
  /** The pending actions, and ended ones whose write is still being retried. */
  private readonly live = new Map<string, StoredAction>();
  /** Deleted actions whose ended record may still be being written again (retryEnded): it must not come back. */
  private readonly deleted = new WeakSet<StoredAction>();

  constructor(
    private readonly json: JsonStore,
    private readonly log: Log,
    private readonly saveRetryDelaysMs: readonly number[] = SAVE_RETRY_DELAYS_MS,
  ) {}

  /**
   * Reads every action into the index and counts the crash notes of the last run against the
   * actions they name; answers the pending ones, which the queue runs again (or gives up on).
   */
  async recover(): Promise<RecoveredActions> {
    const { records, unreadable } = await this.json.readAll<StoredAction>('actions');
    for (const bad of unreadable) this.log({ event: 'unreadable_record', file: bad.file, reason: bad.reason });
    for (const stored of records) this.index.add(stored);
    await this.countCrashes(records);
    const pending = records
      .filter((stored) => stored.record.status === 'pending')
      .sort((a, b) => a.record.created_at.localeCompare(b.record.created_at));
    for (const stored of pending) this.live.set(stored.record.actionUuid, stored);
    return { total: records.length, resumed: pending.map(resumedOf) };
  }

  async create(stored: StoredAction): Promise<void> {
    // As PostgreSQL's unique key: within this one process, IdempotencyTurns already looks first.
    if (stored.idempotency && this.index.createdWith(stored.owner, stored.idempotency.key) !== undefined) {
      throw new IdempotencyKeyTakenError();
    }
    try {
      await this.write(stored);
    } catch (error) {
      this.index.remove(stored.record.actionUuid);
      throw error;
    }
    this.live.set(stored.record.actionUuid, stored);
  }

  async update(stored: StoredAction): Promise<boolean> {
    if (!this.index.isPending(stored.record.actionUuid)) return false;
    await this.write(stored);
    return true;
  }

  async end(stored: StoredAction, ending: Ending): Promise<EndOutcome> {
    const actionUuid = stored.record.actionUuid;
    if (!this.index.isPending(actionUuid)) return 'lost-race';
    stored.record = endedRecord(stored.record, ending);
    this.live.set(actionUuid, stored);
    this.index.add(stored);
    if (!(await this.writeEnded(stored))) void this.retryEnded(stored);
    return 'written';
  }

  async load(actionUuid: string): Promise<StoredAction | null> {
    const live = this.live.get(actionUuid);
    if (live) return live;
    if (!this.index.has(actionUuid)) return null;
    return this.json.read<StoredAction>('actions', actionUuid);
  }

  async findByIdempotencyKey(owner: string, key: string): Promise<StoredAction | null> {
    const actionUuid = this.index.createdWith(owner, key);
    return actionUuid === undefined ? null : this.load(actionUuid);
  }

  async remove(actionUuid: string): Promise<void> {
    const live = this.live.get(actionUuid);
    if (live) this.deleted.add(live);
    await this.json.remove('actions', actionUuid);
    this.index.remove(actionUuid);
    this.live.delete(actionUuid);
  }

  endedBefore(before: Date): Promise<ActionRef[]> {
    return Promise.resolve(this.index.endedBefore(before.toISOString()));
  }

  setProgress(actionUuid: string, progress: ActionProgress): void {
    this.index.setProgress(actionUuid, progress);
  }

  progressOf(actionUuid: string): Promise<ActionProgress | undefined> {
    return Promise.resolve(this.index.progressOf(actionUuid));
  }

  clearProgress(actionUuid: string): void {
    this.index.clearProgress(actionUuid);
  }

  of(projectId: string): Promise<OptimizationSummary[]> {
    return Promise.resolve(this.index.of(projectId));
  }

  latestOfEach(projectIds: string[]): Promise<Map<string, OptimizationSummary>> {
    const latest = new Map<string, OptimizationSummary>();
    for (const projectId of projectIds) {
      const summary = this.index.latestOf(projectId);
      if (summary) latest.set(projectId, summary);
    }
    return Promise.resolve(latest);
  }

  /** Notes, synchronously and best effort, the actions running as the process dies of an error. */
  noteCrash(running: string[]): void {
    if (running.length === 0) return;
    this.json.writeNow('crashes', randomUUID(), { at: new Date().toISOString(), running });
  }

  /** The index changes first, so that a project lists a change as soon as a read of the action shows it. */
  private async write(stored: StoredAction): Promise<void> {
    this.index.add(stored);
    await this.json.write('actions', stored.record.actionUuid, stored);
  }

  /** Writes an ended action; it then leaves the live ones. False (logged) when the disk refused it. */
  private async writeEnded(stored: StoredAction): Promise<boolean> {
    if (this.deleted.has(stored)) return true;
    try {
      await this.json.write('actions', stored.record.actionUuid, stored);
      this.live.delete(stored.record.actionUuid);
      return true;
    } catch (error) {
      this.log({ event: 'store_write_failed', action_id: stored.record.actionUuid, reason: (error as Error).message });
      return false;
    }
  }

  /** Retries an ended action's write with growing waits; the record stays live (reads see the ending) until one succeeds. */
  private async retryEnded(stored: StoredAction): Promise<void> {
    for (const delayMs of this.saveRetryDelaysMs) {
      await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
      if (await this.writeEnded(stored)) return;
    }
    this.log({ event: 'record_not_saved', action_id: stored.record.actionUuid, status: stored.record.status });
  }

  /** Each crash note adds one crash to the actions it names, then is removed. */
  private async countCrashes(records: StoredAction[]): Promise<void> {
    const notes = await this.crashNotes();
    for (const note of notes) {
      for (const stored of records.filter((candidate) => note.running.includes(candidate.record.actionUuid))) {
        stored.crashes = (stored.crashes ?? 0) + 1;
        await this.write(stored);
        this.log({ event: 'crash_counted', action_id: stored.record.actionUuid, crashes: stored.crashes });
      }
    }
    for (const note of notes) await this.json.remove('crashes', note.id);
  }

  /** The crash notes left since the last start: each, the actions then running. */
  private async crashNotes(): Promise<{ id: string; running: string[] }[]> {
    const notes: { id: string; running: string[] }[] = [];
    for (const id of await this.json.ids('crashes')) {
      const note = await this.json.read<{ running?: unknown }>('crashes', id).catch(() => null);
      const running = Array.isArray(note?.running) ? note.running.filter((entry): entry is string => typeof entry === 'string') : [];
      notes.push({ id, running });
    }
    return notes;
  }
}

/** A pending action found at start: queued again, or failed when the service crashed too often while it ran. */
function resumedOf(stored: StoredAction): Resumed {
  const crashes = stored.crashes ?? 0;
  const resumed = { owner: stored.owner, actionUuid: stored.record.actionUuid };
  return crashes >= MAX_CRASHES ? { ...resumed, gaveUp: { cause: 'crashed', crashes } } : resumed;
}
