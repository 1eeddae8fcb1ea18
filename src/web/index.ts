/**
 * `/`: the sign-in form (a real form POST to /login) or, when signed in, the key's projects; `/#new`
 * is the "New project" form (new-project.ts), so the browser's Back returns to the list.
 */
import { listProjects, loadSession } from './api.js';
import { formatDate, formatMoment, showAccount, statusBadge } from './account.js';
import { byId, h } from './dom.js';
import { NewProjectForm } from './new-project.js';
import { deletedNotice } from './delete-project.js';
import type { ProjectSummary } from './types.js';

async function main(): Promise<void> {
  const session = await loadSession();
  if (session === null) {
    showSignIn();
    return;
  }
  showAccount(session);
  const form = new NewProjectForm(session);
  const showView = () => {
    const creating = location.hash === '#new';
    byId('new-project').hidden = !creating;
    byId('projects').hidden = creating;
    if (creating) form.show();
  };
  window.addEventListener('hashchange', () => {
    showView();
    // Back on the list (Cancel, ← Projects, the browser's Back): the focus goes to its heading.
    if (location.hash !== '#new') byId('projects-title').focus();
  });
  showView();
  renderProjects(await listProjects());
  const deleted = deletedNotice();
  if (deleted) byId('project-list').before(deleted);
}

function showSignIn(): void {
  const query = new URLSearchParams(location.search);
  const next = query.get('next');
  // Only a local path is passed on; the server checks it again.
  if (next !== null && /^\/(?!\/)/.test(next)) byId<HTMLInputElement>('signin-next').value = next;
  byId('signin-failed').hidden = query.get('signin') !== 'failed';
  // Past the limit on wrong keys per address (the service's 429): no key is checked for a minute.
  byId('signin-limited').hidden = query.get('signin') !== 'limited';
  byId('signin').hidden = false;
  byId<HTMLInputElement>('api-key').focus();
}

function renderProjects(projects: ProjectSummary[]): void {
  const list = byId('project-list');
  if (projects.length === 0) {
    list.replaceChildren(
      h(
        'div',
        { class: 'empty' },
        h('p', {}, 'No projects yet.'),
        h(
          'p',
          {},
          'Press “New project” to import your spreadsheets, or run ',
          h('code', {}, 'routeplan submit project.yaml'),
          ' and open the URL it prints.',
        ),
      ),
    );
    return;
  }
  const newestFirst = [...projects].sort((a, b) => b.created_at.localeCompare(a.created_at));
  list.replaceChildren(
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'data projects-table' },
        h('caption', { class: 'visually-hidden' }, 'Your projects, newest first'),
        h(
          'thead',
          {},
          h('tr', {}, ...['Project', 'Date', 'Drivers', 'Stops', 'Latest plan', 'Created'].map((name) => h('th', { scope: 'col' }, name))),
        ),
        h('tbody', {}, ...newestFirst.map(projectRow)),
      ),
    ),
  );
}

function projectRow(project: ProjectSummary): HTMLTableRowElement {
  const latest = project.latest_optimization ?? null;
  return h(
    'tr',
    {},
    h('th', { scope: 'row' }, h('a', { href: `/projects/${encodeURIComponent(project.id)}` }, project.name)),
    h('td', {}, h('time', { datetime: project.date }, formatDate(project.date))),
    h('td', { class: 'num' }, project.drivers),
    h('td', { class: 'num' }, project.stops),
    h('td', {}, latest ? statusBadge(latest.status) : h('span', { class: 'muted' }, 'Not optimized')),
    h('td', {}, h('time', { datetime: project.created_at }, formatMoment(project.created_at))),
  );
}

main().catch((error: unknown) => {
  const box = byId('page-error');
  box.textContent = `The projects could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
  box.hidden = false;
});
