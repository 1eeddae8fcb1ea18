/**
 * What the HTTP layer reports of each request for watching the service: its id (request-id.ts),
 * set before fastify sees the request so that every line logged while it is handled carries it
 * (log-context.ts) and echoed in the answer's `X-Request-Id`; and its route, status and duration
 * for `/metrics` (the ServiceMetrics port), counted where the request's log line is written (app.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { logIds, withLogIds } from '../log-context.js';
import type { ServiceMetrics } from '../metrics.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';

type NodeHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** The server's request handler, each request run under its own id. */
export function withRequestIds(handler: NodeHandler): NodeHandler {
  return (request, response) => withLogIds({ request_id: requestIdOf(request) }, () => handler(request, response));
}

/** fastify's `genReqId`: the id withRequestIds gave the request, so `request.id` is the one logged. */
export function currentRequestId(request: IncomingMessage): string {
  return logIds().request_id ?? requestIdOf(request);
}

/** Echoes the id on every answer; first of the hooks, so a refused request is echoed too. */
export function echoRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    echoRequestId(request, reply);
    done();
  });
}

export function echoRequestId(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header(REQUEST_ID_HEADER, request.id);
}

/** Nanoseconds since the request came in; 0 for one fastify refused before our hooks gave it a start time. */
export function elapsedNs(request: FastifyRequest): bigint {
  return request.startedAt > 0n ? process.hrtime.bigint() - request.startedAt : 0n;
}

export function countRequest(metrics: ServiceMetrics, request: FastifyRequest, reply: FastifyReply, elapsed: bigint): void {
  metrics.httpRequest(routeLabelOf(request), request.method, reply.statusCode, Number(elapsed) / 1e9);
}

/**
 * The route as registered, its parameters named without their patterns (`/v2/schedules/:id`);
 * `unmatched` for a path no route has, so that scanners' guesses cannot add labels without end.
 */
export function routeLabelOf(request: FastifyRequest): string {
  const pattern = request.routeOptions?.url;
  if (pattern === undefined || request.is404) return 'unmatched';
  return pattern.replace(/(:[A-Za-z_]\w*)\([^/]*\)/g, '$1');
}
