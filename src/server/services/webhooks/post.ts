/**
 * One attempt to deliver an event to one URL: a JSON POST, signed, with a time-out; no redirect is
 * followed (a receiver that moved is told in the configuration, not by a 3xx); the answer's body is
 * dropped unread. A 2xx answer is a delivery; 410 Gone means the receiver wants no more of it.
 */
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signatureOf } from './signature.js';

export type AttemptOutcome = { kind: 'delivered'; status: number } | { kind: 'gone'; status: 410 } | { kind: 'failed'; error: string };

export interface Attempt {
  url: string;
  body: string;
  eventId: string;
  eventType: string;
  secret: string;
  now: Date;
  timeoutMs: number;
  userAgent: string;
  /** Cuts the attempt short (the service stopping). */
  stop: AbortSignal;
}

export async function postEvent(attempt: Attempt): Promise<AttemptOutcome> {
  const t = Math.floor(attempt.now.getTime() / 1000);
  let response: Response;
  try {
    response = await fetch(attempt.url, {
      method: 'POST',
      body: attempt.body,
      redirect: 'manual',
      signal: AbortSignal.any([AbortSignal.timeout(attempt.timeoutMs), attempt.stop]),
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': attempt.userAgent,
        [SIGNATURE_HEADER]: signatureOf(attempt.secret, t, attempt.body),
        [EVENT_ID_HEADER]: attempt.eventId,
        [EVENT_TYPE_HEADER]: attempt.eventType,
      },
    });
  } catch (error) {
    return { kind: 'failed', error: networkError(error, attempt.timeoutMs) };
  }
  // Dropped, not read: a receiver's answer says nothing more than its status, and may be large.
  await response.body?.cancel().catch(() => undefined);
  if (response.status >= 200 && response.status < 300) return { kind: 'delivered', status: response.status };
  if (response.status === 410) return { kind: 'gone', status: 410 };
  return { kind: 'failed', error: `HTTP ${response.status}` };
}

/** The cause in a few words, without the URL (which may carry a token of the receiver's). */
function networkError(error: unknown, timeoutMs: number): string {
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return (cause?.code ?? cause?.message ?? (error as Error).message).slice(0, 200);
}
