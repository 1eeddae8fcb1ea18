/** The document's operations on projects and their edits, plans and imports (routes/api.ts, project-edits.ts, hand-plans.ts, imports.ts). */
import { PROJECT_NOT_FOUND, error, type Answer, type Operation } from './operation.js';
import { QUEUE_FULL } from './operations-actions.js';

const PROJECT: Answer = { description: 'the project record, its version also as ETag', json: 'ProjectRecord', headers: ['ETag'] };
const INVALID_PROJECT = error('`invalid_input`: the project as changed is invalid, each problem with its path (nothing changed)');
const VERSION_MISMATCH = error('`version_mismatch`: If-Match names another version than the current one (its ETag)', ['ETag']);
const ITEM_NOT_FOUND = error('`not_found` (the project), `stop_not_found` or `driver_not_found`');
const GEOCODING = error(
  '`geocoding_pending` while its addresses are geocoded (Retry-After); `geocoding_failed` when a driver’s place was not found; `not_dispatched` (reoptimize) before dispatch; `idempotency_conflict`',
  ['Retry-After'],
);

export const PROJECT_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/v1.0/project',
    tag: 'projects',
    summary: 'Create a project (nothing is optimized by this request)',
    access: 'api',
    body: 'Project',
    headers: ['Idempotency-Key'],
    answers: {
      201: { ...PROJECT, description: 'the project record', headers: ['Location', 'Idempotent-Replayed'] },
      400: error('`invalid_input`: each problem with its path; `malformed_json`'),
      409: error('`idempotency_conflict`: the Idempotency-Key was used for another request'),
    },
  },
  {
    method: 'get',
    path: '/v1.0/projects',
    tag: 'projects',
    summary: 'The caller’s projects, each with its latest plan',
    access: 'api',
    answers: { 200: { description: 'the projects', json: 'ProjectList' } },
  },
  {
    method: 'get',
    path: '/v1.0/project/{id}',
    tag: 'projects',
    summary: 'A project: its fields, ids, version, plans, dispatch and customer messages',
    access: 'api',
    answers: { 200: PROJECT, 404: PROJECT_NOT_FOUND },
  },
  {
    method: 'patch',
    path: '/v1.0/project/{id}',
    tag: 'projects',
    summary: 'Change the project’s own fields (a JSON merge patch; stops and drivers change on their own paths)',
    access: 'api',
    body: 'ProjectPatch',
    headers: ['If-Match'],
    answers: { 200: PROJECT, 400: INVALID_PROJECT, 404: PROJECT_NOT_FOUND, 412: VERSION_MISMATCH },
  },
  {
    method: 'delete',
    path: '/v1.0/project/{id}',
    tag: 'projects',
    summary: 'Delete the project with everything made from it: plans, dispatch, proofs, customer messages',
    access: 'api',
    answers: { 204: { description: 'deleted' }, 404: PROJECT_NOT_FOUND },
  },
  ...(['stops', 'drivers'] as const).flatMap(itemOperations),
  {
    method: 'post',
    path: '/v1.0/project/{id}/optimize',
    tag: 'projects',
    summary: 'Optimize the project as it is now; followed like a schedule',
    access: 'api',
    headers: ['Idempotency-Key'],
    answers: { 202: accepted(), 404: PROJECT_NOT_FOUND, 409: GEOCODING, 429: QUEUE_FULL },
  },
  {
    method: 'post',
    path: '/v1.0/project/{id}/reoptimize',
    tag: 'projects',
    summary: 'Plan the rest of a dispatched day from now',
    access: 'api',
    headers: ['Idempotency-Key'],
    answers: { 202: accepted(), 404: PROJECT_NOT_FOUND, 409: GEOCODING, 429: QUEUE_FULL },
  },
  {
    method: 'post',
    path: '/v1.0/project/{id}/plans/evaluate',
    tag: 'plans',
    summary: 'Re-time routes arranged by hand and list every rule they break; nothing is kept',
    access: 'api',
    body: 'HandPlan',
    headers: ['If-Match'],
    answers: {
      200: { description: 'the plan as arranged, re-timed, and its violations', json: 'PlanEvaluation', headers: ['ETag'] },
      400: error('`invalid_input`: an unknown stop or driver, a stop given twice, a `base` that is no finished plan, each with its path'),
      404: PROJECT_NOT_FOUND,
      412: VERSION_MISMATCH,
    },
  },
  {
    method: 'post',
    path: '/v1.0/project/{id}/plans',
    tag: 'plans',
    summary: 'Keep routes arranged by hand as a new plan of the project (kind `edited`)',
    access: 'api',
    body: 'HandPlan',
    headers: ['If-Match'],
    answers: {
      201: { description: 'the plan’s action, finished, with its violations', json: 'KeptPlan', headers: ['Location', 'ETag'] },
      400: error('`invalid_input`, each problem with its path'),
      404: PROJECT_NOT_FOUND,
      412: VERSION_MISMATCH,
    },
  },
  ...(['stops', 'drivers'] as const).flatMap(importOperations),
];

