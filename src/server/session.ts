/**
 * Browser sessions (decisions.md, "The web application"). Signing in with an API key gives the
 * browser a random token in an HttpOnly cookie; the store keeps only the token's SHA-256 as the
 * record id, so a copy of the data directory cannot be replayed as a cookie, and never the key.
 * Each session carries its own CSRF token, which the page reads from GET /session.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { JsonStore } from './store.js';

export const SESSION_COOKIE = 'routeplan_session';

export const DEFAULT_SESSION_TTL_HOURS = 12;

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

/** The record in the `sessions` collection. */
interface StoredSession {
  owner: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
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
  private readonly sessions = new Map<string, StoredSession>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: JsonStore,
    readonly ttlMs: number,
    private readonly log: (event: Record<string, unknown>) => void,
  ) {}

  /** Loads the stored sessions, drops the expired ones and starts the periodic sweep. */
  async recover(): Promise<number> {
    const { records, unreadable } = await this.store.readAll<StoredSession & { id?: string }>('sessions');
    for (const bad of unreadable) this.log({ event: 'unreadable_record', file: bad.file, reason: bad.reason });
    for (const stored of records) {
      if (typeof stored.id === 'string') this.sessions.set(stored.id, stored);
    }
    await this.sweep();
    this.sweeper = setInterval(() => void this.sweep().catch(() => undefined), Math.min(SWEEP_INTERVAL_MS, this.ttlMs));
    this.sweeper.unref();
    return this.sessions.size;
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
    const id = idOf(token);
    await this.store.write('sessions', id, { id, ...stored });
    this.sessions.set(id, stored);
    return { token, session: sessionOf(stored) };
  }

  /** The live session of a cookie token; null for an unknown, ended or expired one. */
  find(token: string | undefined): Session | null {
    if (token === undefined || !TOKEN_SHAPE.test(token)) return null;
    const id = idOf(token);
    const stored = this.sessions.get(id);
    if (!stored) return null;
    if (Date.parse(stored.expires_at) <= Date.now()) {
      void this.forget(id).catch(() => undefined);
      return null;
    }
    return sessionOf(stored);
  }

  /** Ends the session of a cookie token (signing out); an unknown token is fine. */
  async end(token: string | undefined): Promise<void> {
    if (token === undefined || !TOKEN_SHAPE.test(token)) return;
    await this.forget(idOf(token));
  }

  /** Removes every expired session; answers how many. */
  async sweep(): Promise<number> {
    const now = Date.now();
    const expired = [...this.sessions].filter(([, stored]) => Date.parse(stored.expires_at) <= now).map(([id]) => id);
    for (const id of expired) await this.forget(id);
    if (expired.length > 0) this.log({ event: 'sessions_swept', count: expired.length });
    return expired.length;
  }

  private async forget(id: string): Promise<void> {
    if (!this.sessions.delete(id)) return;
    await this.store.remove('sessions', id);
  }
}
