/**
 * Editing the project in its page (decisions.md, "Editing a project"): a dialog per stop, driver
 * or the project's own fields, a confirm step before a delete, and changes without a form (a
 * candidate picked, a place on the map). Every change is sent with the version shown (If-Match).
 * A 400 puts the service's messages next to their fields; a 412 fetches the current project, shows
 * it, lists what changed meanwhile and keeps the user's change until they re-apply or drop it.
 */
import { ApiError, getProject } from './api.js';
import { button, h } from './dom.js';
import { sendEdit, type Edit, type ItemList } from './edit-api.js';
import { changesBetween, conflictView, describeEdit } from './edit-conflict.js';
import { editForm, Modal } from './edit-dialog.js';
import { changedPatch, driverForm, fieldOfPath, projectForm, stopForm, withoutNulls, type FormSpec } from './edit-fields.js';
import type { Project, ProjectDriver, ProjectStop, ServiceError, Session } from './types.js';

type Outcome =
  | { outcome: 'saved' }
  | { outcome: 'invalid'; error: ServiceError }
  | { outcome: 'conflict'; lines: string[]; mine: string }
  | { outcome: 'gone'; mine: string };

export class ProjectEditor {
  private readonly announcer = h('p', { class: 'visually-hidden', role: 'status' });
  private readonly described = new WeakMap<Edit, string>();

  /**
   * `project` is the page's own object, which the run, the dispatch panel and the exports hold:
   * it is replaced in place by each new version, then `changed` redraws what shows it.
   */
  constructor(
    private readonly session: Session,
    private readonly project: Project,
    private readonly changed: () => void,
  ) {
    document.body.append(this.announcer);
  }

  editStop(stop?: ProjectStop): void {
    const title = stop ? `Edit stop “${stop.name}”` : 'Add a stop';
    this.openForm(title, stopForm(stop), stop ? { list: 'stops', id: stop.id } : { list: 'stops' });
  }

  editDriver(driver?: ProjectDriver): void {
    const title = driver ? `Edit driver “${driver.name}”` : 'Add a driver';
    this.openForm(title, driverForm(driver), driver ? { list: 'drivers', id: driver.id } : { list: 'drivers' });
  }

  editProject(): void {
    this.openForm('Project and settings', projectForm(this.project), null);
  }

  confirmRemove(list: ItemList, item: { id: string; name: string }): void {
    const noun = list === 'stops' ? 'stop' : 'driver';
    const modal = new Modal(`Delete ${noun} “${item.name}”?`);
    modal.show(
      h('p', {}, `The ${noun} is removed from the project. Plans made before keep it; the next Optimize does without it.`),
      h(
        'div',
        { class: 'actions' },
        button(`Delete ${noun}`, () => this.run(modal, { kind: 'remove', list, id: item.id }), { class: 'button danger' }),
        button('Keep it', () => modal.close(), { class: 'button' }),
      ),
    );
  }

  /** A change without a form (a picked candidate, a place on the map): a dialog only when it is refused. */
  async apply(edit: Edit): Promise<void> {
    const outcome = await this.save(edit);
    if (outcome.outcome === 'saved') return;
    const modal = new Modal(outcome.outcome === 'conflict' ? 'The project changed meanwhile' : 'The change was refused');
    this.settle(modal, edit, outcome);
  }

