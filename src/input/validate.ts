/**
 * Document → LoadedProblem: shape detection, rejections and limits, schema validation with
 * every error at once, unknown-field warnings, then normalization. validateDocument stops before
 * the travel matrix (quadratic in the stops), for callers that only accept or reject a document.
 */
import type { z } from 'zod';
import type { ErrorDetail, Warning } from '../errors.js';
import { InputError } from '../errors.js';
import { buildProblem, checkBuildable } from './build-problem.js';
import { resolveSpec } from './resolve.js';
import { addressOnlyLocations, pendingAddresses } from './locate.js';
import { farFromTheOthers } from '../model/outliers.js';
import { rejectDeepNesting } from './nesting.js';
import { addressOnlyMessage } from './schema/messages.js';
import { ConversionLog } from './convert-common.js';
import { oneoffSpec } from './convert-oneoff.js';
import { projectSpec } from './convert-project.js';
import type { ProblemSpec } from './spec.js';
import type { DocumentKind, LoadedProblem, LoadOptions, ValidatedDocument } from './types.js';
import { ONEOFF_FIELDS, PROJECT_FIELDS, unknownFieldWarnings } from './known-fields.js';
import { limitErrors } from './limits.js';
import type { ReferenceError } from './csv-references.js';
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
  /** True when entry lists may name CSV tables (a file on disk), so messages offer that form. */
  csvReferences?: boolean;
  /** CSV tables that could not be read, reported together with the document's other errors. */
  referenceErrors?: ReferenceError[];
  /** Top-level keys whose CSV table failed: their file-name value has no further errors. */
  failedKeys?: ReadonlySet<string>;
  /** What reading the CSV tables noticed, reported with the document's warnings. */
  tableWarnings?: Warning[];
}

export function problemFromDocument(
  document: unknown,
  options: LoadOptions & { expect?: DocumentKind },
  context: ValidateContext = {},
): LoadedProblem {
  const { spec, warnings, kind } = validatedSpec(document, options, context);
  if (pendingAddresses(spec).length > 0) {
    throw new InputError('addresses without coordinates need geocoding first: load the document with resolveProblemDocument', [
      { path: pendingAddresses(spec)[0]!.path, message: 'not geocoded' },
    ]);
  }
  return { problem: buildProblem(spec, options), warnings, kind, document };
}

/** problemFromDocument with resolve.ts's steps, which may geocode addresses and fetch travel times. */
export async function resolvedProblemFromDocument(
  document: unknown,
  options: LoadOptions & { expect?: DocumentKind },
  context: ValidateContext = {},
): Promise<LoadedProblem> {
  const { spec, warnings, kind } = validatedSpec(document, options, context);
  const resolved = await resolveSpec(spec, options);
  return { problem: resolved.problem, warnings: [...warnings, ...resolved.warnings], kind, document };
}

/** Every error and warning problemFromDocument gives, without building the problem. */
export function validateDocument(
  document: unknown,
  options: LoadOptions & { expect?: DocumentKind },
  context: ValidateContext = {},
): ValidatedDocument {
  const { warnings, kind } = validatedSpec(document, options, context);
  return { warnings, kind, document };
}