function accepted(): Answer {
  return {
    description: 'accepted; poll it at Location (/v2/schedules/{actionUuid})',
    json: 'AcceptedAction',
    headers: ['Location', 'Idempotent-Replayed'],
  };
}

function itemOperations(list: 'stops' | 'drivers'): Operation[] {
  const one = list === 'stops' ? 'stop' : 'driver';
  const [body, patch] = list === 'stops' ? (['Stop', 'StopPatch'] as const) : (['Driver', 'DriverPatch'] as const);
  const item = `/v1.0/project/{id}/${list}/{itemId}`;
  return [
    {
      method: 'post',
      path: `/v1.0/project/{id}/${list}`,
      tag: 'projects',
      summary: `Add a ${one}, as in a project file`,
      access: 'api',
      body,
      headers: ['If-Match'],
      answers: {
        201: { ...PROJECT, description: `the project record, the new ${one} last with its id`, headers: ['ETag', 'Location'] },
        400: INVALID_PROJECT,
        404: PROJECT_NOT_FOUND,
        412: VERSION_MISMATCH,
      },
    },
    {
      method: 'patch',
      path: item,
      tag: 'projects',
      summary: `Change a ${one} (a JSON merge patch)`,
      access: 'api',
      body: patch,
      headers: ['If-Match'],
      answers: { 200: PROJECT, 400: INVALID_PROJECT, 404: ITEM_NOT_FOUND, 412: VERSION_MISMATCH },
    },
    {
      method: 'delete',
      path: item,
      tag: 'projects',
      summary: `Remove a ${one} (the other ids stay)`,
      access: 'api',
      headers: ['If-Match'],
      answers: { 200: PROJECT, 400: INVALID_PROJECT, 404: ITEM_NOT_FOUND, 412: VERSION_MISMATCH },
    },
  ];
}

function importOperations(role: 'stops' | 'drivers'): Operation[] {
  return [
    {
      method: 'post',
      path: `/v1.0/imports/${role}`,
      tag: 'imports',
      summary: `Read a spreadsheet of ${role}: its rows as text and a guess per column; nothing is stored`,
      access: 'api',
      query: [{ name: 'file', description: 'the file’s name, which messages name it by' }],
      rawBody: {
        mediaType: '*/*',
        description: 'the file’s bytes: CSV (separated by `,`, `;` or tab) or XLSX (its first sheet), any Content-Type',
        schema: { type: 'string', contentMediaType: 'application/octet-stream' },
      },
      answers: {
        200: { description: 'the table', json: 'InspectedTable' },
        400: error('`empty_file`, `not_a_spreadsheet`, `too_many_rows`'),
      },
    },
    {
      method: 'post',
      path: `/v1.0/imports/${role}/items`,
      tag: 'imports',
      summary: `Read the table’s rows as ${role}, validated as routeplan validate reads a CSV table`,
      access: 'api',
      body: 'ImportRequest',
      answers: {
        200: { description: 'the items and the problems by row and column', json: 'ConvertedRows' },
        400: error('`invalid_input`: a malformed request, with paths'),
      },
    },
  ];
}
