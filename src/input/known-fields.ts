/**
 * The fields the interface names, per surface, as the schemas write them. Anything else is ignored by the solver and
 * reported as a warning (decisions.md "Unknown and extra fields"), so a typo such as
 * `prority` does not pass silently.
 */
import type { Warning } from '../errors.js';
import type { PathNamer } from './paths.js';
import { ONEOFF_REJECTED_FIELDS, oneoffSchema } from './schema/oneoff.js';
import { projectSchema } from './schema/project.js';
import type { FieldSchema } from './schema/vocabulary.js';
import { fieldsOf, itemOf } from './schema/vocabulary.js';
import { isPlainObject } from './shape.js';

/** `value`: a leaf whose content is not checked for field names (free-form or scalar). */
type FieldTree = 'value' | ObjectNode | { list: FieldTree };
interface ObjectNode {
  object: Record<string, FieldTree>;
}

/** The field names of a schema: its objects, the items of its lists, anything else a leaf. */
function fieldTree(schema: FieldSchema): FieldTree {
  const fields = fieldsOf(schema);
  if (fields !== null) return objectNode(fields);
  const item = itemOf(schema);
  return item !== null ? { list: fieldTree(item) } : 'value';
}

function objectNode(fields: Record<string, FieldSchema>): ObjectNode {
  return { object: Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, fieldTree(field)])) };
}

export const PROJECT_FIELDS: FieldTree = objectNode(projectSchema.shape);

/** The fields a one-off request rejects are reported as errors elsewhere, so they are known here. */
export const ONEOFF_FIELDS: FieldTree = {
  object: { ...objectNode(oneoffSchema.shape).object, ...Object.fromEntries(ONEOFF_REJECTED_FIELDS.map((key) => [key, 'value' as const])) },
};

/** One warning per unknown field (per CSV column for tables), in document order. */
export function unknownFieldWarnings(document: unknown, tree: FieldTree, namer: PathNamer): Warning[] {
  const warnings: Warning[] = [];
  const seen = new Set<string>();
  const visit = (input: unknown, node: FieldTree, path: PropertyKey[]) => {
    if (node === 'value') return;
    if ('list' in node) {
      if (Array.isArray(input)) input.forEach((item, i) => visit(item, node.list, [...path, i]));
      return;
    }
    if (!isPlainObject(input)) return;
    for (const [key, child] of Object.entries(input)) {
      // Own keys only: `constructor`, `toString`, `__proto__` … are unknown fields like any other.
      const known = Object.hasOwn(node.object, key) ? node.object[key] : undefined;
      if (known === undefined) {
        const where = namer.nameForWarning([...path, key]);
        if (seen.has(where)) continue;
        seen.add(where);
        warnings.push({ path: where, message: `unknown field "${key}" is ignored${suggestion(key, node.object)}` });
      } else {
        visit(child, known, [...path, key]);
      }
    }
  };
  visit(document, tree, []);
  return warnings;
}

/** " (did you mean "priority"?)" for a near-miss, so typos are easy to spot. */
function suggestion(key: string, known: Record<string, FieldTree>): string {
  const lower = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of Object.keys(known)) {
    const distance = editDistance(lower, candidate.toLowerCase().replace(/[^a-z0-9]/g, ''));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== null && bestDistance <= Math.max(1, Math.floor(best.length / 4)) ? ` (did you mean "${best}"?)` : '';
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
