/**
 * The plan shown in the page, and adjusting it by hand (decisions.md, "Editing a project and
 * re-planning the day"). A move ("Move to…", or a drag in the itineraries or on the timeline)
 * makes a draft, which the server re-times at once with the solver's route evaluator; the page
 * shows the draft's routes with each violation next to its stop or route, and "Save plan" keeps
 * it as a new plan of the project (kind `edited`), "Discard" goes back to the plan it came from.
 * Locks are the stops' own fields (`driver`, `sequence`), changed through PATCH …/stops/{id}.
 */
import type { Plan, PlanRoute, PlanStopVisit } from '../output/plan-types.js';
import { ApiError, evaluatePlan, patchStop, savePlan } from './api.js';
import { button, byId, h, reportError, type Child } from './dom.js';
import { exportButtons, routeTools } from './exports.js';
import type { ProjectMap } from './map.js';
import { openMoveDialog } from './move-dialog.js';
import { changesView, lockBadge, lockIcon, routeViolations, stopViolations, violationsSummary } from './plan-notes.js';
import {
  draftOf,
  driverIdOf,
  moveStop,
  placeOf,
  planFitsProject,
  requestOf,
  stopIdsOf,
  type Destination,
  type Draft,
} from './plan-draft.js';
import { enableItineraryDrag } from './plan-drag.js';
import { itinerariesView, summaryView, unservedView, type StopExtras } from './plan-view.js';
import { timelineView } from './timeline-view.js';
import type { Action, PlanViolation, Project, Session } from './types.js';

interface DraftState {
  routes: Draft;
  plan: Plan;
  violations: PlanViolation[];
}

export class PlanEditor {
  private base: Action | null = null;
  private draft: DraftState | null = null;
  /** The rules the plan shown (not a draft) breaks, for a plan kept by hand. */
  private baseViolations: PlanViolation[] = [];
  /** Bumped by every move and by every plan shown, so that a late answer of an older evaluation is dropped. */
  private generation = 0;
  /** After a re-render, the stop whose "Move to…" button gets the focus back. */
  private focusStop: string | null = null;
  private readonly announcer = byId('draft-announce');

  constructor(
    private readonly session: Session,
    private readonly project: Project,
    private readonly map: ProjectMap,
    /** A saved plan: the page lists it in the history and opens it. */
    private readonly onSaved: (action: Action) => Promise<void>,
    /** The plan that can be dispatched now: the one shown, none while a draft is (it must be saved first). */
    private readonly onDispatchable: (action: Action | null) => void,
    /** The project changed here (a lock): the page shows its new version and stops. */
    private readonly onProjectChanged: () => void,
  ) {
    enableItineraryDrag(byId('itineraries'), (stopId, to) => void this.move(stopId, to));
  }

  /** Shows a finished plan (or none), dropping any draft. */
  showAction(action: Action | null): void {
    const generation = ++this.generation;
    this.base = action?.status === 'finished' && action.solution ? action : null;
    this.baseViolations = [];
    this.draft = null;
    this.render();
    if (this.base?.kind === 'edited') void this.findBaseViolations(this.base, generation);
  }

  /** A plan kept by hand may break rules, as its draft did: they are shown with it again (an evaluation changes nothing). */
  private async findBaseViolations(base: Action, generation: number): Promise<void> {
    if (!base.solution || !this.editable) return;
    const request = requestOf(draftOf(base.solution, this.project), base.actionUuid);
    const evaluation = await evaluatePlan(this.session, this.project.id, request).catch(() => null);
    if (generation !== this.generation || !evaluation || evaluation.violations.length === 0) return;
    this.baseViolations = evaluation.violations;
    this.render();
  }

  private get shownPlan(): Plan | null {
    return this.draft?.plan ?? this.base?.solution ?? null;
  }

  private get editable(): boolean {
    const plan = this.shownPlan;
    return plan !== null && planFitsProject(plan, this.project);
  }

  /** Makes the move on the draft (or on the plan shown, for the first move) and has the server re-time it. */
  async move(stopId: string, to: Destination): Promise<void> {
    const plan = this.shownPlan;
    if (!this.base || !plan || !this.editable) return;
    const routes = moveStop(this.draft?.routes ?? draftOf(plan, this.project), stopId, to);
    const generation = ++this.generation;
    this.focusStop = stopId;
    this.announce('Re-timing the plan…');
    try {
      const evaluation = await evaluatePlan(this.session, this.project.id, requestOf(routes, this.base.actionUuid));
      if (generation !== this.generation) return;
      this.draft = { routes, plan: evaluation.plan, violations: evaluation.violations };
      this.render();
      const count = evaluation.violations.length;
      this.announce(
        `Draft re-timed: ${count === 0 ? 'no rule broken' : `${count} ${count === 1 ? 'violation' : 'violations'}`}. Not saved yet.`,
      );
    } catch (error) {
      if (generation === this.generation) this.showError(error);
    }
  }

