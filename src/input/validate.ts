/**
 * Document → LoadedProblem: shape detection, rejections and limits, schema validation with
 * every error at once, unknown-field warnings, then normalization.
 */
import type { z } from 'zod';
import type { ErrorDetail } from '../errors.js';
import { InputError } from '../errors.js';
import { buildProblem } from './build-problem.js';
import { ConversionLog } from './convert-common.js';
import { oneoffSpec } from './convert-oneoff.js';
import { projectSpec } from './convert-project.js';
import type { DocumentKind, LoadedProblem, LoadOptions } from './index.js';
import { ONEOFF_FIELDS, PROJECT_FIELDS, unknownFieldWarnings } from './known-fields.js';
import { limitErrors } from './limits.js';
import type { CsvOrigins } from './paths.js';
import { PathNamer, show } from './paths.js';
import { oneoffSchema } from './schema/oneoff.js';
import { projectSchema } from './schema/project.js';
import { detectKind, oneoffRejections } from './shape.js';

export interface ValidateContext {
  /** Where CSV-sourced entries came from, to name errors by file, row and column. */
  origins?: CsvOrigins;
  /** Prefix for the error message, e.g. the file name. */
  source?: string;
}

export function problemFromDocument(
  document: unknown,
  options: LoadOptions & { expect?: DocumentKind },
  context: ValidateContext = {},
): LoadedProblem {
  const kind = detectKind(document, options.expect);
  const doc = document as Record<string, unknown>;
  const namer = new PathNamer(context.origins);
  const label = kind === 'project' ? 'project' : 'one-off request';

  const upfront =
    kind === 'oneoff'
      ? [...oneoffRejections(doc), ...limitErrors(doc, 'routesData', 'ordersData')]
      : limitErrors(doc, 'drivers', 'stops');
  // Over the limits nothing else is checked: validating 100,000 entries only to reject them is wasted work.
  if (upfront.some((d) => d.message.includes('at most'))) throw invalid(label, upfront, context);

  const schema = kind === 'project' ? projectSchema : oneoffSchema;
  const parsed = schema.safeParse(doc, { error: (issue) => genericMessage(issue as unknown as ZodIssueLike) });
  const schemaErrors = parsed.success ? [] : issueDetails(parsed.error.issues, namer, doc);
  const errors = [...upfront, ...schemaErrors];
  if (!parsed.success || errors.length > 0) throw invalid(label, errors, context);

  const log = new ConversionLog(namer);
  const spec =
    kind === 'project'
      ? projectSpec(parsed.data as z.infer<typeof projectSchema>, doc, log)
      : oneoffSpec(parsed.data as z.infer<typeof oneoffSchema>, doc, log);

  const warnings = [...unknownFieldWarnings(doc, kind === 'project' ? PROJECT_FIELDS : ONEOFF_FIELDS, namer), ...log.warnings];
  if (spec.vehicles.length === 0) {
    warnings.push({
      path: kind === 'project' ? 'drivers' : 'routesData',
      message: `no ${kind === 'project' ? 'drivers' : 'routes'}: every ${kind === 'project' ? 'stop' : 'order'} will be left unserved`,
    });
  }
  const problem = buildProblem(spec, options, warnings);
  return { problem, warnings, kind, document };
}

function invalid(label: string, details: ErrorDetail[], context: ValidateContext): InputError {
  const where = context.source ? `${context.source}: ` : '';
  // Several errors are listed in `details` (the CLI prints them one a line); one is self-contained.
  const summary = details.length === 1 ? `${details[0]!.path}: ${details[0]!.message}` : `${details.length} errors`;
  return new InputError(`${where}invalid ${label}: ${summary}`, details);
}

interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  expected?: string;
  minimum?: unknown;
  maximum?: unknown;
  values?: unknown[];
}

/** Messages for the issues the field schemas do not word themselves. */
function genericMessage(issue: ZodIssueLike): string {
  const given = issue.input;
  switch (issue.code) {
    case 'invalid_type':
      if (given === undefined) return `missing; give ${article(issue.expected ?? 'value')}`;
      return `${show(given)} is not allowed; use ${article(issue.expected ?? 'value')}`;
    case 'too_small':
      return `${show(given)} is not allowed; use a value ≥ ${String(issue.minimum)}`;
    case 'too_big':
      return `${show(given)} is not allowed; use a value ≤ ${String(issue.maximum)}`;
    case 'invalid_value':
      return `${show(given)} is not allowed; use ${(issue.values ?? []).map(String).join(', ')}`;
    default:
      return `${show(given)} is not allowed`;
  }
}

function article(expected: string): string {
  const words: Record<string, string> = { object: 'an object', array: 'a list', string: 'a text', number: 'a number', boolean: 'true or false', record: 'an object' };
  return words[expected] ?? `a ${expected}`;
}

/** One detail per issue, in document order, deduplicated (a union reports a value once). */
function issueDetails(issues: readonly ZodIssueLike[], namer: PathNamer, doc: Record<string, unknown>): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const path = namer.name(issue.path);
    if (isExplainedByRejection(issue, doc)) continue;
    const message = issue.message;
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ path, message });
  }
  return details;
}

/** A missing `routesData` next to a plain `routes` is already reported as the rejected form. */
function isExplainedByRejection(issue: ZodIssueLike, doc: Record<string, unknown>): boolean {
  if (issue.path.length !== 1 || doc[String(issue.path[0])] !== undefined) return false;
  return (issue.path[0] === 'routesData' && 'routes' in doc) || (issue.path[0] === 'ordersData' && 'orders' in doc);
}
