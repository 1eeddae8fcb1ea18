/**
 * The service's OpenAPI 3.1 document (GET /openapi.json), made from the operation tables and the
 * zod schemas the service validates with (schemas.ts). What every operation of a kind shares is
 * added here once: its credentials, its path parameters' patterns, the errors any such request
 * may get, and `default`: whatever else it answers is an error of the service's shape.
 */
import { ID } from '../http/routes/table.js';
import { SESSION_COOKIE } from '../services/sessions.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../idempotency-key.js';
import { error, type Answer, type AnswerHeader, type Operation, type RequestHeader } from './operation.js';
import { componentSchemas, ref, type JsonSchema } from './schemas.js';
import { ACTION_OPERATIONS } from './operations-actions.js';
import { PROJECT_OPERATIONS } from './operations-projects.js';
import { DISPATCH_OPERATIONS } from './operations-dispatch.js';
import { WEB_OPERATIONS } from './operations-web.js';

/** Every operation the document describes; a route the service registers and no table names fails test/server/openapi.test.ts. */
export const OPERATIONS: readonly Operation[] = [...ACTION_OPERATIONS, ...PROJECT_OPERATIONS, ...DISPATCH_OPERATIONS, ...WEB_OPERATIONS];

/** A link's token (routes/drivers.ts TOKEN): base64url. */
const TOKEN_PATTERN = '^[A-Za-z0-9_-]{1,128}$';

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, JsonSchema>> };

let built: OpenApiDocument | null = null;

/** The document; made once per process (it depends on nothing but the code). */
export function openApiDocument(): OpenApiDocument {
  built ??= {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'routeplan',
      // The contract's version: the JSON plan's `version`, as /v1.0 and /v2 paths keep theirs.
      version: '1',
      summary: 'Route planning as a service: one-off schedules, projects, dispatch to drivers, live tracking.',
      description:
        'Bodies are JSON. Errors are `{"error": {"code", "message", "details": [{"path", "message"}]}}`, each detail naming the field (or header) at fault.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    paths: pathsOf(OPERATIONS),
    components: {
      schemas: componentSchemas(),
      securitySchemes: SECURITY_SCHEMES,
      parameters: HEADER_PARAMETERS,
      headers: ANSWER_HEADERS,
    },
  };
  return built;
}

function pathsOf(operations: readonly Operation[]): OpenApiDocument['paths'] {
  const paths: OpenApiDocument['paths'] = {};
  for (const operation of operations) (paths[operation.path] ??= {})[operation.method] = operationObject(operation);
  return paths;
}

function operationObject(operation: Operation): JsonSchema {
  return {
    operationId: operationId(operation),
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    security: operation.access === 'api' ? [{ apiKey: [] }, { session: [] }] : [],
    parameters: [...pathParameters(operation), ...queryParameters(operation), ...headerParameters(operation)],
    ...requestBody(operation),
    responses: Object.fromEntries(Object.entries(answersOf(operation)).map(([status, answer]) => [status, responseObject(answer)])),
  };
}