  private async save(): Promise<void> {
    if (!this.base || !this.draft) return;
    const saved = await savePlan(this.session, this.project.id, requestOf(this.draft.routes, this.base.actionUuid));
    this.announce('Plan saved.');
    await this.onSaved(saved);
  }

  private discard(): void {
    this.generation++;
    this.draft = null;
    this.render();
    this.announce('Draft discarded.');
    byId('plan-title').focus();
  }

  private render(): void {
    const plan = this.shownPlan;
    this.map.showPlan(plan);
    this.onDispatchable(this.draft ? null : this.base);
    byId('summary-card').hidden = plan === null;
    byId('plan').hidden = plan === null;
    byId('draft-error').hidden = true;
    if (!this.base || plan === null) return;
    const context = { project: this.project, actionUuid: this.base.actionUuid, plan };
    byId('summary').replaceChildren(summaryView(plan));
    byId('exports').replaceChildren(...(this.draft ? [h('p', { class: 'hint' }, 'Save the plan to export it.')] : exportButtons(context)));
    const changes = this.draft ? undefined : plan.changes;
    byId('plan-changes').replaceChildren(changes ? changesView(changes) : '');
    byId('plan-draft').replaceChildren(...this.draftBar());
    const editable = this.editable;
    byId('timeline').replaceChildren(timelineView(plan, editable ? (stopIndex, to) => this.moveIndexed(plan, stopIndex, to) : undefined));
    const extras = editable ? this.extras() : undefined;
    const exportTools = routeTools(context);
    const tools = (route: PlanRoute, position: number): Child[] => [
      ...(this.draft ? [] : exportTools(route, position)),
      editable
        ? button('Lock route', () => this.lockRoute(route), {
            class: 'button small',
            title: `Lock the route of ${route.vehicle} as it stands`,
          })
        : null,
    ];
    byId('itineraries').replaceChildren(...itinerariesView(plan, tools, extras));
    byId('unserved').replaceChildren(
      unservedView(plan, editable ? (entry) => this.moveButton(entry.stop_index, entry.stop) : undefined) ?? '',
    );
    this.restoreFocus();
  }

  /** The draft's bar above the plan: not saved, its violations, Save plan and Discard; or why the plan cannot be adjusted. */
  private draftBar(): HTMLElement[] {
    if (!this.editable) {
      const note = 'This plan was made before stops or drivers were added or removed; optimize again to adjust it by hand.';
      return [h('p', { class: 'hint' }, note)];
    }
    if (!this.draft) {
      const hint = h('p', { class: 'hint' }, 'To adjust the plan, drag a stop to another place or driver, or use its “Move to…” button.');
      if (this.baseViolations.length === 0) return [hint];
      return [
        h(
          'div',
          { class: 'saved-violations', role: 'region', 'aria-label': 'Rules this plan breaks' },
          violationsSummary(this.baseViolations),
        ),
        hint,
      ];
    }
    return [
      h(
        'div',
        { class: 'draft-bar', role: 'region', 'aria-labelledby': 'draft-title' },
        h('h3', { id: 'draft-title' }, 'Adjusted plan — not saved'),
        violationsSummary(this.draft.violations),
        h(
          'div',
          { class: 'actions' },
          button('Save plan', () => this.save().catch((error: unknown) => this.showError(error)), { class: 'button primary' }),
          button('Discard', () => this.discard(), { class: 'button' }),
        ),
      ),
    ];
  }

  private extras(): StopExtras {
    const violations = this.draft?.violations ?? this.baseViolations;
    return {
      column: 'Adjust',
      cell: (visit, route) => this.stopTools(visit, route),
      note: (visit) => h('span', {}, lockBadge(this.project.stops[visit.stop_index]), stopViolations(violations, visit.stop_index)),
      row: (visit) => ({ draggable: 'true', 'data-stop-id': this.project.stops[visit.stop_index]!.id, class: 'movable' }),
      routeNote: (route) => h('div', {}, this.routeLockNote(route), routeViolations(violations, route.vehicle_index)),
      routeAttributes: (route) => ({ 'data-driver-id': driverIdOf(this.project, route) }),
    };
  }

