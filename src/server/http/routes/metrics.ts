/**
 * GET /metrics: the service's Prometheus metrics (prometheus-metrics.ts), answered by every role, a
 * worker too (each process serves its own counters). With `--metrics-token` a scrape needs
 * `Authorization: Bearer <token>` (401 otherwise; compared in constant time, as API keys are);
 * without one only a loopback client is answered (403 otherwise). Loopback is the socket's own
 * address, never X-Forwarded-For, even with --trust-proxy: behind a proxy every request would
 * otherwise come from a trusted-looking address.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken, isLoopbackAddress } from '../auth.js';
import { HttpError } from '../replies.js';
import { addPath } from './table.js';

export function registerMetrics(app: FastifyInstance, ctx: AppContext): void {
  const endpoint = ctx.metricsEndpoint;
  const expected = endpoint.token === null ? null : digest(endpoint.token);
  addPath(app, '/metrics', {
    GET: async (request, reply) => {
      allowScrape(ctx, request, expected);
      const text = await endpoint.render();
      return reply.code(200).headers({ 'content-type': endpoint.contentType, 'cache-control': 'no-store' }).send(text);
    },
  });
}

function allowScrape(ctx: AppContext, request: FastifyRequest, expected: Buffer | null): void {
  if (expected !== null) {
    const given = bearerToken(request.headers.authorization);
    // A wrong token counts toward the limit on wrong keys of its address, as a wrong API key does.
    ctx.guesses.attemptNow(
      request.ip,
      () => checkToken(given, expected),
      () => given !== null,
    );
    return;
  }
  if (!isLoopbackAddress(request.socket.remoteAddress)) {
    throw new HttpError(
      403,
      'forbidden',
      '/metrics answers loopback clients only; start the service with --metrics-token to scrape it from elsewhere',
    );
  }
}

/** Digests of equal length, so the comparison takes the same time whatever the token sent. */
function checkToken(given: string | null, expected: Buffer): void {
  if (given !== null && timingSafeEqual(digest(given), expected)) return;
  throw new HttpError(401, 'unauthorized', 'scraping /metrics needs "Authorization: Bearer <token>" with the --metrics-token', [], {
    'www-authenticate': 'Bearer',
  });
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
