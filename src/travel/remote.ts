/**
 * Calling a routing provider over HTTP: one request's time limit, retries with backoff on 429, 5xx
 * and network errors (honouring Retry-After), and a RoutingError naming the provider and the cause
 * when it still fails. What a provider answers is its own file's business.
 */
import { RoutingError } from '../errors.js';

export interface RemoteCall {
  /** The provider, for messages ("OSRM", "Valhalla"). */
  provider: string;
  url: string;
  init?: { method: 'GET' | 'POST'; body?: string; headers?: Record<string, string> };
  timeoutMs: number;
  /** Attempts after the first one. */
  retries: number;
  /** The first backoff; each next one doubles (with jitter). */
  retryDelayMs: number;
  signal?: AbortSignal;
}

/** A reply the provider gave: its status and parsed JSON body (null when not JSON). */
export interface RemoteReply {
  status: number;
  body: unknown;
}

/** Retry-After is honoured up to this; a provider asking for longer is treated as down. */
const MAX_RETRY_AFTER_MS = 60_000;

export async function callProvider(call: RemoteCall): Promise<RemoteReply> {
  let lastFailure = '';
  for (let attempt = 0; attempt <= call.retries; attempt++) {
    if (attempt > 0) await pause(backoffMs(call.retryDelayMs, attempt), call.signal);
    const outcome = await attemptOnce(call);
    if ('reply' in outcome) {
      if (!isTransient(outcome.reply.status)) return outcome.reply;
      lastFailure = `HTTP ${outcome.reply.status}${detailOf(outcome.reply.body)}`;
      const wait = outcome.retryAfterMs;
      if (wait !== null && attempt < call.retries) {
        if (wait > MAX_RETRY_AFTER_MS) break;
        await pause(wait, call.signal);
      }
    } else {
      lastFailure = outcome.failure;
    }
  }
  throw new RoutingError(
    `${call.provider} at ${redactUrl(call.url)} failed after ${call.retries + 1} attempts: ${lastFailure}`,
    'routing_failed',
    [{ path: 'travel', message: lastFailure }],
  );
}

type Attempt = { reply: RemoteReply; retryAfterMs: number | null } | { failure: string };

async function attemptOnce(call: RemoteCall): Promise<Attempt> {
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
  try {
    const response = await fetch(call.url, {
      method: call.init?.method ?? 'GET',
      headers: { accept: 'application/json', ...(call.init?.headers ?? {}) },
      ...(call.init?.body !== undefined ? { body: call.init.body } : {}),
      signal,
    });
    const text = await response.text();
    return { reply: { status: response.status, body: parseJson(text) }, retryAfterMs: retryAfterMs(response.headers.get('retry-after')) };
  } catch (error) {
    if (call.signal?.aborted) throw call.signal.reason ?? error;
    if (timeout.aborted) return { failure: `no answer within ${Math.round(call.timeoutMs / 1000)} s` };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { failure: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}

function isTransient(status: number): boolean {
  return status === 429 || status >= 500;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** What a provider said about its failure, when it said something (OSRM's and Valhalla's `message`/`error`). */
function detailOf(body: unknown): string {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const message = record.message ?? record.error;
  return typeof message === 'string' && message !== '' ? `: ${message.slice(0, 200)}` : '';
}

/** Seconds, or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

function backoffMs(firstMs: number, attempt: number): number {
  const base = firstMs * 2 ** (attempt - 1);
  return base / 2 + Math.random() * (base / 2);
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted(): void {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** A URL as messages show it: without credentials or query (which may carry an API key). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.length > 60 ? `${parsed.pathname.slice(0, 60)}…` : parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
