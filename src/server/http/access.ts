/**
 * Who is calling: an API key (`Authorization: Bearer`, exactly as before the web application, and
 * winning when present) or the browser's session cookie. A cookie travels with every request the
 * browser makes, so a cookie-authenticated change must also prove it comes from our own page: the
 * session's CSRF token in `X-CSRF-Token`, and an `Origin`, when the browser sends one, that is ours.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './replies.js';
import { OPEN_ACCESS_OWNER, bearerToken, isLoopbackHost, type KeyRing } from './auth.js';
import type { GuessLimiter } from './guess-limit.js';
import { SESSION_COOKIE, type Session, type SessionService } from '../services/sessions.js';

const CSRF_HEADER = 'x-csrf-token';

export class Access {
  constructor(
    private readonly keys: KeyRing,
    private readonly sessions: SessionService,
    /** The service's own origin (from --public-url, else the bound URL); known once listening. */
    private readonly ownOrigin: () => string,
    /** Wrong keys count against the caller's address (guess-limit.ts). */
    private readonly guesses: GuessLimiter,
  ) {}

  get openAccess(): boolean {
    return this.keys.size === 0;
  }

  /** The owner of a JSON API call; throws the 401 or 403 HttpError. */
  apiOwner(request: FastifyRequest): string {
    const authorization = request.headers.authorization;
    if (authorization !== undefined) return this.authenticateKey(request, authorization);
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
      this.authenticateKey(request, authorization);
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

  /**
   * The owner of an API key typed into the sign-in form; null when it is not a key of ours (a wrong
   * one counts against the caller's address; 429 once that address has guessed too often).
   */
  ownerOfKey(request: FastifyRequest, key: string): string | null {
    if (this.openAccess) return OPEN_ACCESS_OWNER;
    this.guesses.refuseIfLimited(request.ip);
    if (key.trim() === '' || /\s/.test(key)) return null;
    try {
      return this.keys.authenticate(`Bearer ${key}`);
    } catch (error) {
      if (!isWrongKey(error)) throw error;
      this.guesses.fail(request.ip);
      return null;
    }
  }

  /** A Bearer key's check, under the guess limit: a key given that is not ours counts as a wrong guess. */
  private authenticateKey(request: FastifyRequest, authorization: string): string {
    const given = bearerToken(authorization) !== null;
    return this.guesses.attemptNow(
      request.ip,
      () => this.keys.authenticate(authorization),
      (error) => given && isWrongKey(error),
    );
  }

  /**
   * Open access (no keys, loopback only) trusts whoever reaches the port, and a web page whose DNS
   * name rebinds to 127.0.0.1 reaches it too: its requests then carry that name as their Host. So in
   * open access only a loopback Host (a name or an address) or the public URL's own host is answered
   * (421 otherwise). An HTTP/1.0 request without Host is answered: every browser sends one.
   */
  checkHost(request: FastifyRequest): void {
    const host = request.headers.host;
    if (host === undefined) {
      // HTTP/1.1 requires it (RFC 9112, 3.2): refused here, in the service's shape, rather than by Node.
      if (request.raw.httpVersion !== '1.0')
        throw new HttpError(400, 'bad_request', 'the request has no Host header', [{ path: 'Host', message: 'required' }]);
      return;
    }
    if (!this.openAccess) return;
    const name = hostnameOf(host);
    if ((name !== null && isLoopbackHost(name)) || host.toLowerCase() === hostOf(this.ownOrigin())) return;
    throw new HttpError(
      421,
      'misdirected_request',
      'without API keys the service answers only requests addressed to a loopback name (localhost, 127.0.0.1, [::1]) or its public URL',
      [{ path: 'Host', message: `${host.slice(0, 200)} is not a loopback name or address` }],
    );
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

function isWrongKey(error: unknown): boolean {
  return error instanceof HttpError && error.status === 401;
}

/** The name or address of a Host header (`[::1]:8080` → `[::1]`), or null when it is no host at all. */
function hostnameOf(host: string): string | null {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return null;
  }
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
