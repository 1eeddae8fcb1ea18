/**
 * GET /openapi.json: the service's OpenAPI 3.1 document (openapi/document.ts), without credentials,
 * so that a team can generate a client from it. It changes only with the service's code: it is
 * made once, and answered with an ETag and a few minutes of caching.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from '../../openapi/document.js';
import { addPath } from './table.js';

export const OPENAPI_PATH = '/openapi.json';

export function registerOpenApi(app: FastifyInstance): void {
  let answer: { text: string; etag: string } | null = null;
  addPath(app, OPENAPI_PATH, {
    GET: async (request, reply) => {
      answer ??= answerOf(JSON.stringify(openApiDocument()));
      const headers = { etag: answer.etag, 'cache-control': 'public, max-age=300' };
      if (request.headers['if-none-match'] === answer.etag) return reply.code(304).headers(headers).send();
      return reply
        .code(200)
        .headers({ ...headers, 'content-type': 'application/json; charset=utf-8' })
        .send(answer.text);
    },
  });
}

function answerOf(text: string): { text: string; etag: string } {
  return { text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"` };
}
