/**
 * Optimize, follow, cancel, and open earlier optimizations. An optimization is an action of the
 * project: started with POST …/optimize, followed by polling GET /v2/schedules/{id} (its
 * `progress` is the best plan so far), stopped with POST …/cancel.
 */
import { ApiError, cancelAction, getAction, getProject, startOptimization, startReoptimization } from './api.js';
import { formatMoment, signInUrl, statusBadge, statusLabel } from './account.js';
import { byId, h } from './dom.js';
import type { Action, Optimization, Project, Session } from './types.js';

const POLL_MS = 700;
/** Consecutive failed polls before the page reports the error (the waits double: ~1.4 s to ~22 s). */
const POLL_RETRIES = 5;

export interface RunView {
  /** A finished action's plan, or null to clear what is shown. */
  showAction(action: Action | null): void;
}

export class OptimizationRun {
  private readonly optimizeButton = byId<HTMLButtonElement>('optimize');
  private readonly cancelButton = byId<HTMLButtonElement>('cancel');
  private readonly status = byId('run-status');
  private readonly errorBox = byId('run-error');
  private readonly history = byId('history');
  private readonly announcer = byId('run-announce');
  private lastShown = '';
  private optimizations: Optimization[];
  private shown: string | null = null;
  /** Bumped whenever another action is opened, so a stale poll stops quietly. */
  private generation = 0;

  constructor(
    private readonly session: Session,
    private readonly project: Project,
    private readonly view: RunView,
  ) {
    this.optimizations = [...(project.optimizations ?? [])];
    this.optimizeButton.addEventListener('click', () => void this.guard(() => this.optimize()));
    this.cancelButton.addEventListener('click', () => void this.guard(() => this.cancel()));
  }

  /** Shows the latest optimization, if any. */
  async start(): Promise<void> {
    this.renderHistory();
    const latest = this.optimizations[0];
    if (latest) await this.open(latest.actionUuid);
    else this.setStatus(h('p', { class: 'muted' }, 'Not optimized yet. Press Optimize to plan the routes.'));
  }

  private optimize(): Promise<void> {
    return this.begin(() => startOptimization(this.session, this.project.id));
  }

  /** Re-optimizes the dispatched day (the Dispatch card's button), followed like an optimization; resolves once it has ended. */
  reoptimize(): Promise<void> {
    return this.guard(() => this.begin(() => startReoptimization(this.session, this.project.id), 'reoptimized'));
  }

  private async begin(start: () => Promise<Action>, kind?: 'reoptimized'): Promise<void> {
    this.optimizeButton.disabled = true;
    try {
      const accepted = await start();
      this.optimizations.unshift({
        actionUuid: accepted.actionUuid,
        status: 'pending',
        created_at: new Date().toISOString(),
        kind: kind ?? 'optimized',
      });
      await this.open(accepted.actionUuid);
    } finally {
      this.optimizeButton.disabled = false;
    }
  }

  /** A plan kept by hand (kind `edited`): listed first, and shown. */
  async openSaved(action: Action): Promise<void> {
    this.optimizations.unshift({ actionUuid: action.actionUuid, status: action.status, created_at: action.created_at, kind: 'edited' });
    await this.open(action.actionUuid);
  }

  private async cancel(): Promise<void> {
    const uuid = this.shown;
    if (uuid === null) return;
    this.cancelButton.disabled = true;
    try {
      this.show(await cancelAction(this.session, uuid));
    } catch (error) {
      // It ended on its own in the meantime: show how.
      if (error instanceof ApiError && error.error.code === 'not_cancellable') this.show(await getAction(uuid));
      else throw error;
    } finally {
      this.cancelButton.disabled = false;
    }
  }

  async open(actionUuid: string): Promise<void> {
    const generation = ++this.generation;
    this.shown = actionUuid;
    this.errorBox.hidden = true;
    this.renderHistory();
    let action = await getAction(actionUuid);
    while (generation === this.generation) {
      this.show(action);
      if (action.status !== 'pending') return;
      await delay(POLL_MS);
      if (generation !== this.generation) return;
      action = await pollAgain(actionUuid);
    }
  }

  private show(action: Action): void {
    if (action.actionUuid !== this.shown) return;
    const pending = action.status === 'pending';
    this.cancelButton.hidden = !pending;
    const changed = this.recordStatus(action);
    if (pending) {
      this.setStatus(progressView(action, this.session.timeLimitSeconds));
      if (changed) {
        this.view.showAction(null);
        this.announce('Optimization running.');
      }
      return;
    }
    this.generation++;
    this.setStatus(endedView(action));
    this.announce(endedAnnouncement(action));
    if (action.status === 'failed') this.showError(action);
    this.view.showAction(action.status === 'finished' ? action : null);
    // The server's list is the truth once an action ended (another tab may have started one).
    void this.refreshHistory();
  }

  private showError(action: Action): void {
    const error = action.error ?? { code: 'unknown', message: 'the optimization failed without a reason', details: [] };
    const cancelled = error.code === 'cancelled';
    this.errorBox.classList.toggle('alert-neutral', cancelled);
    this.errorBox.replaceChildren(
      h('strong', {}, cancelled ? 'Cancelled. ' : 'The optimization failed. '),
      cancelled ? 'It was stopped before it finished; no plan was kept.' : `${capitalize(error.message)}.`,
      cancelled ? '' : h('span', { class: 'muted' }, ` (${error.code})`),
      ...error.details.slice(0, 5).map((detail) => h('div', { class: 'detail' }, h('code', {}, detail.path), ` ${detail.message}`)),
    );
    this.errorBox.hidden = false;
  }