function validatedSpec(
  document: unknown,
  options: LoadOptions & { expect?: DocumentKind },
  context: ValidateContext,
): { spec: ProblemSpec; warnings: Warning[]; kind: DocumentKind } {
  // Documents also arrive already parsed (the library API, the store): the limit holds for them too.
  rejectDeepNesting(document, 'document', 'invalid_input');
  const kind = detectKind(document, options.expect);
  const doc = document as Record<string, unknown>;
  const namer = new PathNamer(context.origins);
  const label = kind === 'project' ? 'project' : 'one-off request';

  const upfront =
    kind === 'oneoff' ? [...oneoffRejections(doc), ...limitErrors(doc, 'routesData', 'ordersData')] : limitErrors(doc, 'drivers', 'stops');
  // Over the limits nothing else is checked: validating 100,000 entries only to reject them is wasted work.
  if (upfront.some((d) => d.message.includes('at most'))) {
    throw invalid(label, [...upfront, ...(context.referenceErrors ?? []).map((r) => r.detail)], context);
  }

  const schema = kind === 'project' ? projectSchema : oneoffSchema;
  const parsed = schema.safeParse(doc, { error: (issue) => genericMessage(issue as unknown as ZodIssueLike) });
  const issues = parsed.success ? [] : (parsed.error.issues as unknown as ZodIssueLike[]);
  const located = [
    ...issueDetails(issues, namer, doc, context),
    ...(context.referenceErrors ?? []).map(({ field, detail }) => ({ top: field, detail })),
    ...addressesWithoutGeocoder(doc, kind, namer, options),
  ];
  const errors = [...upfront, ...inDocumentOrder(located, doc)];
  if (!parsed.success || errors.length > 0) throw invalid(label, errors, context);

  const log = new ConversionLog(namer);
  const spec =
    kind === 'project'
      ? projectSpec(parsed.data as z.infer<typeof projectSchema>, doc, log)
      : oneoffSpec(parsed.data as z.infer<typeof oneoffSchema>, doc, log);

  const warnings = [
    ...(context.tableWarnings ?? []),
    ...unknownFieldWarnings(doc, kind === 'project' ? PROJECT_FIELDS : ONEOFF_FIELDS, namer),
    ...log.warnings,
  ];
  refuseMisspeltStops(spec, warnings, kind, label);
  warnings.push(...farPlaceWarnings(spec));
  if (spec.vehicles.length === 0) {
    warnings.push({
      path: kind === 'project' ? 'drivers' : 'routesData',
      message: `no ${kind === 'project' ? 'drivers' : 'routes'}: every ${kind === 'project' ? 'stop' : 'order'} will be left unserved`,
    });
  }
  warnings.push(...checkBuildable(spec, options));
  return { spec, warnings, kind };
}

/** Without a geocoder, each location given by its address only is an error (all of them at once). */
function addressesWithoutGeocoder(
  doc: Record<string, unknown>,
  kind: DocumentKind,
  namer: PathNamer,
  options: LoadOptions,
): LocatedDetail[] {
  if (options.geocoder || options.addressesGeocodedElsewhere) return [];
  return addressOnlyLocations(doc, kind).map(({ parts, address }) => ({
    top: String(parts[0]),
    detail: { path: namer.name(parts), message: addressOnlyMessage(address) },
  }));
}

/**
 * `stop:` for `stops:` would otherwise give a valid, empty plan and exit 0: with no stops at all and
 * an unknown field that is a near miss of the stops' field, both are named in an error.
 */
function refuseMisspeltStops(spec: ProblemSpec, warnings: Warning[], kind: DocumentKind, label: string): void {
  const field = kind === 'project' ? 'stops' : 'ordersData';
  if (spec.stops.length > 0) return;
  const nearMiss = warnings.find((warning) => !/[.[]/.test(warning.path) && warning.message.includes(`(did you mean "${field}"?)`));
  if (!nearMiss) return;
  throw new InputError(`invalid ${label}: no ${field}, and the unknown field "${nearMiss.path}" looks like a misspelling of "${field}"`, [
    { path: nearMiss.path, message: `unknown field; did you mean "${field}"?` },
    { path: field, message: 'missing: the problem has nothing to plan' },
  ]);
}

/** Typed coordinates far from all the others (a swapped lat/lng, a wrong town), named before any solving. */
function farPlaceWarnings(spec: ProblemSpec): Warning[] {
  const places = [
    ...spec.vehicles.flatMap((vehicle) => [
      ...(vehicle.start ? [{ point: vehicle.start, path: vehicle.path, name: vehicle.name }] : []),
      ...(vehicle.end ? [{ point: vehicle.end, path: vehicle.path, name: vehicle.name }] : []),
    ]),
    ...spec.stops.flatMap((stop) => (stop.point ? [{ point: stop.point, path: stop.path, name: stop.name }] : [])),
  ];
  const seen = new Set<string>();
  return farFromTheOthers(places.map((place) => place.point)).flatMap(({ index, metres, swapped }) => {
    const place = places[index]!;
    if (seen.has(place.path)) return [];
    seen.add(place.path);
    const hint = swapped ? 'its latitude and longitude look swapped' : 'check its coordinates';
    return [{ path: place.path, message: `"${place.name}" is ${Math.round(metres / 1000)} km from the other places; ${hint}` }];
  });
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
  /** invalid_union: the issues of each branch, paths relative to the union. */
  errors?: ZodIssueLike[][];
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
  const words: Record<string, string> = {
    object: 'an object',
    array: 'a list',
    string: 'a text',
    number: 'a number',
    boolean: 'true or false',
    record: 'an object',
  };
  return words[expected] ?? `a ${expected}`;
}

interface LocatedDetail {
  /** The top-level field the detail is under, to keep details in the document's order. */
  top: string;
  detail: ErrorDetail;
}

/** One detail per issue, deduplicated (a union reports a value once). */
function issueDetails(
  issues: readonly ZodIssueLike[],
  namer: PathNamer,
  doc: Record<string, unknown>,
  context: ValidateContext,
): LocatedDetail[] {
  const details: LocatedDetail[] = [];
  const seen = new Set<string>();
  for (const issue of issues.flatMap((i) => pickedBranchIssues(i, []))) {
    if (isExplainedByRejection(issue, doc)) continue;
    if (context.failedKeys?.has(String(issue.path[0])) && issue.path.length === 1) continue;
    const path = namer.name(issue.path);
    const message = entryListMessage(issue, doc, context) ?? issue.message;
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ top: String(issue.path[0] ?? ''), detail: { path, message } });
  }
  return details;
}

