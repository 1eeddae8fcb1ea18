/**
 * The driver's side of a dispatch: no sign-in, the unguessable token in the path is the
 * credential, and it opens its own driver's route only.
 *   GET  /drivers/{token}                  the driver page (dist/web/driver.html)
 *   GET  /drivers/{token}/route            DriverRouteView (with the basemap, `tiles`, for the page's small map)
 *   POST /drivers/{token}/stops/{stopId}   StopStatusUpdate → the stop as stored
 *   POST /drivers/{token}/position         {lat, lng, at, accuracy_m?} → {position, kept} (the newest kept)
 * A link that is unknown answers 404 link_not_found; a withdrawn or expired one 410. An unknown
 * token is a wrong guess of a credential: it counts against the caller's address (guess-limit.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError, readJsonBody, sendJson } from '../replies.js';
import { NOT_BUILT_PAGE, pageHeaders, readPage, tilesView } from '../web.js';
import { addPath, idParam, paramOf } from './table.js';

/** Tokens are base64url; anything else cannot be one, and is answered like an unknown token. */
export const TOKEN = ':token(^[A-Za-z0-9_-]{1,128}$)';

export function registerDrivers(app: FastifyInstance, ctx: AppContext): void {
  addPath(app, `/drivers/${TOKEN}`, { GET: (request, reply) => driverPage(ctx, request, reply) });
  addPath(app, `/drivers/${TOKEN}/route`, {
    GET: async (request, reply) => {
      const route = await withLink(ctx, request, (token) => ctx.dispatch.routeOf(token));
      sendJson(reply, 200, { ...route, tiles: tilesView(ctx.web.tiles) }, privateHeaders());
    },
  });
  addPath(app, `/drivers/${TOKEN}/stops/${idParam('stopId')}`, {
    POST: async (request, reply) => {
      const body = await readJsonBody(request.raw, ctx.bodyLimitBytes);
      const stop = await withLink(ctx, request, (token) => ctx.dispatch.report(token, paramOf(request, 'stopId'), body));
      sendJson(reply, 200, stop, privateHeaders());
    },
  });
  addPath(app, `/drivers/${TOKEN}/position`, {
    POST: async (request, reply) => {
      const body = await readJsonBody(request.raw, ctx.bodyLimitBytes);
      sendJson(reply, 200, await withLink(ctx, request, (token) => ctx.dispatch.sharePosition(token, body)), privateHeaders());
    },
  });
}

/** The page answers with the link's own status (200, 404 or 410), and shows why itself. */
async function driverPage(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const html = await readPage(ctx.web.root, 'driver');
  void reply
    .code(html === null ? 500 : await linkStatus(ctx, request))
    .headers({ ...pageHeaders(ctx.web.tiles), ...privateHeaders(), 'content-type': 'text/html; charset=utf-8' })
    .send(html ?? NOT_BUILT_PAGE);
}

/** Uses the request's link (a driver's or a customer's) under the guess limit: an unknown token counts as a wrong guess. */
export function withLink<T>(ctx: AppContext, request: FastifyRequest, use: (token: string) => Promise<T>): Promise<T> {
  return ctx.guesses.attempt(request.ip, () => use(paramOf(request, 'token')), isUnknownLink);
}

function isUnknownLink(error: unknown): boolean {
  return error instanceof HttpError && error.code === 'link_not_found';
}

async function linkStatus(ctx: AppContext, request: FastifyRequest): Promise<number> {
  return linkStatusOf(ctx, request, (token) => ctx.dispatch.routeOf(token));
}

/** The HTTP status a link's page answers with: 200, or the link's own 404/410. */
export async function linkStatusOf(ctx: AppContext, request: FastifyRequest, open: (token: string) => Promise<unknown>): Promise<number> {
  try {
    await withLink(ctx, request, open);
    return 200;
  } catch (error) {
    if (error instanceof HttpError) return error.status;
    throw error;
  }
}

/** The token must not leave in a Referer (the navigation links go to other sites) nor be indexed. */
export function privateHeaders(): Record<string, string> {
  return { 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow', 'cache-control': 'no-store' };
}
