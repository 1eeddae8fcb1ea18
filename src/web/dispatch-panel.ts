/**
 * Dispatch on the project page: send the plan shown to the drivers (with a confirm step), each
 * driver's link, and their reports coming back, polled every few seconds as optimization progress is.
 */
import { formatMoment } from './account.js';
import { ApiError, changeDriverLink, dispatchProject, getProject } from './api.js';
import { byId, button, h } from './dom.js';
import { driverLinks, messagesView, progressSummary, stopReports, type DriverLinkActions } from './dispatch-view.js';
import type { Action, DispatchView, DriverLinkView, NotificationsView, Project, Session } from './types.js';

const POLL_MS = 5_000;

type Confirming = 'dispatch' | 'redispatch' | null;

export class DispatchPanel {
  private readonly card = byId('dispatch');
  private readonly announcer = byId('dispatch-announce');
  private readonly errorBox = byId('dispatch-error');
  private dispatch: DispatchView | null;
  private notifications: NotificationsView | undefined;
  private shown: Action | null = null;
  private confirming: Confirming = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Starts a re-optimization of the dispatched day (the page's optimization run follows it); null until the page gives one. */
  private reoptimizer: (() => Promise<void>) | null = null;
  private reoptimizing = false;
  /** Who else shows the day's reports and positions (the project map), told on every render. */
  private readonly watchers: ((dispatch: DispatchView | null) => void)[] = [];

  constructor(
    private readonly session: Session,
    private readonly project: Project,
    /** Opens an optimization in the page's plan view (for "Show the dispatched plan"). */
    private readonly openAction: (actionUuid: string) => Promise<void>,
  ) {
    this.dispatch = project.dispatch ?? null;
    this.notifications = project.notifications;
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') void this.refresh();
    });
  }

  /** What "Re-optimize" runs: the page's optimization run, so it shows the same progress as Optimize. */
  onReoptimize(start: () => Promise<void>): void {
    this.reoptimizer = start;
  }

  /** `show` gets the dispatch record now and after every poll. */
  onDispatch(show: (dispatch: DispatchView | null) => void): void {
    this.watchers.push(show);
    show(this.dispatch);
  }

  /** The plan the page shows now (a finished optimization), which Dispatch would send. */
  showPlan(action: Action | null): void {
    this.shown = action?.status === 'finished' ? action : null;
    this.confirming = null;
    this.render();
  }

  start(): void {
    this.render();
    this.schedulePoll();
  }

  private render(): void {
    this.card.replaceChildren(...(this.dispatch ? this.dispatchedView(this.dispatch) : this.undispatchedView()));
    const stops = byId('dispatch-stops');
    stops.hidden = this.dispatch === null;
    if (this.dispatch) byId('dispatch-stops-table').replaceChildren(stopReports(this.project, this.dispatch));
    byId('emails').replaceChildren(messagesView(this.notifications));
    for (const show of this.watchers) show(this.dispatch);
  }

  private undispatchedView(): Node[] {
    if (this.shown === null) {
      return [
        h('p', { class: 'muted' }, 'Optimize first: a finished plan can be dispatched to the drivers.'),
        h('div', { class: 'actions' }, h('button', { type: 'button', class: 'button primary', disabled: true }, 'Dispatch')),
      ];
    }
    if (this.confirming === 'dispatch') return this.confirmView('dispatch');
    return [
      h('p', {}, 'Send the plan shown to the drivers: each gets a link to their own route, for their phone.'),
      h(
        'div',
        { class: 'actions' },
        button('Dispatch', () => this.ask('dispatch'), { class: 'button primary' }),
      ),
    ];
  }

  private dispatchedView(dispatch: DispatchView): Node[] {
    const newer = this.shown !== null && this.shown.actionUuid !== dispatch.actionUuid;
    const parts: Node[] = [
      h('p', { class: 'run-line' }, h('span', { class: 'badge badge-finished' }, 'Dispatched'), ` ${formatMoment(dispatch.dispatched_at)}`),
      progressSummary(dispatch.stops),
    ];
    if (this.confirming === 'redispatch') parts.push(...this.confirmView('redispatch'));
    else {
      parts.push(
        h(
          'div',
          { class: 'actions' },
          newer ? button('Re-dispatch', () => this.ask('redispatch'), { class: 'button' }) : null,
          this.shown?.actionUuid !== dispatch.actionUuid
            ? button('Show the dispatched plan', () => this.openAction(dispatch.actionUuid), { class: 'button' })
            : null,
        ),
      );
      if (newer) parts.push(h('p', { class: 'hint' }, this.newerHint()));
      parts.push(...reoptimizeView(this.reoptimizing, () => this.reoptimize()));
    }
    parts.push(h('h3', {}, 'Driver links'), driverLinks(dispatch, this.linkActions()));
    return parts;
  }

  /** A re-optimized plan is reviewed first, then sent with Re-dispatch: the drivers' phones and customers' messages change with it. */
  private newerHint(): string {
    return this.shown?.actionName === 'reoptimize'
      ? 'The re-optimized plan is shown: check it, then press Re-dispatch to send it to the drivers under the same links.'
      : 'The plan shown is not the one the drivers have.';
  }

  private async reoptimize(): Promise<void> {
    if (this.reoptimizer === null || this.reoptimizing) return;
    this.reoptimizing = true;
    this.announce('Re-optimizing the rest of the day; the progress shows under Optimization.');
    this.render();
    try {
      await this.reoptimizer();
    } finally {
      this.reoptimizing = false;
      this.render();
    }
  }

  private confirmView(kind: 'dispatch' | 'redispatch'): Node[] {
    const drivers = this.shown?.solution?.routes.length ?? 0;
    const question =
      kind === 'dispatch'
        ? `Dispatch this plan to ${drivers} driver${drivers === 1 ? '' : 's'}? Later optimizations will not change their routes.`
        : 'Replace the drivers’ routes with the plan shown? Their links stay the same, and stops already reported keep their status.';
    return [
      h('p', { class: 'confirm' }, question),
      h(
        'div',
        { class: 'actions' },
        button(kind === 'dispatch' ? 'Confirm dispatch' : 'Confirm re-dispatch', () => this.send(kind === 'redispatch'), {
          class: 'button primary',
        }),
        button('Not now', () => this.ask(null), { class: 'button' }),
      ),
    ];
  }

  private ask(kind: Confirming): void {
    this.confirming = kind;
    this.render();
    const first = this.card.querySelector<HTMLButtonElement>('.actions button');
    first?.focus();
  }

  private async send(redispatch: boolean): Promise<void> {
    if (this.shown === null) return;
    await this.guard(async () => {
      this.dispatch = await dispatchProject(this.session, this.project.id, this.shown!.actionUuid, redispatch);
      this.confirming = null;
      this.announce(redispatch ? 'Re-dispatched: the drivers’ links show the new routes.' : 'Dispatched: send each driver their link.');
      await this.refresh();
    });
  }

  private linkActions(): DriverLinkActions {
    return {
      copy: (link) => this.copy(link),
      revoke: (link) => this.changeLink(link, 'revoke', `The link of ${link.driver_name} is withdrawn.`),
      renew: (link) => this.changeLink(link, 'link', `${link.driver_name} has a new link; the old one no longer opens.`),
    };
  }

  private async changeLink(link: DriverLinkView, change: 'revoke' | 'link', done: string): Promise<void> {
    await this.guard(async () => {
      this.dispatch = await changeDriverLink(this.session, this.project.id, link.driver_id, change);
      this.announce(done);
      this.render();
    });
  }

  private async copy(link: DriverLinkView): Promise<void> {
    if (link.url === undefined) return;
    try {
      await navigator.clipboard.writeText(link.url);
      this.announce(`Link for ${link.driver_name} copied.`);
    } catch {
      // No clipboard access (plain http on another host): let the dispatcher copy it by hand.
      window.prompt(`Copy the link for ${link.driver_name}:`, link.url);
    }
  }

  private async refresh(): Promise<void> {
    const fresh = await getProject(this.project.id).catch(() => null);
    if (fresh === null) return;
    this.dispatch = fresh.dispatch ?? null;
    this.notifications = fresh.notifications;
    this.render();
  }

  private schedulePoll(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const visible = document.visibilityState === 'visible';
      void (visible && this.dispatch !== null ? this.refresh() : Promise.resolve()).finally(() => this.schedulePoll());
    }, POLL_MS);
  }

  private announce(text: string): void {
    this.announcer.textContent = text;
  }

  private async guard(work: () => Promise<void>): Promise<void> {
    this.errorBox.hidden = true;
    try {
      await work();
    } catch (error) {
      this.errorBox.textContent = error instanceof ApiError ? `${error.message} (${error.error.code}).` : String(error);
      this.errorBox.hidden = false;
    }
  }
}

/** The "Re-optimize" control of a dispatched day, with what it does in one paragraph. */
function reoptimizeView(running: boolean, start: () => Promise<void>): Node[] {
  return [
    h('h3', {}, 'Re-plan the rest of the day'),
    h(
      'p',
      { id: 'reoptimize-help', class: 'hint' },
      'Plans from now: done and failed stops stay as reported, each driver goes on from their last stop, stops not yet done keep their driver unless moving one serves more priority, and stops added since dispatch are fitted in.',
    ),
    h(
      'div',
      { class: 'actions' },
      button(running ? 'Re-optimizing…' : 'Re-optimize', start, {
        class: 'button',
        'aria-describedby': 'reoptimize-help',
        disabled: running,
      }),
    ),
  ];
}
