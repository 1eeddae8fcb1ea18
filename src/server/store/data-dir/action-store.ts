/**
 * What the actions need from storage (actions.ts), apart from how it is kept (decisions.md, "Running
 * the service on more than one machine"): the data directory (DataDirActionStore below, the one
 * process that owns it keeping an index in memory) or PostgreSQL (postgres/action-store.ts, shared
 * by every process). Every method that writes resolves only once the change is durable, and throws
 * StoreUnavailableError (503 with Retry-After) when it cannot be made.
 */
import { randomUUID } from 'node:crypto';
import type { DocumentKind } from '../../../input/index.js';
import type { ActionProgress, ActionRecord, OptimizationSummary } from '../../api-types.js';
import type { Optimizations } from '../../services/projects.js';
import type { JsonStore, LoadedRecords, StoreHealth } from './json-store.js';
import { ActionIndex, type ActionRef } from './action-index.js';

/** The stored action: the public record plus what is needed to run it again, never shown. */
export interface StoredAction {
  owner: string;
  kind: DocumentKind;
  document: unknown;
  /** Times a run was started (a kill or a power cut in between is no fault of the action's). */
  attempts: number;
  /** Times the service died of an error while this action ran; the action is failed after MAX_CRASHES. */
  crashes?: number;
  /** The `Idempotency-Key` it was created with, and the fingerprint of that request (method, path, body). */
  idempotency?: { key: string; fingerprint: string };
  record: ActionRecord;
}

export type { ActionRef } from './action-index.js';

export interface ActionStore extends Optimizations {
  /** Stores a new action, durably; IdempotencyKeyTakenError when another has its owner and key. */
  create(stored: StoredAction): Promise<void>;
  /**
   * Creates the action or replaces it, durably, unless the stored one has already ended (another
   * process cancelled or finished it): then nothing is written and the answer is false.
   */
  save(stored: StoredAction): Promise<boolean>;
  /** The action, or null when there is none. */
  load(actionUuid: string): Promise<StoredAction | null>;
  /** The action `owner` created with this Idempotency-Key, or null. */
  findByIdempotencyKey(owner: string, key: string): Promise<StoredAction | null>;
  /** Deletes the action (its request and plan with it); one already gone is fine. */
  remove(actionUuid: string): Promise<void>;
  /** The ended actions (finished or failed) that ended before `before`, for retention. */
  endedBefore(before: Date): Promise<ActionRef[]>;
  /** The latest progress of a running solve: kept where polls of any process can read it, not durably. */
  setProgress(actionUuid: string, progress: ActionProgress): void;
  progressOf(actionUuid: string): Promise<ActionProgress | undefined>;
  clearProgress(actionUuid: string): void;
  /** Whether the store can be written now (/healthz). */
  health(): Promise<StoreHealth>;
}

/** The data directory's crash notes: which actions ran when the one process died of an error. */
export interface CrashNotes {
  /** Notes, synchronously and best effort, the actions running as the process dies of an error. */
  noteCrash(running: string[]): void;
  /** The crash notes left since the last start: each, the actions then running. */
  crashNotes(): Promise<{ id: string; running: string[] }[]>;
  /** Removes a crash note once it has been counted. */
  removeCrashNote(id: string): Promise<void>;
}

/** Actions as JSON files in the data directory, `actions/<uuid>.json`, with an index in memory. */
export class DataDirActionStore implements ActionStore, CrashNotes {
  private readonly index = new ActionIndex();

  constructor(private readonly json: JsonStore) {}

  /** Reads every action into the index; answers them all, and the files that could not be read. */
  async loadAll(): Promise<LoadedRecords<StoredAction>> {
    const loaded = await this.json.readAll<StoredAction>('actions');
    for (const stored of loaded.records) this.index.add(stored);
    return loaded;
  }

  async create(stored: StoredAction): Promise<void> {
    try {
      await this.save(stored);
    } catch (error) {
      this.index.remove(stored.record.actionUuid);
      throw error;
    }
  }

  /** The index changes first, so that a project lists an ending as soon as a poll of the action shows it. */
  async save(stored: StoredAction): Promise<boolean> {
    this.index.add(stored);
    await this.json.write('actions', stored.record.actionUuid, stored);
    return true;
  }

  async load(actionUuid: string): Promise<StoredAction | null> {
    if (!this.index.has(actionUuid)) return null;
    return this.json.read<StoredAction>('actions', actionUuid);
  }

  async findByIdempotencyKey(owner: string, key: string): Promise<StoredAction | null> {
    const actionUuid = this.index.createdWith(owner, key);
    return actionUuid === undefined ? null : this.load(actionUuid);
  }

  async remove(actionUuid: string): Promise<void> {
    await this.json.remove('actions', actionUuid);
    this.index.remove(actionUuid);
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

  noteCrash(running: string[]): void {
    this.json.writeNow('crashes', randomUUID(), { at: new Date().toISOString(), running });
  }

  async crashNotes(): Promise<{ id: string; running: string[] }[]> {
    const notes: { id: string; running: string[] }[] = [];
    for (const id of await this.json.ids('crashes')) {
      const note = await this.json.read<{ running?: unknown }>('crashes', id).catch(() => null);
      const running = Array.isArray(note?.running) ? note.running.filter((entry): entry is string => typeof entry === 'string') : [];
      notes.push({ id, running });
    }
    return notes;
  }

  removeCrashNote(id: string): Promise<void> {
    return this.json.remove('crashes', id);
  }

  health(): Promise<StoreHealth> {
    return this.json.health();
  }
}
