/** The document's operations of the web application's session (routes/session.ts) and of the service itself. */
import { error, type Operation } from './operation.js';

export const WEB_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/login',
    tag: 'session',
    summary: 'Sign a browser in with a key: the session cookie',
    access: 'public',
    rawBody: {
      mediaType: 'application/x-www-form-urlencoded',
      description: '`key`, and `next`: a local path to go to afterwards',
      schema: { type: 'object', properties: { key: { type: 'string' }, next: { type: 'string' } }, required: ['key'] },
    },
    answers: {
      303: {
        description: 'to `next` or `/` with the session cookie; a wrong key to `/?signin=failed`',
        headers: ['Location', 'Set-Cookie'],
      },
      403: error('`csrf_failed`: posted from another site’s page'),
      429: error('`too_many_failed_attempts` (a browser’s form post: 303 to `/?signin=limited`)', ['Retry-After']),
    },
  },
  {
    method: 'post',
    path: '/logout',
    tag: 'session',
    summary: 'End the session (CSRF token as form field `csrf` or header X-CSRF-Token)',
    access: 'public',
    headers: ['X-CSRF-Token'],
    rawBody: {
      mediaType: 'application/x-www-form-urlencoded',
      description: '`csrf`: the session’s CSRF token, unless sent as X-CSRF-Token',
      schema: { type: 'object', properties: { csrf: { type: 'string' } } },
    },
    answers: { 303: { description: 'to `/`, the cookie cleared', headers: ['Location', 'Set-Cookie'] }, 403: error('`csrf_failed`') },
  },
  {
    method: 'get',
    path: '/session',
    tag: 'session',
    summary: 'The cookie’s session: owner, CSRF token, expiry, the maps’ basemap, the solve time limit',
    access: 'public',
    answers: {
      200: { description: 'the session', json: 'SessionView', headers: ['Set-Cookie'] },
      401: error('`unauthorized`: no session, or it ended'),
    },
  },
  {
    method: 'get',
    path: '/healthz',
    tag: 'service',
    summary: 'Liveness, the store and the queue, without credentials',
    access: 'public',
    answers: {
      200: { description: 'the service can take work', json: 'Health' },
      503: { description: 'shutting down, or the store cannot write (a full disk, an unreachable database)', json: 'Health' },
    },
  },
  {
    method: 'get',
    path: '/openapi.json',
    tag: 'service',
    summary: 'This document',
    access: 'public',
    answers: { 200: { description: 'the OpenAPI 3.1 document of the service', raw: 'application/json' } },
  },
];