  /** Notes the action's status in the list; true when the page showed another action or status before. */
  private recordStatus(action: Action): boolean {
    const entry = this.optimizations.find((item) => item.actionUuid === action.actionUuid);
    if (entry && entry.status !== action.status) {
      entry.status = action.status;
      this.renderHistory();
    }
    const key = `${action.actionUuid} ${action.status}`;
    const changed = key !== this.lastShown;
    this.lastShown = key;
    return changed;
  }

  /** The progress is redrawn several times a second; a screen reader hears only the changes of state. */
  private announce(text: string): void {
    this.announcer.textContent = text;
  }

  private async refreshHistory(): Promise<void> {
    const fresh = await getProject(this.project.id).catch(() => null);
    if (fresh?.optimizations) this.optimizations = [...fresh.optimizations];
    this.renderHistory();
  }

  private renderHistory(): void {
    if (this.optimizations.length === 0) {
      this.history.replaceChildren(h('p', { class: 'muted' }, 'None yet.'));
      return;
    }
    this.history.replaceChildren(
      h('ol', { class: 'history-list', reversed: true }, ...this.optimizations.map((item) => this.historyItem(item))),
    );
  }

  private historyItem(item: Optimization): HTMLLIElement {
    const current = item.actionUuid === this.shown;
    const open = h(
      'button',
      { type: 'button', class: 'link-button', 'aria-current': current ? 'true' : undefined },
      `${formatMoment(item.created_at)}`,
      item.kind === 'reoptimized' ? h('span', { class: 'muted' }, ' · re-optimized') : null,
      h('span', { class: 'visually-hidden' }, ` — ${statusLabel(item.status)}${current ? ', shown' : ''}`),
    );
    // An edited plan says so in words: the list holds optimizations and plans adjusted by hand.
    const edited = item.kind === 'edited' ? h('span', { class: 'kind-tag' }, 'edited by hand') : null;
    open.addEventListener('click', () => void this.guard(() => this.open(item.actionUuid)));
    return h(
      'li',
      { class: current ? 'current' : '' },
      open,
      statusBadge(item.status),
      edited,
      current ? h('span', { class: 'shown-tag', 'aria-hidden': 'true' }, 'shown') : null,
    );
  }

  private setStatus(content: HTMLElement): void {
    this.status.replaceChildren(content);
  }

  private async guard(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        // The session expired or was ended elsewhere: sign in again and come back here.
        location.assign(signInUrl());
        return;
      }
      this.errorBox.classList.remove('alert-neutral');
      this.errorBox.textContent = error instanceof ApiError ? `${capitalize(error.message)} (${error.error.code}).` : String(error);
      this.errorBox.hidden = false;
    }
  }
}

function progressView(action: Action, timeLimitSeconds: number): HTMLElement {
  const progress = action.progress;
  const started = action.started_at !== undefined;
  const elapsedMs = progress?.elapsed_ms ?? (started ? Math.max(0, Date.now() - Date.parse(action.started_at!)) : 0);
  const seconds = (elapsedMs / 1000).toFixed(1);
  const lines = [
    h('p', { class: 'run-line' }, statusBadge('pending', started ? 'Optimizing' : 'Queued'), ` ${seconds} s elapsed`),
    timeLimitSeconds > 0
      ? h('progress', {
          max: timeLimitSeconds,
          value: Math.min(elapsedMs / 1000, timeLimitSeconds),
          'aria-label': 'Time used of the time limit',
        })
      : null,
    // The search ends once its plan stops improving: the bar is an upper bound, not a countdown.
    started && timeLimitSeconds > 0
      ? h('p', { class: 'muted' }, `Ends by ${timeLimitSeconds} s at the latest, sooner once the plan stops improving.`)
      : null,
    progress
      ? h(
          'dl',
          { class: 'figures small' },
          figure('Served', String(progress.served)),
          figure('Unserved', String(progress.unserved)),
          figure('Routes', String(progress.routes_used)),
          figure('Cost', Math.round(progress.cost).toLocaleString()),
        )
      : h('p', { class: 'muted' }, started ? 'Waiting for the first plan…' : 'Waiting for a free solver…'),
  ];
  return h('div', { class: 'progress-view' }, ...lines);
}

function endedView(action: Action): HTMLElement {
  const when = formatMoment(action.finished_at ?? action.updated_at);
  if (action.status === 'finished') return h('p', { class: 'run-line' }, statusBadge('finished'), ` Plan of ${when}`);
  const cancelled = action.error?.code === 'cancelled';
  return h('p', { class: 'run-line' }, statusBadge('failed', cancelled ? 'Cancelled' : 'Failed'), ` Ended ${when}`);
}

function endedAnnouncement(action: Action): string {
  if (action.status === 'finished' && action.solution) {
    const { served, unserved } = action.solution.summary;
    return `Plan ready: ${served} stops served, ${unserved} unserved.`;
  }
  return action.error?.code === 'cancelled'
    ? 'Optimization cancelled.'
    : `Optimization failed: ${action.error?.message ?? 'unknown error'}.`;
}

/** A poll that rides out a brief outage (a restart, a dropped connection) instead of giving up on the action. */
async function pollAgain(actionUuid: string): Promise<Action> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await getAction(actionUuid);
    } catch (error) {
      const transient = error instanceof ApiError && (error.status === 0 || error.status >= 500);
      if (!transient || attempt >= POLL_RETRIES) throw error;
      await delay(POLL_MS * 2 ** attempt);
    }
  }
}

function figure(name: string, value: string): HTMLElement {
  return h('div', { class: 'figure' }, h('dt', {}, name), h('dd', {}, value));
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
