/**
 * Browser sessions (decisions.md, "The web application"). Signing in with an API key gives the
 * browser a random token in an HttpOnly cookie; the store keeps only the token's SHA-256 as the
 * record id, so a copy of the data directory cannot be replayed as a cookie, and never the key.
 * Each session carries its own CSRF token, which the page reads from GET /session.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SessionStore, StoredSession } from '../store/ports.js';

export const SESSION_COOKIE = 'routeplan_session';

/** Expired sessions are refused at once; the sweep only reclaims their records. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** 32 random bytes in base64url, as the cookie carries them. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface Session {
  owner: string;
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function idOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function sessionOf(stored: StoredSession): Session {
  return { owner: stored.owner, csrfToken: stored.csrf_token, createdAt: stored.created_at, expiresAt: stored.expires_at };
}

export class SessionService {
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: SessionStore,
    readonly ttlMs: number,
    private readonly log: (event: Record<string, unknown>) => void,
  ) {}

  /** Drops the expired sessions and starts the periodic sweep. */
  async start(): Promise<void> {
    await this.sweep();
    this.sweeper = setInterval(() => void this.sweep().catch(() => undefined), Math.min(SWEEP_INTERVAL_MS, this.ttlMs));
    this.sweeper.unref();
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  /** A new session for `owner`: its token (for the cookie, never stored) and the session. */
  async create(owner: string): Promise<{ token: string; session: Session }> {
    const token = newToken();
    const now = Date.now();
    const stored: StoredSession = {
      owner,
      csrf_token: newToken(),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.ttlMs).toISOString(),
    };
    await this.store.save(idOf(token), stored);
    return { token, session: sessionOf(stored) };
  }

  /** The live session of a cookie token; null for an unknown, ended or expired one. */
  async find(token: string | undefined): Promise<Session | null> {
    if (token === undefined || !TOKEN_SHAPE.test(token)) return null;
    const id = idOf(token);
    const stored = await this.store.load(id);
    if (!stored) return null;
    if (Date.parse(stored.expires_at) <= Date.now()) {
      void this.store.remove(id).catch(() => undefined);
      return null;
    }
    return sessionOf(stored);
  }

  /** Ends the session of a cookie token (signing out); an unknown token is fine. */
  async end(token: string | undefined): Promise<void> {
    if (token === undefined || !TOKEN_SHAPE.test(token)) return;
    await this.store.remove(idOf(token));
  }

  /** Removes every expired session; answers how many. */
  async sweep(): Promise<number> {
    const count = await this.store.removeExpired(new Date());
    if (count > 0) this.log({ event: 'sessions_swept', count });
    return count;
  }
}
