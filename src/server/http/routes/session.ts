/**
 * Signing in and out of the web application. The key is posted once, as a plain form, to /login;
 * from then on the browser holds only the session cookie (HttpOnly, so no script can read it) and
 * the page reads its CSRF token and settings from GET /session.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, isFormContentType, readFormBody, sendJson } from '../replies.js';
import { csrfHeaderOf, noSession, sessionEnded } from '../access.js';
import { SESSION_COOKIE, type Session } from '../../services/sessions.js';
import { OPEN_ACCESS_OWNER } from '../auth.js';
import type { AppContext } from '../context.js';
import type { SessionView } from '../../api-types.js';
import { tilesView } from '../web.js';
import { addPath } from './table.js';

/** A sign-in form holds a key and a path: anything near this size is not one. */
const FORM_LIMIT_BYTES = 16 * 1024;

export function registerSession(app: FastifyInstance, ctx: AppContext): void {
  addPath(app, '/login', { POST: (request, reply) => login(ctx, request, reply) });
  addPath(app, '/logout', { POST: (request, reply) => logout(ctx, request, reply) });
  addPath(app, '/session', { GET: (request, reply) => currentSession(ctx, request, reply) });
}

async function login(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // A cross-site form could otherwise sign the browser in under someone else's key.
  ctx.access.checkOrigin(request);
  const form = await readFormBody(request.raw, FORM_LIMIT_BYTES);
  const next = localPath(form.get('next'));
  const nextQuery = next ? `&next=${encodeURIComponent(next)}` : '';
  let owner: string | null;
  try {
    owner = ctx.access.ownerOfKey(request, form.get('key') ?? '');
  } catch (error) {
    if (!(isTooManyGuesses(error) && isBrowserNavigation(request))) throw error;
    // The browser's sign-in form: the page says why and for how long, instead of a JSON document.
    request.notes.errorCode = error.code;
    redirect(reply, `/?signin=limited${nextQuery}`, error.headers);
    return;
  }
  if (owner === null) {
    request.notes.errorCode = 'signin_failed';
    redirect(reply, `/?signin=failed${nextQuery}`);
    return;
  }
  // A new sign-in replaces the browser's earlier session rather than leaving it alive.
  await ctx.sessions.end(request.cookies[SESSION_COOKIE]);
  const { token } = await ctx.sessions.create(owner);
  setSessionCookie(ctx, reply, token);
  redirect(reply, next ?? '/');
}

async function logout(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const session = ctx.access.session(request);
  if (session) {
    const form = isFormContentType(request.headers['content-type']) ? await readFormBody(request.raw, FORM_LIMIT_BYTES) : null;
    const token = csrfHeaderOf(request) ?? form?.get('csrf') ?? undefined;
    ctx.access.checkCsrf(request, session, token);
    await ctx.sessions.end(request.cookies[SESSION_COOKIE]);
  }
  reply.clearCookie(SESSION_COOKIE, cookieOptions(ctx));
  redirect(reply, '/');
}

/** The page's view of its session; open access signs the browser in on its first call. */
async function currentSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  let session: Session | null = ctx.access.session(request);
  if (!session && ctx.access.openAccess) {
    const created = await ctx.sessions.create(OPEN_ACCESS_OWNER);
    setSessionCookie(ctx, reply, created.token);
    session = created.session;
  }
  if (!session) throw request.cookies[SESSION_COOKIE] !== undefined ? sessionEnded() : noSession();
  const view: SessionView = {
    owner: session.owner,
    csrfToken: session.csrfToken,
    expiresAt: session.expiresAt,
    openAccess: ctx.access.openAccess,
    tiles: tilesView(ctx.web.tiles),
    // The one place the limit is in seconds: the field the page has always read.
    timeLimitSeconds: ctx.timeLimitMs / 1000,
  };
  sendJson(reply, 200, view);
}

/**
 * Where to go after signing in: a path on this service only, as the ASCII a Location header can
 * carry (a header with other characters cannot be sent at all). `//host` and `/\host` are other
 * sites to a browser, so only a single leading slash followed by a path character is accepted, and
 * checked again once the URL parser has resolved dot segments (`/.//host` becomes `//host`) and
 * percent-encoded what is not ASCII (`/projets/é` becomes `/projets/%C3%A9`).
 */
export function localPath(next: string | null): string | null {
  if (next === null || !isPlainLocalPath(next) || hasControlCharacter(next)) return null;
  const url = new URL(next, LOCAL_BASE);
  if (url.origin !== LOCAL_BASE) return null;
  const encoded = `${url.pathname}${url.search}${url.hash}`;
  return isPlainLocalPath(encoded) && /^[\x21-\x7e]+$/.test(encoded) ? encoded : null;
}

const LOCAL_BASE = 'http://service.invalid';

function isPlainLocalPath(path: string): boolean {
  return /^\/(?![/\\])/.test(path) && !path.includes('\\');
}

/** Browsers drop tabs and newlines from URLs, which would turn `/\t/host` into `//host`. */
function hasControlCharacter(text: string): boolean {
  return [...text].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f);
}

function cookieOptions(ctx: AppContext): { httpOnly: true; sameSite: 'strict'; path: '/'; secure: boolean } {
  return { httpOnly: true, sameSite: 'strict', path: '/', secure: ctx.web.secureCookies };
}

function setSessionCookie(ctx: AppContext, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(ctx), maxAge: Math.ceil(ctx.sessions.ttlMs / 1000) });
}

function redirect(reply: FastifyReply, location: string, headers: Record<string, string> = {}): void {
  void reply
    .code(303)
    .headers({ location, 'cache-control': 'no-store', ...headers })
    .send();
}

function isTooManyGuesses(error: unknown): error is HttpError {
  return error instanceof HttpError && error.status === 429;
}

/**
 * A browser submitting the sign-in form (it says so in Sec-Fetch-Mode, or asks for a page first);
 * API clients and scripts get the 429 itself.
 */
function isBrowserNavigation(request: FastifyRequest): boolean {
  const mode = request.headers['sec-fetch-mode'];
  if (mode !== undefined) return mode === 'navigate';
  return /^\s*text\/html/i.test(request.headers.accept ?? '');
}