/** `post /v1.0/project/{id}/stops` → `postV10ProjectIdStops`: unique, as each path and method is. */
function operationId(operation: Operation): string {
  const words = operation.path.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  return operation.method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

function pathParameters(operation: Operation): JsonSchema[] {
  return [...operation.path.matchAll(/\{([A-Za-z]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: name === 'token' ? 'the link’s token: the credential of a driver’s or customer’s link' : 'an id the service gave',
    schema: { type: 'string', pattern: name === 'token' ? TOKEN_PATTERN : ID },
  }));
}

function queryParameters(operation: Operation): JsonSchema[] {
  return (operation.query ?? []).map(({ name, description, schema }) => ({
    name,
    in: 'query',
    required: false,
    description,
    schema: schema ?? { type: 'string' },
  }));
}

function headerParameters(operation: Operation): JsonSchema[] {
  const headers: RequestHeader[] = [...(operation.headers ?? [])];
  // A browser's session proves nothing on a write without its CSRF token (http/access.ts).
  if (operation.access === 'api' && operation.method !== 'get' && !headers.includes('X-CSRF-Token')) headers.push('X-CSRF-Token');
  return headers.map((header) => ({ $ref: `#/components/parameters/${header}` }));
}

function requestBody(operation: Operation): JsonSchema {
  if (operation.body) {
    return { requestBody: { required: !operation.optionalBody, content: { 'application/json': { schema: ref(operation.body) } } } };
  }
  if (operation.rawBody) {
    const { mediaType, description, schema } = operation.rawBody;
    return { requestBody: { required: true, description, content: { [mediaType]: schema ? { schema } : {} } } };
  }
  return {};
}

/** The operation's own answers, then what any request of its kind may get (its own descriptions win). */
function answersOf(operation: Operation): Record<string, Answer> {
  const shared: Record<string, Answer> = {};
  if (operation.access === 'api') {
    shared[401] = error('`unauthorized`: no key or session, or a wrong key');
    shared[403] = error('`csrf_failed`: a session’s write without its CSRF token, or from another site’s page');
    shared[429] = error('`too_many_failed_attempts`: too many wrong keys from this address', ['Retry-After']);
  }
  if (operation.body || operation.rawBody) {
    shared[400] = error('`malformed_json`: not JSON, a field given twice, nested too deep; or a field of the body, with its path');
    shared[413] = error('`payload_too_large`: over the body limit (--body-limit)');
    shared[415] = error('`unsupported_media_type`: the body is not of the media type the operation takes');
  }
  shared[503] = error('`storage_unavailable` (the store cannot write or be reached) or `shutting_down`', ['Retry-After']);
  const answers: Record<string, Answer> = { ...shared };
  for (const [status, own] of Object.entries(operation.answers)) answers[status] = alsoShared(own, shared[status]);
  return { ...answers, default: error('any other error, in the service’s shape') };
}

/** An operation's own answer for a status that any request of its kind may also get: both are said. */
function alsoShared(own: Answer, shared: Answer | undefined): Answer {
  if (!shared || shared.description === own.description || own.json !== 'Error' || shared.json !== 'Error') return own;
  const headers = [...new Set([...(own.headers ?? []), ...(shared.headers ?? [])])];
  return { ...own, description: `${own.description}; or ${shared.description}`, ...(headers.length > 0 ? { headers } : {}) };
}

function responseObject(answer: Answer): JsonSchema {
  const content = answer.json ? { 'application/json': { schema: ref(answer.json) } } : answer.raw ? { [answer.raw]: {} } : undefined;
  const headers = answer.headers?.map((header): [string, JsonSchema] => [header, { $ref: `#/components/headers/${header}` }]);
  return { description: answer.description, ...(headers ? { headers: Object.fromEntries(headers) } : {}), ...(content ? { content } : {}) };
}

const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key of the service (ROUTEPLAN_SERVER_KEYS), as `Authorization: Bearer <key>` (the word Bearer in any letter case).',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The web application’s session (POST /login); its writes also need X-CSRF-Token and, when sent, the service’s own Origin.',
  },
};

const HEADER_PARAMETERS: Record<RequestHeader, JsonSchema> = {
  'Idempotency-Key': {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: 'A retry with the same key and request creates nothing and gets the first answer again (Idempotent-Replayed: true).',
    schema: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_IDEMPOTENCY_KEY_LENGTH,
      pattern: '^[\\x21-\\x7e](?:[\\x20-\\x7e]*[\\x21-\\x7e])?$',
    },
  },
  'If-Match': {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'The project’s ETag last read ("<version>"): when the project changed since, 412 `version_mismatch` and nothing changes.',
    schema: { type: 'string' },
  },
  'X-CSRF-Token': {
    name: 'X-CSRF-Token',
    in: 'header',
    required: false,
    description: 'With the session cookie only: the session’s csrfToken (GET /session). A Bearer key needs none.',
    schema: { type: 'string' },
  },
};

const ANSWER_HEADERS: Record<AnswerHeader, JsonSchema> = {
  ETag: { description: 'The project’s version, a strong tag: `"<version>"`', schema: { type: 'string' } },
  Location: { description: 'Where the created (or accepted) resource is', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'string', pattern: '^[0-9]+$' } },
  'Idempotent-Replayed': {
    description: '`true` on a replay of an Idempotency-Key’s first answer',
    schema: { type: 'string', enum: ['true'] },
  },
  'Set-Cookie': {
    description: 'The session cookie (HttpOnly, SameSite=Strict; Secure with an https public URL)',
    schema: { type: 'string' },
  },
};
