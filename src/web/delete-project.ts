/**
 * "Delete project": deletes the project with everything made from it (its plans, its dispatch with
 * the drivers' reports, positions and proof photos, its customer e-mails; its driver and tracking
 * links stop opening) — the way a dispatcher removes personal data. A modal dialog naming the
 * project says so and asks first; Cancel (focused first, the safe choice) or Escape closes it.
 * Once deleted, the page goes back to the list of projects.
 */
import { deleteProject, type ApiError } from './api.js';
import { button, h } from './dom.js';
import type { Project, Session } from './types.js';

/** Where the page leaves the deleted project's name for the list to confirm (this tab only, never in a URL). */
const DELETED_KEY = 'routeplan.deleted-project';

/** The list's confirmation of a deletion just made in this tab, once; null otherwise. */
export function deletedNotice(): HTMLElement | null {
  const name = sessionStorage.getItem(DELETED_KEY);
  if (name === null) return null;
  sessionStorage.removeItem(DELETED_KEY);
  return h('p', { class: 'alert alert-neutral', role: 'status' }, `“${name}” was deleted, with its plans, dispatch and customer e-mails.`);
}

/** Adds the button to the project's edit bar (after the editing controls). */
export function offerDeletion(session: Session, project: Project, bar: HTMLElement): void {
  const opener = button('Delete project', () => confirmDeletion(session, project, opener), { class: 'button small danger' });
  bar.append(opener);
}

function confirmDeletion(session: Session, project: Project, opener: HTMLElement): void {
  const problem = h('p', { class: 'alert', role: 'alert', hidden: true });
  const remove = h('button', { type: 'button', class: 'button danger' }, 'Delete project');
  const cancel = h('button', { type: 'submit', value: 'cancel', class: 'button' }, 'Cancel');
  const form = h(
    'form',
    { method: 'dialog', class: 'delete-form' },
    h('h2', { id: 'delete-title' }, `Delete “${project.name}”?`),
    h(
      'p',
      {},
      'The project is deleted for good with its stops and drivers, its plans, its dispatch (the drivers’ reports, positions, ' +
        'photos and signatures) and its customer e-mails. Its driver and tracking links stop working. This cannot be undone.',
    ),
    problem,
    h('div', { class: 'actions' }, remove, cancel),
  );
  const dialog = h('dialog', { class: 'delete-dialog', 'aria-labelledby': 'delete-title' }, form);
  remove.addEventListener('click', () => {
    remove.disabled = true;
    remove.textContent = 'Deleting…';
    deleteProject(session, project.id).then(
      () => {
        sessionStorage.setItem(DELETED_KEY, project.name);
        location.assign('/');
      },
      (error: unknown) => {
        problem.textContent = `The project was not deleted: ${(error as ApiError).message}`;
        problem.hidden = false;
        remove.disabled = false;
        remove.textContent = 'Delete project';
      },
    );
  });
  dialog.addEventListener('close', () => {
    dialog.remove();
    opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  cancel.focus();
}
