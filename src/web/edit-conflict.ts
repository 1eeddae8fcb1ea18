/**
 * What someone else changed while the page showed an older version (a 412): which stops and
 * drivers were added or removed, which fields of which changed, and the project's own fields;
 * and the user's own change in words, to re-apply on the new version or drop.
 */
import { h } from './dom.js';
import type { Edit } from './edit-api.js';
import type { Project } from './types.js';

interface Item {
  id: string;
  name: string;
}

export function changesBetween(before: Project, after: Project): string[] {
  const lines: string[] = [];
  for (const field of ['name', 'date'] as const) {
    if (before[field] !== after[field]) lines.push(`Project ${field}: ${before[field]} → ${after[field]}`);
  }
  const settings = changedFields(before.settings, after.settings);
  if (settings.length > 0) lines.push(`Project settings: ${settings.join(', ')}`);
  lines.push(...itemChanges('Stop', before.stops, after.stops), ...itemChanges('Driver', before.drivers, after.drivers));
  return lines;
}

/** The user's change, as one line naming the item and the fields. */
export function describeEdit(edit: Edit, project: Project): string {
  if (edit.kind === 'project') return `Project: ${fieldNames(edit.patch)}`;
  const noun = edit.list === 'stops' ? 'stop' : 'driver';
  if (edit.kind === 'add') return `Add ${noun} “${typeof edit.item.name === 'string' ? edit.item.name : ''}”`;
  const items: Item[] = edit.list === 'stops' ? project.stops : project.drivers;
  const name = items.find((item) => item.id === edit.id)?.name ?? `(a ${noun} removed meanwhile)`;
  if (edit.kind === 'remove') return `Delete ${noun} “${name}”`;
  return `Change ${noun} “${name}”: ${fieldNames(edit.patch)}`;
}

export function conflictView(lines: string[], mine: string, version: number | undefined): HTMLElement {
  return h(
    'div',
    { class: 'conflict' },
    h(
      'p',
      { role: 'alert', class: 'alert' },
      `Someone changed this project while you were editing it (now version ${version ?? '?'}). Your change was not saved yet.`,
    ),
    h('h3', {}, 'Changed meanwhile'),
    lines.length > 0
      ? h('ul', { class: 'change-list' }, ...lines.map((line) => h('li', {}, line)))
      : h('p', { class: 'muted' }, 'Nothing you can see.'),
    h('h3', {}, 'Your change'),
    h('p', { class: 'mine' }, mine),
  );
}

function itemChanges(noun: string, before: Item[], after: Item[]): string[] {
  const lines: string[] = [];
  const old = new Map(before.map((item) => [item.id, item]));
  const now = new Set(after.map((item) => item.id));
  for (const item of after) {
    const was = old.get(item.id);
    if (!was) lines.push(`${noun} “${item.name}” added`);
    else {
      const fields = changedFields(was as unknown as Record<string, unknown>, item as unknown as Record<string, unknown>);
      if (fields.length > 0) lines.push(`${noun} “${item.name}”: ${fields.join(', ')}`);
    }
  }
  for (const item of before) if (!now.has(item.id)) lines.push(`${noun} “${item.name}” removed`);
  return lines;
}

/** Each field whose value differs, as `field: old → new` (whole objects in JSON). */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return names
    .filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]))
    .map((name) => `${name} ${valueText(before[name])} → ${valueText(after[name])}`);
}

function valueText(value: unknown): string {
  if (value === undefined) return '(none)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function fieldNames(patch: Record<string, unknown>): string {
  return (
    Object.entries(patch)
      .map(([field, value]) => `${field} → ${value === null ? '(removed)' : valueText(value)}`)
      .join(', ') || 'no field'
  );
}
