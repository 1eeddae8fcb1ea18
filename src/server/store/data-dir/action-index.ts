/**
 * What the data directory's one process knows of every action without reading its file: its
 * owner, its project, its current status (a project lists its optimizations on every read), its
 * Idempotency-Key, and the latest progress of a running solve. Progress lives here only: it is
 * stale the moment the solve ends, and writing the record several times a second would cost a disk
 * sync each time for nothing a restart could use.
 */
import type { ActionProgress, ActionRecord, OptimizationSummary } from '../../api-types.js';
import type { ActionRef } from '../ports.js';
import { isAfter, newestFirst, type ActionListItem, type ActionListRequest } from '../../action-list.js';
import { listed, type Listable } from '../records.js';

interface IndexedAction {
  owner: string;
  projectId?: string;
  /** When it ended (finished or failed); retention counts from there. */
  endedAt?: string;
  /** Its owner's Idempotency-Key slot, if it was created with one. */
  slot?: string;
  summary: OptimizationSummary;
  /** As its owner's list shows it, kept current with the record. */
  listing: ActionListItem;
  progress?: ActionProgress;
}

interface Indexable {
  owner: string;
  idempotency?: { key: string };
  record: Listable & Pick<ActionRecord, 'project_id'>;
}

export class ActionIndex {
  private readonly actions = new Map<string, IndexedAction>();
  /** Per project, its optimize actions newest first (the summaries are shared with `actions`). */
  private readonly byProject = new Map<string, OptimizationSummary[]>();
  /** Per owner and Idempotency-Key, the action it created. */
  private readonly bySlot = new Map<string, string>();

  /** Adds an action, or brings a known one's status up to date. */
  add({ owner, idempotency, record }: Indexable): void {
    const endedAt = record.status === 'pending' ? undefined : (record.finished_at ?? record.updated_at ?? record.created_at);
    const known = this.actions.get(record.actionUuid);
    if (known) {
      known.summary.status = record.status;
      known.listing = listed(record);
      if (record.status !== 'pending') delete known.progress;
      if (endedAt !== undefined) known.endedAt = endedAt;
      return;
    }
    const summary: OptimizationSummary = {
      actionUuid: record.actionUuid,
      status: record.status,
      created_at: record.created_at,
      kind: record.kind ?? 'optimized',
    };
    const slot = idempotency ? slotName(owner, idempotency.key) : undefined;
    this.actions.set(record.actionUuid, {
      owner,
      summary,
      listing: listed(record),
      ...(record.project_id !== undefined ? { projectId: record.project_id } : {}),
      ...(endedAt !== undefined ? { endedAt } : {}),
      ...(slot !== undefined ? { slot } : {}),
    });
    if (slot !== undefined) this.bySlot.set(slot, record.actionUuid);
    if (record.project_id !== undefined) this.addToProject(record.project_id, summary);
  }

  private addToProject(projectId: string, summary: OptimizationSummary): void {
    const list = this.byProject.get(projectId) ?? [];
    // In front, then a stable sort: of two actions created in the same millisecond, the later added stays first.
    list.unshift(summary);
    list.sort((a, b) => b.created_at.localeCompare(a.created_at));
    this.byProject.set(projectId, list);
  }

  has(actionUuid: string): boolean {
    return this.actions.has(actionUuid);
  }

  /** Whether the action is here and has not ended. */
  isPending(actionUuid: string): boolean {
    return this.actions.get(actionUuid)?.summary.status === 'pending';
  }

  /** The action `owner` created with Idempotency-Key `key`, if it is still here. */
  createdWith(owner: string, key: string): string | undefined {
    return this.bySlot.get(slotName(owner, key));
  }

  /** Forgets a deleted action, in its project's list and its key's slot too. */
  remove(actionUuid: string): void {
    const action = this.actions.get(actionUuid);
    if (!action) return;
    this.actions.delete(actionUuid);
    if (action.slot !== undefined && this.bySlot.get(action.slot) === actionUuid) this.bySlot.delete(action.slot);
    if (action.projectId === undefined) return;
    const list = this.byProject.get(action.projectId) ?? [];
    const at = list.indexOf(action.summary);
    if (at !== -1) list.splice(at, 1);
    if (list.length === 0) this.byProject.delete(action.projectId);
  }

  /** The ended actions (finished or failed) that ended before `before` (an ISO time). */
  endedBefore(before: string): ActionRef[] {
    const found: ActionRef[] = [];
    for (const [actionUuid, action] of this.actions) {
      if (action.summary.status !== 'pending' && action.endedAt !== undefined && action.endedAt < before)
        found.push({ actionUuid, owner: action.owner });
    }
    return found;
  }

  /** The owner's actions as ActionStore.listOf answers them. */
  listOf(owner: string, request: ActionListRequest): ActionListItem[] {
    const { status, after, limit } = request;
    const found: ActionListItem[] = [];
    for (const action of this.actions.values()) {
      if (action.owner !== owner || (status !== undefined && action.listing.status !== status)) continue;
      if (after === undefined || isAfter(action.listing, after)) found.push(action.listing);
    }
    return found
      .sort(newestFirst)
      .slice(0, limit)
      .map((listing) => ({ ...listing }));
  }

  setProgress(actionUuid: string, progress: ActionProgress): void {
    const action = this.actions.get(actionUuid);
    if (action?.summary.status !== 'pending') return;
    action.progress = progress;
  }

  /** Once its solve is no longer running (ended, or interrupted by a shutdown and pending again). */
  clearProgress(actionUuid: string): void {
    const action = this.actions.get(actionUuid);
    if (action) delete action.progress;
  }

  progressOf(actionUuid: string): ActionProgress | undefined {
    return this.actions.get(actionUuid)?.progress;
  }

  of(projectId: string): OptimizationSummary[] {
    return (this.byProject.get(projectId) ?? []).map((summary) => ({ ...summary }));
  }

  latestOf(projectId: string): OptimizationSummary | null {
    const latest = this.byProject.get(projectId)?.[0];
    return latest ? { ...latest } : null;
  }
}

function slotName(owner: string, key: string): string {
  return `${owner}\n${key}`;
}
