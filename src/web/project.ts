/** `/projects/{id}`: the project's map, drivers and stops; Optimize; the plan and its exports. */
import { plural } from '../output/format.js';
import { ApiError, getProject, loadSession } from './api.js';
import { formatDate, showAccount, signInUrl } from './account.js';
import { byId, h, onUnhandledError } from './dom.js';
import { ProjectMap } from './map.js';
import { PlanEditor } from './plan-edit.js';
import { driversTable, stopsTable } from './project-data.js';
import { OptimizationRun } from './run.js';
import { DispatchPanel } from './dispatch-panel.js';
import { followGeocoding } from './geocoding-view.js';
import { startEditing, type ProjectEditing } from './project-editing.js';
import { offerDeletion } from './delete-project.js';
import type { Project } from './types.js';

async function main(): Promise<void> {
  const session = await loadSession();
  if (session === null) {
    location.assign(signInUrl());
    return;
  }
  showAccount(session);
  const project = await loadProject(projectIdFromPath());
  if (project === null) return;
  showProject(project);
  const map = new ProjectMap(byId('map'), session, byId('legend'));
  map.showProject(project);
  const editing: ProjectEditing = startEditing(session, project, map, () => {
    showProject(project, editing);
    map.showProject(project);
    void followGeocoding(project, editing.fixes);
  });
  showProject(project, editing);
  offerDeletion(session, project, document.querySelector<HTMLElement>('.edit-bar') ?? byId('project-meta'));
  let run: OptimizationRun | null = null;
  const dispatch = new DispatchPanel(session, project, (actionUuid) => run?.open(actionUuid) ?? Promise.resolve());
  const editor = new PlanEditor(
    session,
    project,
    map,
    (saved) => run?.openSaved(saved) ?? Promise.resolve(),
    (action) => dispatch.showPlan(action),
    () => showProject(project, editing),
  );
  run = new OptimizationRun(session, project, { showAction: (action) => editor.showAction(action) });
  dispatch.onReoptimize(() => run?.reoptimize() ?? Promise.resolve());
  dispatch.onDispatch((day) => map.showDispatch(day));
  dispatch.start();
  void followGeocoding(project, editing.fixes);
  await run.start();
}

function projectIdFromPath(): string {
  const match = /^\/projects\/([^/]+)/.exec(location.pathname);
  return match ? decodeURIComponent(match[1]!) : '';
}

async function loadProject(id: string): Promise<Project | null> {
  try {
    return await getProject(id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      document.title = 'Project not found · routeplan';
      byId('project-name').textContent = 'Project not found';
      byId('project-meta').replaceChildren(
        'There is no project at this address for your API key; it may belong to another key. ',
        h('a', { href: '/' }, 'Back to your projects'),
      );
      return null;
    }
    throw error;
  }
}

function showProject(project: Project, editing?: ProjectEditing): void {
  document.title = `${project.name} · routeplan`;
  byId('project-name').textContent = project.name;
  const date = byId('project-meta');
  date.replaceChildren(
    Object.assign(document.createElement('time'), { dateTime: project.date, textContent: formatDate(project.date) }),
    ` · ${plural(project.drivers.length, 'driver')} · ${plural(project.stops.length, 'stop')}`,
    project.version !== undefined ? ` · version ${project.version}` : '',
  );
  byId('drivers').replaceChildren(driversTable(project.drivers, editing?.drivers));
  byId('stops').replaceChildren(stopsTable(project.stops, project.settings, editing?.stops));
  byId('project-body').hidden = false;
}

function fail(error: unknown): void {
  const box = byId('page-error');
  box.textContent = `Something went wrong: ${error instanceof Error ? error.message : String(error)}`;
  box.hidden = false;
}

onUnhandledError(fail);
main().catch(fail);