  /** "Route locked" when every stop of the route is locked to its driver in the route's order. */
  private routeLockNote(route: PlanRoute): HTMLElement | null {
    const stops = stopIdsOf(this.project, route).map((id) => this.project.stops.find((stop) => stop.id === id));
    const kept = stops.every((stop, i) => stop?.driver === route.vehicle && stop.sequence === i + 1);
    if (!kept || stops.length === 0) return null;
    return h('p', { class: 'lock-badge' }, lockIcon(), 'Route locked: Optimize keeps these stops with this driver, in this order.');
  }

  private stopTools(visit: PlanStopVisit, route: PlanRoute): HTMLElement {
    const stop = this.project.stops[visit.stop_index]!;
    const locked = stop.driver !== undefined;
    const lock = h('input', { type: 'checkbox', id: `lock-${stop.id}`, checked: locked });
    lock.addEventListener('change', () => {
      const patch = lock.checked ? { driver: route.vehicle, sequence: null } : { driver: null, sequence: null };
      this.changeLocks([[stop.id, patch]], lock.checked ? `${stop.name} locked to ${route.vehicle}.` : `${stop.name} unlocked.`);
    });
    return h(
      'div',
      { class: 'stop-actions' },
      this.moveButton(visit.stop_index, visit.stop),
      h('label', { class: 'lock-toggle', for: `lock-${stop.id}` }, lock, 'Lock to driver'),
    );
  }

  private moveButton(stopIndex: number, stopName: string): HTMLButtonElement {
    const stopId = this.project.stops[stopIndex]!.id;
    const opener = button('Move to…', () => this.openMove(stopId, stopName, opener), { class: 'button small', 'data-move-stop': stopId });
    opener.title = `Move ${stopName} to another driver or place`;
    return opener;
  }

  private openMove(stopId: string, stopName: string, opener: HTMLElement): void {
    const plan = this.shownPlan;
    if (!plan) return;
    const routes = this.draft?.routes ?? draftOf(plan, this.project);
    const drivers = this.project.drivers.map((driver) => ({ id: driver.id, name: driver.name, stops: routes.get(driver.id)?.length ?? 0 }));
    openMoveDialog({ stopName, drivers, from: placeOf(routes, stopId) }, opener, (to) => void this.move(stopId, to));
  }

  /** A stop dropped on the timeline: on route `routeAt`'s driver, before the first of their stops that starts later. */
  private moveIndexed(plan: Plan, stopIndex: number, to: { routeAt: number; position: number }): void {
    const route = plan.routes[to.routeAt];
    if (!route) return;
    void this.move(this.project.stops[stopIndex]!.id, { driverId: driverIdOf(this.project, route), position: to.position });
  }

  /** "Lock route": each of its stops locked to its driver in the order they have, so Optimize keeps the route. */
  lockRoute(route: PlanRoute): void {
    const changes = stopIdsOf(this.project, route).map((id, i): [string, Record<string, unknown>] => [
      id,
      { driver: route.vehicle, sequence: i + 1 },
    ]);
    this.changeLocks(changes, `Route of ${route.vehicle} locked: ${changes.length} stops.`);
  }

  private changeLocks(changes: [string, Record<string, unknown>][], done: string): void {
    void (async () => {
      for (const [stopId, patch] of changes) {
        const changed = await patchStop(this.session, this.project.id, stopId, patch);
        this.project.stops = changed.stops;
        this.project.version = changed.version;
      }
      this.onProjectChanged();
      this.render();
      this.announce(done);
    })().catch((error: unknown) => this.showError(error));
  }

  private restoreFocus(): void {
    if (this.focusStop === null) return;
    const target = document.querySelector<HTMLElement>(`[data-move-stop="${CSS.escape(this.focusStop)}"]`);
    this.focusStop = null;
    target?.focus();
  }

  private showError(error: unknown): void {
    const box = byId('draft-error');
    if (!(error instanceof ApiError)) {
      reportError(error);
      return;
    }
    const details = error.error.details
      .slice(0, 5)
      .map((detail) => h('div', { class: 'detail' }, h('code', {}, detail.path), ` ${detail.message}`));
    box.replaceChildren(h('strong', {}, 'The plan could not be changed. '), `${error.message} (${error.error.code}).`, ...details);
    box.hidden = false;
  }

  private announce(text: string): void {
    this.announcer.textContent = text;
  }
}
