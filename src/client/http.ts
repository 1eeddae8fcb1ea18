/**
 * A small JSON client for the routeplan service (or any service with the same interface):
 * Bearer auth, bounded retries with exponential backoff and jitter, Retry-After honoured, and
 * every failure turned into a RouteplanError with the exit code of decisions.md. The API key is
 * only ever put in the Authorization header, never in a message.
 */
import { AuthError, InputError, RoutingError, type ErrorBody } from '../errors.js';
import { serviceUrl } from '../config/parse.js';

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** Retries of one request on 429, 5xx and network errors (default 5). */
  maxRetries?: number;
  /** One request's own time bound in ms (default 30 s). */
  requestTimeoutMs?: number;
  /** Injected for tests; default global fetch, setTimeout-based sleep, Math.random, Date.now. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** Progress notes (retries), for stderr. */
  note?: (message: string) => void;
}

export interface RequestOptions {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /**
   * Whether sending twice is harmless. A POST is only retried when the service cannot have
   * accepted it (429, 503, connection refused), so a retry never creates a duplicate; a POST with
   * an `idempotencyKey` is harmless to repeat, so its caller marks it idempotent.
   */
  idempotent: boolean;
  /** Sent as `Idempotency-Key`, the same on every retry, so the service answers a repeat with its first result. */
  idempotencyKey?: string;
  /** Absolute time (ms, `now()` clock) after which no retry is started. */
  deadline?: number;
}

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 10_000;

/** Full-range exponential backoff with "equal jitter": half fixed, half random, so clients spread out. */
export function backoffDelayMs(attempt: number, random: () => number, baseMs = BACKOFF_BASE_MS, capMs = BACKOFF_CAP_MS): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfterMs(header: string | null, now: number): number | null {
  if (header === null || header.trim() === '') return null;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** A 2xx answer: its parsed JSON body and its headers (e.g. `Idempotent-Replayed`). */
export interface ServiceAnswer<T> {
  body: T;
  headers: Headers;
}

type AttemptOutcome =
  { kind: 'ok'; body: unknown; headers: Headers } | { kind: 'retry' | 'fail'; error: Error; retryAfterMs?: number | null };

export class ServiceClient {
  readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly maxRetries: number;
  private readonly requestTimeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  readonly now: () => number;
  private readonly note: (message: string) => void;

  constructor(options: ClientOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.apiKey = options.apiKey;
    this.maxRetries = options.maxRetries ?? 5;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.fetchImpl = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.note = options.note ?? (() => undefined);
  }

  /** Sends one request, retrying what may be retried; returns the parsed JSON body of a 2xx answer. */
  async request<T>(options: RequestOptions): Promise<T> {
    return (await this.exchange<T>(options)).body;
  }

  /** As `request`, with the answer's headers too. */
  async exchange<T>(options: RequestOptions): Promise<ServiceAnswer<T>> {
    for (let attempt = 0; ; attempt += 1) {
      const outcome = await this.attempt(options);
      if (outcome.kind === 'ok') return { body: outcome.body as T, headers: outcome.headers };
      const retryable = outcome.kind === 'retry' && attempt < this.maxRetries;
      const delay = outcome.kind === 'retry' ? (outcome.retryAfterMs ?? backoffDelayMs(attempt, this.random)) : 0;
      const pastDeadline = options.deadline !== undefined && this.now() + delay > options.deadline;
      if (!retryable || pastDeadline) throw outcome.error;
      this.note(`${outcome.error.message}; retrying in ${(delay / 1000).toFixed(1)} s (${attempt + 1}/${this.maxRetries})`);
      await this.sleep(delay);
    }
  }

  private async attempt(options: RequestOptions): Promise<AttemptOutcome> {
    const url = `${this.baseUrl}${options.path}`;
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method: options.method,
        headers: this.headers(options),
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        signal: AbortSignal.timeout(this.requestTimeoutMs),
      });
    } catch (error) {
      const reason = networkReason(error);
      const failure = new RoutingError(`cannot reach the service at ${this.baseUrl} (${reason.text})`, 'remote_unreachable', [], {
        cause: error,
      });
      return { kind: options.idempotent || reason.neverSent ? 'retry' : 'fail', error: failure };
    }
    const text = await response.text().catch(() => '');
    if (response.ok) return this.parsedBody(text, response);
    const error =
      response.status === 401 && !this.apiKey
        ? noApiKey()
        : errorForStatus(response.status, parseErrorBody(text), `${options.method} ${options.path}`);
    const retryAfterMs = parseRetryAfterMs(response.headers.get('retry-after'), this.now());
    return { kind: isRetryableStatus(response.status, options.idempotent) ? 'retry' : 'fail', error, retryAfterMs };
  }

  private parsedBody(text: string, response: Response): AttemptOutcome {
    const status = response.status;
    try {
      return { kind: 'ok', body: JSON.parse(text) as unknown, headers: response.headers };
    } catch (error) {
      return {
        kind: 'fail',
        error: new RoutingError(`the service answered ${status} with a body that is not JSON`, 'remote_bad_response', [], { cause: error }),
      };
    }
  }

  private headers(options: RequestOptions): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    return headers;
  }
}

