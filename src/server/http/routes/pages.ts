/**
 * The web application's pages and assets. A project page needs a session, and answers another
 * owner's project exactly like a missing one (404, the page then says "Project not found"), as the
 * API does.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { join } from 'node:path';
import { OPEN_ACCESS_OWNER } from '../auth.js';
import type { AppContext } from '../context.js';
import { HttpError, pathOf, sendError } from '../replies.js';
import { NOT_BUILT_PAGE, pageHeaders, readPage, type PageName } from '../web.js';
import { addPath, idParam, paramOf } from './table.js';

export async function registerPages(app: FastifyInstance, ctx: AppContext): Promise<void> {
  addPath(app, '/', { GET: (_request, reply) => sendPage(ctx, reply, 'index', 200) });
  addPath(app, `/projects/${idParam('id')}`, { GET: (request, reply) => projectPage(ctx, request, reply, 'project') });
  addPath(app, `/projects/${idParam('id')}/print`, { GET: (request, reply) => projectPage(ctx, request, reply, 'print') });
  await app.register(registerAssets, { root: join(ctx.web.root, 'assets') });
}

/**
 * /assets/*: the files of dist/web/assets/ with their content types. A path the static plugin
 * refuses (a `..` or other non-canonical segment, 403 there) is answered like a missing file.
 */
async function registerAssets(assets: FastifyInstance, { root }: { root: string }): Promise<void> {
  assets.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.statusCode !== 403) throw error;
    request.notes.errorCode = 'not_found';
    sendError(reply, new HttpError(404, 'not_found', `no such asset: ${pathOf(request.url)}`));
  });
  await assets.register(fastifyStatic, {
    root,
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    list: false,
    redirect: false,
    dotfiles: 'ignore',
    // Asset names are not hashed: the browser revalidates (ETag) instead of trusting a stale copy.
    cacheControl: false,
    setHeaders: (reply) => {
      reply.header('cache-control', 'no-cache');
      reply.header('x-content-type-options', 'nosniff');
    },
  });
}

async function projectPage(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, page: PageName): Promise<void> {
  const owner = pageOwner(ctx, request);
  if (owner === null) {
    void reply
      .code(303)
      .headers({ location: `/?next=${encodeURIComponent(request.url)}`, 'cache-control': 'no-store' })
      .send();
    return;
  }
  const found = await ctx.projects.find(owner, paramOf(request, 'id'));
  if (found) request.notes.projectId = found.record.id;
  await sendPage(ctx, reply, page, found ? 200 : 404);
}

/**
 * The signed-in owner; with open access, the open-access owner even before the page has asked
 * GET /session for its cookie (which it does on load), so the page opens without a detour.
 */
function pageOwner(ctx: AppContext, request: FastifyRequest): string | null {
  const session = ctx.access.session(request);
  if (session) return session.owner;
  return ctx.access.openAccess ? OPEN_ACCESS_OWNER : null;
}

/** A missing build is the operator's to fix (startServer logs it): the page says how. */
async function sendPage(ctx: AppContext, reply: FastifyReply, page: PageName, status: number): Promise<void> {
  const html = await readPage(ctx.web.root, page);
  void reply
    .code(html === null ? 500 : status)
    .headers({ ...pageHeaders(ctx.web.tiles), 'content-type': 'text/html; charset=utf-8' })
    .send(html ?? NOT_BUILT_PAGE);
}
