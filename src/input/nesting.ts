/**
 * The nesting limit (decisions.md, "Input hygiene"). No field of the interface nests more than a few
 * levels; free-form fields such as `custom_notes` may hold a small structure of their own. Deeper
 * input is refused where it is read, so that nothing after (the duplicate-key scanner, the copy to
 * the solver's worker, freezing, the store's serializer) ever recurses without bound.
 */
import { InputError, type ErrorDetail } from '../errors.js';
import { formatPath, type PathSegment } from './paths.js';

/** Objects and arrays inside one another, counting the document itself as level 1. */
export const MAX_NESTING = 64;

export const NESTING_REASON = `nested deeper than ${MAX_NESTING} levels of objects and arrays, the most routeplan reads`;

/** The first place (in document order) where the value nests deeper than MAX_NESTING, or null. */
export function nestingProblem(value: unknown): ErrorDetail | null {
  // Most documents are within the limit: a walk that counts levels only answers them without
  // building a path for every value (on a 5,000-stop file that took a tenth of a second).
  return nestsTooDeep(value) ? firstTooDeep(value) : null;
}

/** Whether some value inside nests deeper than MAX_NESTING, by an explicit stack of values and their levels. */
function nestsTooDeep(document: unknown): boolean {
  const values: unknown[] = [document];
  const levels: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const level = levels.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (level >= MAX_NESTING) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child !== 'object' || child === null) continue;
      values.push(child);
      levels.push(level + 1);
    }
  }
  return false;
}

/** The path to the first value nested too deep, in document order. */
function firstTooDeep(value: unknown): ErrorDetail | null {
  // An explicit stack: the walk must not itself overflow on the input it exists to refuse.
  const stack: Array<{ value: unknown; path: PathSegment[] }> = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (path.length >= MAX_NESTING) return { path: formatPath(path) || '(document)', message: NESTING_REASON };
    const entries = Array.isArray(current) ? current.map((child, index) => [index, child] as const) : Object.entries(current);
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], path: [...path, entries[i]![0]] });
  }
  return null;
}

/** A document nested past the limit is refused with the path where it goes too deep. */
export function rejectDeepNesting(document: unknown, label: string, code: string): void {
  const problem = nestingProblem(document);
  if (problem) throw new InputError(`${label}: ${problem.path}: ${problem.message}`, [problem], code);
}
