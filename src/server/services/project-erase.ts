/**
 * Deletion of a project's personal data (issue 27, item 11): `DELETE /v1.0/project/{id}` and
 * `--project-retention` erase a project with everything made from it — its optimizations (a
 * pending one cancelled, its solve stopped), its dispatch (reports, positions, proof files, the
 * frozen plan; the driver and tracking links then answer 404) and its customer messages. Those go
 * before the project: a deletion cut short (a store error) leaves the project in place, so the
 * owner sees it and a second DELETE, or the next retention sweep, finishes the job.
 */
import type { ActionService } from './actions/service.js';
import type { DispatchService } from './dispatch/service.js';
import type { OutboxStore, ProjectStore } from '../store/ports.js';

export type EraseReason = 'request' | 'retention';

export interface EraseParts {
  projects: ProjectStore;
  actions: ActionService;
  dispatch: DispatchService;
  /** The customer messages, in the store every process shares. */
  outbox: OutboxStore;
  log: (event: Record<string, unknown>) => void;
}

const DAY_MS = 86_400_000;

export class ProjectEraser {
  constructor(private readonly parts: EraseParts) {}

  /** Erases the project of `owner` and everything made from it; false when `owner` has no such project (another key's: a 404). */
  async erase(owner: string, projectId: string, why: EraseReason = 'request'): Promise<boolean> {
    const { projects, log } = this.parts;
    const stored = await projects.load(projectId);
    if (!stored || stored.owner !== owner) return false;
    const erased = await this.eraseMadeFrom(owner, projectId, why);
    await projects.remove(projectId);
    // A request that read the project just before it went may have made something since (an optimization, a dispatch).
    const late = await this.eraseMadeFrom(owner, projectId, why);
    // Ids and counts only: the log never carries the project's names, addresses or e-mails.
    log({
      event: 'project_deleted',
      project_id: projectId,
      by: why,
      actions: erased.actions + late.actions,
      messages: erased.messages + late.messages,
    });
    return true;
  }

  /** Everything made from the project: its actions, its dispatch, its messages. */
  private async eraseMadeFrom(owner: string, projectId: string, why: EraseReason): Promise<{ actions: number; messages: number }> {
    const actions = await this.eraseActions(owner, projectId, why);
    await this.parts.dispatch.erase(projectId);
    return { actions, messages: await this.eraseMessages(projectId) };
  }

  /**
   * Project retention: erases every project whose day (its `date`, in UTC) ended more than
   * `retentionMs` before `now`. Returns how many.
   */
  async sweep(now: Date, retentionMs: number): Promise<number> {
    let erased = 0;
    for (const { id, owner } of await this.parts.projects.datedBefore(dayBefore(now, retentionMs))) {
      if (await this.erase(owner, id, 'retention')) erased += 1;
    }
    return erased;
  }

  private async eraseActions(owner: string, projectId: string, why: EraseReason): Promise<number> {
    const actions = this.parts.actions;
    let erased = 0;
    for (const { actionUuid } of await actions.optimizations.of(projectId)) {
      if (await actions.remove(owner, actionUuid, why)) erased += 1;
    }
    return erased;
  }

  private eraseMessages(projectId: string): Promise<number> {
    return this.parts.outbox.removeProject(projectId);
  }
}

/**
 * The first date (YYYY-MM-DD) whose day has not yet ended `retentionMs` before `now`: a project
 * dated earlier ended (at the next midnight, UTC) at least that long ago.
 */
export function dayBefore(now: Date, retentionMs: number): string {
  return new Date(Math.floor((now.getTime() - retentionMs) / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}
