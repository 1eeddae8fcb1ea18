/**
 * What the service knows of every action without reading its file: its owner, its project and its
 * current status (a project lists its optimizations on every read), and the latest progress of a
 * running solve. Progress lives here only: it is stale the moment the solve ends, and writing the
 * record several times a second would cost a disk sync each time for nothing a restart could use.
 */
import type { SolveProgress } from '../solver/types.js';
import type { ActionProgress, ActionStatus, OptimizationSummary } from './api-types.js';
import type { Optimizations } from './projects.js';

interface IndexedAction {
  owner: string;
  projectId?: string;
  /** When it ended (finished or failed); retention counts from there. */
  endedAt?: string;
  summary: OptimizationSummary;
  progress?: ActionProgress;
}

export class ActionIndex implements Optimizations {
  private readonly actions = new Map<string, IndexedAction>();
  /** Per project, its optimize actions newest first (the summaries are shared with `actions`). */
  private readonly byProject = new Map<string, OptimizationSummary[]>();

  add(
    owner: string,
    record: {
      actionUuid: string;
      status: ActionStatus;
      created_at: string;
      updated_at?: string;
      finished_at?: string;
      project_id?: string;
    },
  ): void {
    const summary: OptimizationSummary = { actionUuid: record.actionUuid, status: record.status, created_at: record.created_at };
    const endedAt = record.status === 'pending' ? undefined : (record.finished_at ?? record.updated_at ?? record.created_at);
    this.actions.set(record.actionUuid, {
      owner,
      summary,
      ...(record.project_id !== undefined ? { projectId: record.project_id } : {}),
      ...(endedAt !== undefined ? { endedAt } : {}),
    });
    if (record.project_id === undefined) return;
    const list = this.byProject.get(record.project_id) ?? [];
    // In front, then a stable sort: of two actions created in the same millisecond, the later added stays first.
    list.unshift(summary);
    list.sort((a, b) => b.created_at.localeCompare(a.created_at));
    this.byProject.set(record.project_id, list);
  }

  /** Forgets a deleted action, in its project's list too. */
  remove(actionUuid: string): void {
    const action = this.actions.get(actionUuid);
    if (!action) return;
    this.actions.delete(actionUuid);
    if (action.projectId === undefined) return;
    const list = this.byProject.get(action.projectId) ?? [];
    const at = list.indexOf(action.summary);
    if (at !== -1) list.splice(at, 1);
    if (list.length === 0) this.byProject.delete(action.projectId);
  }

  ownerOf(actionUuid: string): string | undefined {
    return this.actions.get(actionUuid)?.owner;
  }

  /** Records a status change; an action that is no longer pending has no progress to show. */
  setStatus(actionUuid: string, status: ActionStatus, endedAt?: string): void {
    const action = this.actions.get(actionUuid);
    if (!action) return;
    action.summary.status = status;
    if (status !== 'pending') delete action.progress;
    if (endedAt !== undefined) action.endedAt = endedAt;
  }

  /** The ended actions (finished or failed) that ended before `before` (an ISO time). */
  endedBefore(before: string): { actionUuid: string; owner: string }[] {
    const found: { actionUuid: string; owner: string }[] = [];
    for (const [actionUuid, action] of this.actions) {
      if (action.summary.status !== 'pending' && action.endedAt !== undefined && action.endedAt < before)
        found.push({ actionUuid, owner: action.owner });
    }
    return found;
  }

  setProgress(actionUuid: string, progress: SolveProgress): void {
    const action = this.actions.get(actionUuid);
    if (action?.summary.status !== 'pending') return;
    action.progress = {
      elapsed_ms: Math.round(progress.elapsedMs),
      iterations: progress.iterations,
      served: progress.served,
      unserved: progress.unserved,
      routes_used: progress.routesUsed,
      cost: progress.cost,
    };
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
