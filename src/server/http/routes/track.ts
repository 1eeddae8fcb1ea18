/**
 * The customer's side of a dispatch: a tracking link per stop, no sign-in; the unguessable token in
 * the path is the credential and opens that one stop only (services/dispatch/tracking.ts).
 *   GET /track/{token}          the tracking page (dist/web/track.html)
 *   GET /track/{token}/status   TrackingView
 * A link that is unknown answers 404 link_not_found (a wrong guess, counted by guess-limit.ts); an expired one, or one whose stop left the routes, 410.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { sendJson } from '../replies.js';
import { NOT_BUILT_PAGE, pageHeaders, readPage } from '../web.js';
import { TOKEN, linkStatusOf, privateHeaders, withLink } from './drivers.js';
import { addPath } from './table.js';

export function registerTrack(app: FastifyInstance, ctx: AppContext): void {
  addPath(app, `/track/${TOKEN}`, { GET: (request, reply) => trackPage(ctx, request, reply) });
  addPath(app, `/track/${TOKEN}/status`, {
    GET: async (request, reply) => {
      sendJson(reply, 200, await withLink(ctx, request, (token) => ctx.tracking.statusOf(token)), privateHeaders());
    },
  });
}

/** The page answers with the link's own status (200, 404 or 410), and shows why itself. */
async function trackPage(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const html = await readPage(ctx.web.root, 'track');
  void reply
    .code(html === null ? 500 : await linkStatusOf(ctx, request, (token) => ctx.tracking.statusOf(token)))
    .headers({ ...pageHeaders(null), ...privateHeaders(), 'content-type': 'text/html; charset=utf-8' })
    .send(html ?? NOT_BUILT_PAGE);
}
