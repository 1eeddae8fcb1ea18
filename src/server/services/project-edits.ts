/**
 * The changes a project's API makes to its contents (decisions.md, "Editing a project and
 * re-planning the day"), each building the whole new document, which the route then validates as
 * a new project's would be: one rule set for files, new projects and changes. A change is a JSON
 * merge patch (RFC 7396: a field given replaces the one stored, `null` removes it, objects merge),
 * so whatever the user gave and the change does not name is kept as it was.
 */
import { randomUUID } from 'node:crypto';
import { InputError } from '../../errors.js';
import { isPlainObject } from '../../input/index.js';

/** A project's document and the ids of its stops and drivers, in the document's order. */
export interface ProjectContents {
  document: Record<string, unknown>;
  stopIds: string[];
  driverIds: string[];
}

export type ItemList = 'stops' | 'drivers';

/** The fields a change of the project itself leaves to the stops' and drivers' own routes. */
const ITEM_LISTS: readonly ItemList[] = ['stops', 'drivers'];

/** The project's own fields (name, date, settings, …) changed by `patch`; its stops and drivers are not its to change. */
export function patchProject(contents: ProjectContents, patch: unknown): ProjectContents {
  const fields = requireObject(patch);
  const itemField = ITEM_LISTS.find((list) => list in fields);
  if (itemField) {
    throw new InputError(`${itemField} are changed one at a time: POST, PATCH or DELETE /v1.0/project/{id}/${itemField}`, [
      { path: itemField, message: 'not changed by PATCH /v1.0/project/{id}' },
    ]);
  }
  return { ...contents, document: mergePatch(contents.document, fields) };
}

/** The project with `item` added at the end of `list`, under a new id. */
export function addItem(contents: ProjectContents, list: ItemList, item: unknown): { contents: ProjectContents; id: string } {
  const given = requireObject(item);
  const id = randomUUID();
  const document = { ...contents.document, [list]: [...itemsOf(contents.document, list), given] };
  return { contents: withIds(contents, list, [...idsOf(contents, list), id], document), id };
}

/** The project with the item `id` of `list` changed by `patch`; null when it has no such item. */
export function patchItem(contents: ProjectContents, list: ItemList, id: string, patch: unknown): ProjectContents | null {
  const fields = requireObject(patch);
  const at = idsOf(contents, list).indexOf(id);
  if (at === -1) return null;
  // The id is the service's, as on creation: one given in the change is not the item's to change.
  const { id: _ignored, ...change } = fields;
  const items = itemsOf(contents.document, list).map((item, i) => (i === at ? mergePatch(asObject(item), change) : item));
  return { ...contents, document: { ...contents.document, [list]: items } };
}

/** The project without the item `id` of `list`; null when it has no such item. */
export function removeItem(contents: ProjectContents, list: ItemList, id: string): ProjectContents | null {
  const ids = idsOf(contents, list);
  const at = ids.indexOf(id);
  if (at === -1) return null;
  const document = { ...contents.document, [list]: itemsOf(contents.document, list).filter((_, i) => i !== at) };
  return withIds(
    contents,
    list,
    ids.filter((_, i) => i !== at),
    document,
  );
}

/** RFC 7396: `patch`'s fields replace `target`'s, `null` removes one, and objects merge field by field. */
export function mergePatch(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...target };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete merged[field];
    else if (isPlainObject(value)) merged[field] = mergePatch(asObject(merged[field]), value);
    else merged[field] = value;
  }
  return merged;
}

function withIds(contents: ProjectContents, list: ItemList, ids: string[], document: Record<string, unknown>): ProjectContents {
  return list === 'stops'
    ? { document, stopIds: ids, driverIds: contents.driverIds }
    : { document, stopIds: contents.stopIds, driverIds: ids };
}

function idsOf(contents: ProjectContents, list: ItemList): string[] {
  return list === 'stops' ? contents.stopIds : contents.driverIds;
}

function itemsOf(document: Record<string, unknown>, list: ItemList): unknown[] {
  const items = document[list];
  return Array.isArray(items) ? items : [];
}

function requireObject(body: unknown): Record<string, unknown> {
  if (isPlainObject(body)) return body;
  throw new InputError('the request body must be a JSON object', [{ path: '', message: 'expected an object' }]);
}

function asObject(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}
