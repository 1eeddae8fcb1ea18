/**
 * The webhook signature, as Stripe signs its events: `Routeplan-Signature: t=<unix seconds>,v1=<hex>`
 * where the hex is HMAC-SHA256 with the shared secret over `<t>.<raw body>`. The time is signed
 * with the body, so a receiver that refuses old times (five minutes is usual) cannot be sent an
 * old request again; each attempt is signed anew.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Routeplan-Signature';
export const EVENT_ID_HEADER = 'Routeplan-Event-Id';
export const EVENT_TYPE_HEADER = 'Routeplan-Event-Type';

export function signatureOf(secret: string, unixSeconds: number, body: string): string {
  const hex = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${hex}`;
}

/**
 * What a receiver checks (tests use it as receivers would): the header's time within `toleranceS`
 * of `now` and one of its v1 signatures the body's. The comparison takes the same time wherever
 * the two differ.
 */
export function verifySignature(secret: string, header: string, body: string, now: Date, toleranceS = 300): boolean {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const t = Number(parts.find(([name]) => name === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(now.getTime() / 1000 - t) > toleranceS) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  return parts
    .filter(([name]) => name === 'v1')
    .some(([, hex]) => hex !== undefined && hex.length === expected.length && timingSafeEqual(Buffer.from(hex), expected));
}