/**
 * A union issue whose value clearly chose one branch (e.g. an object for load, which is a number
 * or an object) is replaced by that branch's own issues, so the error names the exact field
 * inside (`load.w`) rather than blaming the whole value. A value of no branch's type keeps the
 * union's message, which lists every allowed form.
 */
function pickedBranchIssues(issue: ZodIssueLike, prefix: readonly PropertyKey[]): ZodIssueLike[] {
  const path = [...prefix, ...issue.path];
  if (issue.code !== 'invalid_union' || !issue.errors) return [{ ...issue, path }];
  const typeMatched = issue.errors.filter(
    (branch) => branch.length > 0 && !branch.some((inner) => inner.path.length === 0 && inner.code === 'invalid_type'),
  );
  if (typeMatched.length !== 1) return [{ ...issue, path }];
  return typeMatched[0]!.flatMap((inner) => pickedBranchIssues(inner, path));
}

const ENTRY_LISTS: Record<string, string> = {
  drivers: 'drivers',
  stops: 'stops',
  routesData: 'routes',
  ordersData: 'orders',
};

/** `drivers: 5` in a file: say that a list or a CSV file name is wanted. */
function entryListMessage(issue: ZodIssueLike, doc: Record<string, unknown>, context: ValidateContext): string | null {
  const key = String(issue.path[0]);
  const what = ENTRY_LISTS[key];
  if (!what || issue.path.length !== 1 || !context.csvReferences || issue.code !== 'invalid_type') return null;
  const forms = `a list of ${what} or the name of a CSV file (e.g. ${what}.csv)`;
  return doc[key] === undefined ? `missing; give ${forms}` : `${show(doc[key])} is not allowed; use ${forms}`;
}

/** Details sorted by where their top-level field appears in the document (stable inside one). */
function inDocumentOrder(details: LocatedDetail[], doc: Record<string, unknown>): ErrorDetail[] {
  const keys = Object.keys(doc);
  const rank = (top: string) => {
    const index = keys.indexOf(top);
    return index < 0 ? keys.length : index;
  };
  return details
    .map((located, index) => ({ located, index }))
    .sort((a, b) => rank(a.located.top) - rank(b.located.top) || a.index - b.index)
    .map(({ located }) => located.detail);
}

/** A missing `routesData` next to a plain `routes` is already reported as the rejected form. */
function isExplainedByRejection(issue: ZodIssueLike, doc: Record<string, unknown>): boolean {
  if (issue.path.length !== 1 || doc[String(issue.path[0])] !== undefined) return false;
  return (issue.path[0] === 'routesData' && 'routes' in doc) || (issue.path[0] === 'ordersData' && 'orders' in doc);
}