const parseServiceUrl = serviceUrl('http://127.0.0.1:8080');

function normalizeBaseUrl(baseUrl: string): string {
  const parsed = parseServiceUrl(baseUrl);
  if (parsed.ok) return parsed.value;
  throw new InputError(`invalid service URL: ${parsed.problem}`, [{ path: '--remote', message: parsed.problem }], undefined, {
    cause: parsed.cause,
  });
}

function isRetryableStatus(status: number, idempotent: boolean): boolean {
  if (status === 429 || status === 503) return true;
  return idempotent && (status === 500 || status === 502 || status === 504);
}

/** Whether the request surely never reached the service (so even a POST may be sent again). */
function networkReason(error: unknown): { text: string; neverSent: boolean } {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code;
  if ((error as Error)?.name === 'TimeoutError') return { text: 'request timed out', neverSent: false };
  const neverSent = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
  return { text: code ?? cause?.message ?? (error as Error)?.message ?? 'network error', neverSent };
}

function parseErrorBody(text: string): ErrorBody['error'] | null {
  try {
    const parsed = JSON.parse(text) as Partial<ErrorBody>;
    const error = parsed?.error;
    if (error && typeof error.message === 'string') {
      return {
        code: typeof error.code === 'string' ? error.code : 'remote_error',
        message: error.message,
        details: Array.isArray(error.details) ? error.details : [],
      };
    }
  } catch {
    // Not our error shape (a proxy's HTML page, say); the status alone describes it.
  }
  return null;
}

/** The service wants a key and none was configured: say where a key goes, in routeplan's own terms. */
function noApiKey(): AuthError {
  return new AuthError(
    'the service needs an API key and none is configured: pass --api-key-file <file> (a file holding the key), set ROUTEPLAN_API_KEY, or put api_key in routeplan.config.yaml',
  );
}

/**
 * The key was used before for another request: only the caller can fix that (a new key for a new
 * request, or the old request for the old key), so it is invalid input, not a service failure.
 */
function idempotencyConflict(body: ErrorBody['error']): InputError {
  return new InputError(
    'the service already used this idempotency key for a different request; a new problem needs a new --idempotency-key (or none: submit picks a fresh one)',
    body.details,
    'idempotency_conflict',
  );
}

/** 400 and an idempotency conflict → invalid input (exit 2), 401/403 → auth (exit 4), anything else → remote failure (exit 3). */
function errorForStatus(status: number, body: ErrorBody['error'] | null, what: string): Error {
  const said = body ? `: ${body.message}` : '';
  if (status === 401 || status === 403) {
    return new AuthError(`the service rejected the API key (${status})${said}`);
  }
  if (status === 400 || status === 413 || status === 415) {
    return new InputError(`the service rejected the request (${status})${said}`, body?.details ?? [], body?.code ?? 'invalid_input');
  }
  if (status === 409 && body?.code === 'idempotency_conflict') return idempotencyConflict(body);
  if (status === 404) return new RoutingError(`not found on the service (${what})${said}`, 'not_found', body?.details ?? []);
  return new RoutingError(`the service answered ${status} to ${what}${said}`, body?.code ?? 'remote_error', body?.details ?? []);
}
