/**
 * What the actions need from storage (actions.ts), apart from how it is kept: the seam for a second
 * store (decisions.md, "Running the service on more than one machine"). Today's implementation is
 * the data directory (DataDirActionStore, on store.ts's JsonStore): `actions/<uuid>.json`, each the
 * action with its request, its plan once finished and its idempotency key, and `crashes/<id>.json`.
 * Every method that writes resolves only once the change is durable, and throws
 * StoreUnavailableError (503 with Retry-After) when it cannot be made.
 */
import { randomUUID } from 'node:crypto';
import type { DocumentKind } from '../input/index.js';
import type { ActionRecord } from './api-types.js';
import type { JsonStore, LoadedRecords, StoreHealth } from './store.js';

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

export interface ActionStore {
  /** Creates or replaces the action, durably. */
  save(stored: StoredAction): Promise<void>;
  /** The action, or null when there is none. */
  load(actionUuid: string): Promise<StoredAction | null>;
  /** Every action, and what could not be read (left for a human to inspect). */
  loadAll(): Promise<LoadedRecords<StoredAction>>;
  /** Deletes the action (its request and plan with it); one already gone is fine. */
  remove(actionUuid: string): Promise<void>;
  /** Notes, synchronously and best effort, the actions running as the process dies of an error. */
  noteCrash(running: string[]): void;
  /** The crash notes left since the last start: each, the actions then running. */
  crashNotes(): Promise<{ id: string; running: string[] }[]>;
  /** Removes a crash note once it has been counted. */
  removeCrashNote(id: string): Promise<void>;
  /** Whether the store can be written now (/healthz). */
  health(): Promise<StoreHealth>;
}

/** Actions as JSON files in the data directory. */
export class DataDirActionStore implements ActionStore {
  constructor(private readonly json: JsonStore) {}

  save(stored: StoredAction): Promise<void> {
    return this.json.write('actions', stored.record.actionUuid, stored);
  }

  load(actionUuid: string): Promise<StoredAction | null> {
    return this.json.read<StoredAction>('actions', actionUuid);
  }

  loadAll(): Promise<LoadedRecords<StoredAction>> {
    return this.json.readAll<StoredAction>('actions');
  }

  remove(actionUuid: string): Promise<void> {
    return this.json.remove('actions', actionUuid);
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
