/**
 * Registers a path with the methods it answers. Every other method on a known path is a 405 with
 * `Allow` (fastify alone would answer 404), and HEAD is answered by the GET handler.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, pathOf } from '../replies.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Record ids in paths (UUIDs); anything else is not a route at all. */
export const ID = '^[A-Za-z0-9-]{1,64}$';

/** `:name` restricted to ID, as a fastify path segment. */
export function idParam(name: string): string {
  return `:${name}(${ID})`;
}

export interface PathOptions {
  /** Runs before the method is matched: an API path authenticates here, so a 405 never answers a stranger. */
  before?: (request: FastifyRequest) => void;
}

export function addPath(app: FastifyInstance, url: string, handlers: Partial<Record<Method, Handler>>, options: PathOptions = {}): void {
  const allowed = Object.keys(handlers).join(', ');
  // The methods it answers go with the route, for those who list the routes (http/tap.ts).
  const methods = Object.keys(handlers);
  app.all(url, { config: { methods } }, async (request, reply) => {
    options.before?.(request);
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const handle = handlers[method as Method];
    if (!handle) {
      throw new HttpError(405, 'method_not_allowed', `${request.method} is not allowed on ${pathOf(request.url)}; use ${allowed}`, [], {
        allow: allowed,
      });
    }
    await handle(request, reply);
    return reply;
  });
}

/** The path parameter `name` (present whenever the route matched). */
export function paramOf(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string>)[name]!;
}