  private openForm(title: string, spec: FormSpec, target: { list: ItemList; id?: string } | null): void {
    const modal = new Modal(title);
    const initial = spec.valuesOf();
    const isNew = target !== null && target.id === undefined;
    const form = editForm(
      spec.fields,
      initial,
      isNew ? 'Add' : 'Save',
      () => void submit(),
      () => modal.close(),
    );
    const prefixOf = (): string => {
      if (target === null) return '';
      const items: { id: string }[] = target.list === 'stops' ? this.project.stops : this.project.drivers;
      const at = target.id === undefined ? items.length : items.findIndex((item) => item.id === target.id);
      return `${target.list}[${at}]`;
    };
    const showForm = (error?: ServiceError): void => {
      modal.show(form.element);
      if (!error) return;
      const byField = new Map<string, string[]>();
      const general: string[] = [];
      for (const detail of error.details) {
        const key = fieldOfPath(spec.fields, detail.path, prefixOf());
        if (key === null) general.push(`${detail.path}: ${detail.message}`);
        else byField.set(key, [...(byField.get(key) ?? []), detail.message]);
      }
      if (byField.size === 0 && general.length === 0) general.push(error.message);
      form.showErrors(byField, general);
    };
    const submit = async (): Promise<void> => {
      const patch = isNew ? withoutNulls(spec.patchOf(form.values())) : changedPatch(spec.patchOf(initial), spec.patchOf(form.values()));
      if (!isNew && Object.keys(patch).length === 0) {
        modal.close();
        return;
      }
      const edit: Edit =
        target === null
          ? { kind: 'project', patch }
          : target.id === undefined
            ? { kind: 'add', list: target.list, item: patch }
            : { kind: 'change', list: target.list, id: target.id, patch };
      form.setBusy(true);
      try {
        const outcome = await this.save(edit);
        if (outcome.outcome === 'saved') modal.close();
        else this.settle(modal, edit, outcome, showForm);
      } finally {
        form.setBusy(false);
      }
    };
    showForm();
  }

  /** Runs an edit from a dialog: closed once saved, else what was refused is shown in it. */
  private async run(modal: Modal, edit: Edit): Promise<void> {
    const outcome = await this.save(edit);
    if (outcome.outcome === 'saved') modal.close();
    else this.settle(modal, edit, outcome);
  }

  /**
   * A refused change: a 400 goes back to its form (`showForm`; without one its messages are listed);
   * a 412 shows what changed and offers to re-apply; a stop or driver deleted meanwhile says so.
   */
  private settle(modal: Modal, edit: Edit, outcome: Outcome, showForm?: (error: ServiceError) => void): void {
    if (outcome.outcome === 'saved') return;
    if (outcome.outcome === 'invalid') {
      if (showForm) showForm(outcome.error);
      else
        modal.show(
          refusal(outcome.error),
          button('Close', () => modal.close(), { class: 'button' }),
        );
      return;
    }
    if (outcome.outcome === 'gone') {
      modal.show(
        h(
          'p',
          { class: 'alert', role: 'alert' },
          `It was deleted meanwhile, so this change could not be made: ${outcome.mine}. Add it again if it is still needed.`,
        ),
        button('Close', () => modal.close(), { class: 'button' }),
      );
      return;
    }
    modal.show(
      conflictView(outcome.lines, outcome.mine, this.project.version),
      h(
        'div',
        { class: 'actions' },
        button(
          'Re-apply my change',
          async () => {
            const again = await this.save(edit);
            if (again.outcome === 'saved') modal.close();
            else this.settle(modal, edit, again, showForm);
          },
          { class: 'button primary' },
        ),
        button(
          'Drop my change',
          () => {
            this.announce('Your change was dropped; the page shows the current version.');
            modal.close();
          },
          { class: 'button' },
        ),
      ),
    );
  }

  private async save(edit: Edit): Promise<Outcome> {
    // Described once, on the version it was made on: re-applied, its stop may be gone.
    const what = this.described.get(edit) ?? describeEdit(edit, this.project);
    this.described.set(edit, what);
    try {
      this.replace(await sendEdit(this.session, this.project, edit));
      this.announce(`Saved: ${what}. Version ${this.project.version ?? 1}.`);
      return { outcome: 'saved' };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 412) {
        const before = structuredClone(this.project);
        this.replace(await getProject(this.project.id));
        return { outcome: 'conflict', lines: changesBetween(before, this.project), mine: what };
      }
      if (error.status === 400) return { outcome: 'invalid', error: error.error };
      if (error.status === 404 && edit.kind !== 'project' && edit.kind !== 'add') return { outcome: 'gone', mine: what };
      throw error;
    }
  }

  private replace(next: Project): void {
    const target = this.project as unknown as Record<string, unknown>;
    for (const key of Object.keys(target)) if (!(key in next)) delete target[key];
    Object.assign(this.project, next);
    this.changed();
  }

  private announce(text: string): void {
    this.announcer.textContent = text;
  }
}

function refusal(error: ServiceError): HTMLElement {
  return h(
    'div',
    { class: 'alert', role: 'alert' },
    h('p', {}, error.message),
    error.details.length > 0 ? h('ul', {}, ...error.details.map((detail) => h('li', {}, `${detail.path}: ${detail.message}`))) : null,
  );
}
