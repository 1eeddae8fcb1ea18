/**
 * Who is calling: an API key (`Authorization: Bearer`, exactly as before the web application, and
 * winning when present) or the browser's session cookie. A cookie travels with every request the
 * browser makes, so a cookie-authenticated change must also prove it comes from our own page: the
 * session's CSRF token in `X-CSRF-Token`, and an `Origin`, when the browser sends one, that is ours.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './replies.js';
import { OPEN_ACCESS_OWNER, type KeyRing } from './auth.js';
import { SESSION_COOKIE, type Session, type SessionService } from '../services/sessions.js';

const CSRF_HEADER = 'x-csrf-token';

export class Access {
  constructor(
    private readonly keys: KeyRing,
    private readonly sessions: SessionService,
    /** The service's own origin (from --public-url, else the bound URL); known once listening. */
    private readonly ownOrigin: () => string,
  ) {}

  get openAccess(): boolean {
    return this.keys.size === 0;
  }

  /** The owner of a JSON API call; throws the 401 or 403 HttpError. */
  apiOwner(request: FastifyRequest): string {
    const authorization = request.headers.authorization;
    if (authorization !== undefined) return this.keys.authenticate(authorization);
    const session = this.session(request);
    if (session) {
      if (!isSafeMethod(request.method)) this.checkCsrf(request, session, csrfHeaderOf(request));
      return session.owner;
    }
    if (this.openAccess) return OPEN_ACCESS_OWNER;
    if (request.cookies[SESSION_COOKIE] !== undefined) throw sessionEnded();
    return this.keys.authenticate(undefined);
  }

  /**
   * Throws the 401 of a caller with neither a valid key nor a session (before a route says which
   * methods it has, so an unauthenticated client cannot map the API); no CSRF check yet.
   */
  requireCaller(request: FastifyRequest): void {
    const authorization = request.headers.authorization;
    if (authorization !== undefined) {
      this.keys.authenticate(authorization);
      return;
    }
    if (this.session(request) || this.openAccess) return;
    if (request.cookies[SESSION_COOKIE] !== undefined) throw sessionEnded();
    this.keys.authenticate(undefined);
  }

  /** Looks up the request's session once, before its route runs (the store may be another machine's). */
  async resolveSession(request: FastifyRequest): Promise<void> {
    request.session = await this.sessions.find(request.cookies[SESSION_COOKIE]);
  }

  /** The live session of the request's cookie, or null. */
  session(request: FastifyRequest): Session | null {
    return request.session;
  }

  /** The owner of an API key typed into the sign-in form; null when it is not a key of ours. */
  ownerOfKey(key: string): string | null {
    if (this.openAccess) return OPEN_ACCESS_OWNER;
    if (key.trim() === '' || /\s/.test(key)) return null;
    try {
      return this.keys.authenticate(`Bearer ${key}`);
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) return null;
      throw error;
    }
  }

  /** A state-changing request under a session: its CSRF token must match, its Origin must be ours. */
  checkCsrf(request: FastifyRequest, session: Session, token: string | undefined): void {
    this.checkOrigin(request);
    if (token === undefined || token === '') {
      throw csrfFailed('missing CSRF token: send the X-CSRF-Token header with the csrfToken of GET /session');
    }
    if (!sameSecret(token, session.csrfToken)) throw csrfFailed('the CSRF token does not match the session');
  }

  /**
   * The Origin header, when present, must be the service's own: its public URL's origin, or the
   * host the browser addressed (the service may be reached as localhost or 127.0.0.1 alike; a
   * cross-site page cannot choose the Host its request carries).
   */
  checkOrigin(request: FastifyRequest): void {
    const origin = headerOf(request, 'origin');
    if (origin === undefined) return;
    if (origin === this.ownOrigin() || hostOf(origin) === request.headers.host) return;
    throw csrfFailed(`the request comes from another origin (${origin.slice(0, 200)})`);
  }
}

function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/** The CSRF token a page sent in its X-CSRF-Token header, if any. */
export function csrfHeaderOf(request: FastifyRequest): string | undefined {
  return headerOf(request, CSRF_HEADER);
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function csrfFailed(message: string): HttpError {
  return new HttpError(403, 'csrf_failed', message);
}

export function sessionEnded(): HttpError {
  return new HttpError(401, 'unauthorized', 'the session has ended or expired: sign in again at /');
}

export function noSession(): HttpError {
  return new HttpError(401, 'unauthorized', 'not signed in: sign in at / (or send "Authorization: Bearer <key>" to the API)');
}
