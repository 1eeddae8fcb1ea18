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
