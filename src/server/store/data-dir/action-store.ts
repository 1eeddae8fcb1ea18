/**
 * The data directory's ActionStore (ports.ts): actions as `actions/<uuid>.json`, an index of all of
 * them in memory, and the pending ones kept as one live object each, so that a cancel and the run
 * change the same record. An ending counts once it is on disk, and only then does any read see it:
 * an ending shown but never saved would be lost at a restart, which would run the action again
 * (and could end it otherwise). A write the disk refuses leaves the action pending and throws
 * StoreUnavailableError; the run tries its ending again until it is written (durable-ending.ts).
 */
import { randomUUID } from 'node:crypto';
import type { ActionProgress, OptimizationSummary } from '../../api-types.js';
import type { ActionRef, ActionStore, EndOutcome, Ending, StoredAction } from '../ports.js';
import type { ActionListItem, ActionListRequest } from '../../action-list.js';
import { IdempotencyKeyTakenError } from '../errors.js';
import { endedRecord } from '../records.js';
import { KeyedTurns } from '../../turns.js';
import { ActionIndex } from './action-index.js';
import type { JsonStore } from './json-store.js';
import type { Resumed } from './solve-queue.js';

type Log = (event: Record<string, unknown>) => void;

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
  /** The pending actions. */
  private readonly live = new Map<string, StoredAction>();
  /** The ended actions written `ending_untold`, in the order they ended. */
  private readonly untold = new Set<string>();
  /**
   * An action's start, endings and deletion are made one at a time, each after checking it is
   * still pending: of a cancel and a finished solve, only the first is written, and a start written
   * late never lands over an ending.
   */
  private readonly changes = new KeyedTurns();

  constructor(
    private readonly json: JsonStore,
    private readonly log: Log,
  ) {}

  /**
   * Reads every action into the index and counts the crash notes of the last run against the
   * actions they name; answers the pending ones, which the queue runs again (or gives up on).
   */
  async recover(): Promise<RecoveredActions> {
    const { records, unreadable } = await this.json.readAll<StoredAction>('actions');
    for (const bad of unreadable) this.log({ event: 'unreadable_record', file: bad.file, reason: bad.reason });
    for (const stored of records) this.index.add(stored);
    const untold = records.filter((stored) => stored.ending_untold === true && stored.record.status !== 'pending');
    for (const stored of untold.sort(byEnding)) this.untold.add(stored.record.actionUuid);
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

  update(stored: StoredAction): Promise<boolean> {
    return this.changes.run(stored.record.actionUuid, async () => {
      if (!this.index.isPending(stored.record.actionUuid)) return false;
      await this.write(stored);
      return true;
    });
  }

  /** Written first, shown after: until the disk holds the ending, every read finds the action pending. */
  end(stored: StoredAction, ending: Ending): Promise<EndOutcome> {
    const actionUuid = stored.record.actionUuid;
    return this.changes.run(actionUuid, async () => {
      if (!this.index.isPending(actionUuid)) return 'lost-race';
      const ended: StoredAction = { ...stored, record: endedRecord(stored.record, ending) };
      await this.json.write('actions', actionUuid, ended);
      stored.record = ended.record;
      this.index.add(stored);
      this.live.delete(actionUuid);
      if (ended.ending_untold === true) this.untold.add(actionUuid);
      return 'written';
    });
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

  /** In turn with the action's start and endings, so that an ending being written cannot bring it back. */
  remove(actionUuid: string): Promise<void> {
    return this.changes.run(actionUuid, async () => {
      await this.json.remove('actions', actionUuid);
      this.index.remove(actionUuid);
      this.live.delete(actionUuid);
      this.untold.delete(actionUuid);
    });
  }

  async endingsUntold(): Promise<StoredAction[]> {
    const found = await Promise.all([...this.untold].map((actionUuid) => this.json.read<StoredAction>('actions', actionUuid)));
    return found.filter((stored): stored is StoredAction => stored !== null);
  }

  /** In turn with the action's other changes (its deletion), so that a deleted action is not written back. */
  endingTold(actionUuid: string): Promise<void> {
    return this.changes.run(actionUuid, async () => {
      if (!this.untold.has(actionUuid)) return;
      const stored = await this.json.read<StoredAction>('actions', actionUuid);
      if (stored !== null) {
        delete stored.ending_untold;
        await this.json.write('actions', actionUuid, stored);
      }
      this.untold.delete(actionUuid);
    });
  }

  endedBefore(before: Date): Promise<ActionRef[]> {
    return Promise.resolve(this.index.endedBefore(before.toISOString()));
  }

  listOf(owner: string, request: ActionListRequest): Promise<ActionListItem[]> {
    return Promise.resolve(this.index.listOf(owner, request));
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
  const resumed = { owner: stored.owner, actionUuid: stored.record.actionUuid, createdAt: stored.record.created_at };
  return crashes >= MAX_CRASHES ? { ...resumed, gaveUp: { cause: 'crashed', crashes } } : resumed;
}

/** Oldest ending first (the order their events are told again). */
function byEnding(a: StoredAction, b: StoredAction): number {
  return (a.record.finished_at ?? '').localeCompare(b.record.finished_at ?? '') || a.record.actionUuid.localeCompare(b.record.actionUuid);
}
