/**
 * What an `Idempotency-Key` may be, in one place for the service (which refuses a bad header) and
 * the CLI (which refuses a bad `--idempotency-key` before sending anything).
 */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** 1 to 255 visible ASCII characters; inner spaces are allowed, but not at either end (HTTP would trim them). */
export function isValidIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= MAX_IDEMPOTENCY_KEY_LENGTH && /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(key);
}
