/**
 * One operation of the document, as the tables (operations-*.ts) write it: what it takes and what
 * it answers, by the names of schemas.ts. document.ts turns each into OpenAPI's Operation Object
 * and adds what every operation of its kind shares (credentials, the errors any request may get).
 */
import { z } from 'zod';
import type { AnswerName, JsonSchema, RequestName } from './schemas.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/**
 * Who may call it: `api` with a key (Bearer) or the web application's session cookie (then a CSRF
 * token on writes); `public` needs nothing; `link` is a driver's or customer's link, whose token
 * in the path is the credential.
 */
export type Access = 'api' | 'public' | 'link';

/** A header the operation reads (request) or sets (answer); document.ts describes each once. */
export type RequestHeader = 'Idempotency-Key' | 'If-Match' | 'X-CSRF-Token';
export type AnswerHeader = 'ETag' | 'Location' | 'Retry-After' | 'Idempotent-Replayed' | 'Set-Cookie';

export interface Answer {
  description: string;
  /** A JSON body of this schema; `raw` another media type (a page, an image), none for an empty body. */
  json?: AnswerName;
  raw?: string;
  headers?: AnswerHeader[];
}

export interface QueryParameter {
  name: string;
  description: string;
  /** The parameter's JSON Schema; a plain string when absent. */
  schema?: JsonSchema;
}

export interface Operation {
  method: HttpMethod;
  /** The path as OpenAPI writes it (`/v1.0/project/{id}`), with the parameter names of the service's routes. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  /** A JSON body of this schema (required unless `optionalBody`), or another media type. */
  body?: RequestName;
  optionalBody?: boolean;
  rawBody?: { mediaType: string; description: string; schema?: Record<string, unknown> };
  headers?: RequestHeader[];
  query?: QueryParameter[];
  answers: Record<number, Answer>;
}

/** An error of the service's shape, with its status's description: the codes it may carry. */
export function error(description: string, headers: AnswerHeader[] = []): Answer {
  return { description, json: 'Error', ...(headers.length > 0 ? { headers } : {}) };
}

/** The errors every request for a project (or one of its parts) may answer. */
export const PROJECT_NOT_FOUND = error('`not_found`: no such project, or another key’s');

/** A link that is unknown (a wrong guess, counted toward the limit), withdrawn or expired. */
export const LINK_ERRORS: Record<number, Answer> = {
  404: error('`link_not_found`: no such link (a wrong guess; it counts toward the limit on wrong keys and links)'),
  410: error('`link_revoked` or `link_expired`'),
  429: error('`too_many_failed_attempts`: too many wrong keys or links from this address', ['Retry-After']),
};

/** The query parameters of a route that validates its query with this zod object: each property, as zod describes it. */
export function queryFrom(schema: z.ZodObject): QueryParameter[] {
  const { properties } = z.toJSONSchema(schema, { io: 'input' }) as { properties: Record<string, JsonSchema> };
  return Object.entries(properties).map(([name, property]) => ({
    name,
    description: typeof property.description === 'string' ? property.description : '',
    schema: property,
  }));
}
