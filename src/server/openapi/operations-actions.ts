/** The document's operations on one-off schedules and on actions (routes/api.ts), as README's "Endpoints" describes them. */
import { actionListQuerySchema } from '../action-list.js';
import { error, queryFrom, type Operation } from './operation.js';

const ACTION_NOT_FOUND = error('`not_found`: no such action, or another key’s');
const QUEUE_FULL = error('`queue_full` or `key_quota_exceeded`: too many solves are waiting; retry later', ['Retry-After']);

export const ACTION_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/schedules',
    tag: 'schedules',
    summary: 'Submit a one-off problem (routesData, ordersData, options); it is solved in the background',
    access: 'api',
    body: 'OneoffRequest',
    headers: ['Idempotency-Key'],
    answers: {
      202: {
        description: 'accepted and stored; poll it at Location',
        json: 'AcceptedAction',
        headers: ['Location', 'Idempotent-Replayed'],
      },
      400: error('`invalid_input` (each problem with its path), `malformed_json`, `invalid_idempotency_key`'),
      409: error('`idempotency_conflict`: the Idempotency-Key was used for another request'),
      429: QUEUE_FULL,
    },
  },
  {
    method: 'get',
    path: '/v2/schedules',
    tag: 'schedules',
    summary: 'The calling key’s actions, newest first, a page at a time (find a failed one to submit again)',
    access: 'api',
    query: queryFrom(actionListQuerySchema),
    answers: {
      200: { description: 'one page; `next_cursor` is where the next starts (null on the last)', json: 'ActionList' },
      400: error('`invalid_query`: a status, limit or cursor this route does not take, with its path'),
    },
  },
  {
    method: 'get',
    path: '/v2/schedules/{id}',
    tag: 'schedules',
    summary: 'An action: pending (with its progress while it runs), finished (with the plan) or failed (with the error)',
    access: 'api',
    answers: { 200: { description: 'the action record', json: 'ActionRecord' }, 404: ACTION_NOT_FOUND },
  },
  {
    method: 'delete',
    path: '/v2/schedules/{id}',
    tag: 'schedules',
    summary: 'Delete an action with its request and plan; a pending one is cancelled first',
    access: 'api',
    answers: { 204: { description: 'deleted' }, 404: ACTION_NOT_FOUND },
  },
  {
    method: 'get',
    path: '/v2/schedules/{id}/solution',
    tag: 'schedules',
    summary: 'The plan of a finished action alone',
    access: 'api',
    answers: {
      200: { description: 'the JSON plan (contract version 1)', json: 'Plan' },
      404: ACTION_NOT_FOUND,
      409: error('`not_ready` while pending (with Retry-After), `action_failed` once failed', ['Retry-After']),
    },
  },
  {
    method: 'post',
    path: '/v2/schedules/{id}/cancel',
    tag: 'schedules',
    summary: 'Cancel a pending action, waiting or running (its solve is stopped)',
    access: 'api',
    answers: {
      200: { description: 'the record, now failed with the code `cancelled`', json: 'ActionRecord' },
      404: ACTION_NOT_FOUND,
      409: error('`not_cancellable`: the action already ended'),
    },
  },
];

export { QUEUE_FULL };
