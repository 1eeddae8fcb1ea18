/**
 * Tells a project (surface A) from a one-off request (surface B), and finds the one-off forms
 * the interface rejects (decisions.md "One-off requests (B)").
 */
import type { ErrorDetail } from '../errors.js';
import { InputError } from '../errors.js';
import type { DocumentKind } from './types.js';

const PROJECT_KEYS = ['drivers', 'stops', 'settings'] as const;
const ONEOFF_KEYS = ['routesData', 'ordersData', 'options', 'routes', 'orders', 'workspaceUuid'] as const;

const EXPECTED_FIELDS: Record<DocumentKind, string> = {
  project: 'a project has name, date, drivers, stops and settings',
  oneoff: 'a one-off request has routesData, ordersData and options',
};

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function detectKind(document: unknown, expect?: DocumentKind): DocumentKind {
  if (!isPlainObject(document)) {
    const what = Array.isArray(document) ? 'a list' : document === null ? 'null' : `a ${typeof document}`;
    throw new InputError(
      `The problem must be an object, not ${what}: ${expect ? EXPECTED_FIELDS[expect] : `${EXPECTED_FIELDS.project}; ${EXPECTED_FIELDS.oneoff}`}`,
      [{ path: '(document)', message: `is ${what}; expected an object` }],
    );
  }
  const projectKeys = PROJECT_KEYS.filter((k) => k in document);
  const oneoffKeys = ONEOFF_KEYS.filter((k) => k in document);
  if (projectKeys.length > 0 && oneoffKeys.length > 0) {
    throw new InputError(
      `The problem mixes project fields (${projectKeys.join(', ')}) with one-off fields (${oneoffKeys.join(', ')}); ${EXPECTED_FIELDS.project}, ${EXPECTED_FIELDS.oneoff}`,
      [{ path: oneoffKeys[0]!, message: `cannot be combined with the project field "${projectKeys[0]}"; use one shape` }],
    );
  }
  const detected: DocumentKind | null = oneoffKeys.length > 0 ? 'oneoff' : projectKeys.length > 0 || 'name' in document ? 'project' : null;
  if (expect && detected && detected !== expect) {
    const found = detected === 'project' ? projectKeys.concat() : oneoffKeys.concat();
    throw new InputError(
      `Expected a ${expect === 'oneoff' ? 'one-off request' : 'project'} but this looks like a ${detected === 'oneoff' ? 'one-off request' : 'project'} (${found.join(', ') || 'name'}): ${EXPECTED_FIELDS[expect]}`,
      [
        {
          path: found[0] ?? 'name',
          message: `belongs to a ${detected === 'oneoff' ? 'one-off request' : 'project'}; ${EXPECTED_FIELDS[expect]}`,
        },
      ],
    );
  }
  if (detected) return detected;
  if (expect) return expect;
  const keys = Object.keys(document);
  throw new InputError(
    `Cannot tell what kind of problem this is${keys.length ? ` (top-level fields: ${keys.slice(0, 8).join(', ')})` : ' (it is empty)'}: ${EXPECTED_FIELDS.project}; ${EXPECTED_FIELDS.oneoff}`,
    [
      {
        path: '(document)',
        message: `expected top-level fields name, date, drivers, stops, settings (project) or routesData, ordersData, options (one-off)`,
      },
    ],
  );
}

/** The interface's rejections of a one-off request, each at its field. */
export function oneoffRejections(document: Record<string, unknown>): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if ('date' in document) {
    details.push({
      path: 'date',
      message:
        'a one-off request has no date (its times are HH:mm clock times); remove it, or send a project (name, date, drivers, stops) instead',
    });
  }
  if ('workspaceUuid' in document) {
    details.push({
      path: 'workspaceUuid',
      message:
        'selects workspace mode, which routeplan does not support; remove it to send a one-off request (routesData, ordersData, options)',
    });
  }
  for (const [plain, data] of [
    ['routes', 'routesData'],
    ['orders', 'ordersData'],
  ] as const) {
    if (!(plain in document)) continue;
    const mixed = 'routesData' in document || 'ordersData' in document;
    details.push({
      path: plain,
      message: mixed
        ? `cannot be mixed with routesData/ordersData in one request; a one-off request uses only ${data}`
        : `the plain "${plain}" field is for workspace mode; a one-off request uses "${data}"`,
    });
  }
  return details;
}
