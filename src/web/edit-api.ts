/**
 * The project's edit API as the page calls it (decisions.md, "Editing a project"): each change
 * carries the version the page shows as If-Match, so a change made meanwhile by someone else is
 * answered 412 instead of being overwritten.
 */
import { call } from './api.js';
import type { Patch } from './edit-fields.js';
import type { Project, Session } from './types.js';

export type ItemList = 'stops' | 'drivers';

/** One change, kept as data so that it can be sent again on a newer version after a 412. */
export type Edit =
  | { kind: 'project'; patch: Patch }
  | { kind: 'add'; list: ItemList; item: Patch }
  | { kind: 'change'; list: ItemList; id: string; patch: Patch }
  | { kind: 'remove'; list: ItemList; id: string };

export function sendEdit(session: Session, project: Pick<Project, 'id' | 'version'>, edit: Edit): Promise<Project> {
  const base = `/v1.0/project/${encodeURIComponent(project.id)}`;
  const common = { csrf: session.csrfToken, ifMatch: project.version ?? 1 };
  switch (edit.kind) {
    case 'project':
      return call<Project>(base, { ...common, method: 'PATCH', body: edit.patch });
    case 'add':
      return call<Project>(`${base}/${edit.list}`, { ...common, method: 'POST', body: edit.item });
    case 'change':
      return call<Project>(`${base}/${edit.list}/${encodeURIComponent(edit.id)}`, { ...common, method: 'PATCH', body: edit.patch });
    case 'remove':
      return call<Project>(`${base}/${edit.list}/${encodeURIComponent(edit.id)}`, { ...common, method: 'DELETE' });
  }
}
