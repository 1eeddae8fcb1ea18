/**
 * Field schemas shared by both surfaces. Every message says what was given and what is
 * allowed, in the user's terms (e.g. `"urgent" is not allowed; use low, regular, high or an
 * integer 1–10000`); the path is added by the caller.
 */
import { z } from 'zod';
import { parseClock } from '../../model/time.js';
import { show } from '../paths.js';

/** Error option for a zod schema: "missing; give X" or "<value> is not allowed; use X". */
export function allowed(description: string) {
  return {
    error: (issue: { input?: unknown }) =>
      issue.input === undefined ? `missing; give ${description}` : `${show(issue.input)} is not allowed; use ${description}`,
  };
}

export const SPEED_FACTORS: Readonly<Record<string, number>> = {
  faster: 1.5,
  fast: 1.25,
  normal: 1,
  slow: 0.75,
  'very slow': 0.5,
  bike: 0.4,
};

export const PRIORITY_WORDS: Readonly<Record<string, number>> = { low: 1, regular: 5, high: 10 };
export const DEFAULT_PRIORITY = PRIORITY_WORDS.regular!;

const CLOCK_ALLOWED = 'a clock time HH:mm (e.g. 08:30), H:mm or HH:mm:ss; the next day goes on past 24:00 (25:30)';
// The words of each error say what is allowed; the OpenAPI document's descriptions say the same (`meta`).
export const clock = z
  .string(allowed(CLOCK_ALLOWED))
  .refine((text) => parseClock(text) !== null, allowed(CLOCK_ALLOWED))
  .meta({ description: CLOCK_ALLOWED });

const DATE_ALLOWED = 'a real date as YYYY-MM-DD (e.g. 2024-05-14)';
function isRealDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
export const isoDate = z.string(allowed(DATE_ALLOWED)).refine(isRealDate, allowed(DATE_ALLOWED)).meta({ description: DATE_ALLOWED });

function nonNegative(description: string) {
  const message = allowed(description);
  return z.number(message).min(0, message);
}

export const minutes = nonNegative('a number of minutes ≥ 0 (fractions allowed)');

export const flag = z.boolean(allowed('true or false'));

export const text = (description = 'a text') => z.string(allowed(description));
/** Names are kept exactly as given (a plan says what the user wrote); only an all-blank one is refused. */
export const name = z.string(allowed('a non-empty name')).refine((value) => value.trim() !== '', allowed('a non-empty name'));

const LAT_ALLOWED = 'a latitude from -90 to 90';
const LNG_ALLOWED = 'a longitude from -180 to 180';
export const latitude = z.number(allowed(LAT_ALLOWED)).min(-90, allowed(LAT_ALLOWED)).max(90, allowed(LAT_ALLOWED));
export const longitude = z.number(allowed(LNG_ALLOWED)).min(-180, allowed(LNG_ALLOWED)).max(180, allowed(LNG_ALLOWED));

const PRIORITY_ALLOWED = 'low, regular, high or an integer 1–10000';
export const priority = z
  .union([z.string(), z.number()], allowed(PRIORITY_ALLOWED))
  .refine(
    (value) => (typeof value === 'string' ? value in PRIORITY_WORDS : Number.isInteger(value) && value >= 1 && value <= 10000),
    allowed(PRIORITY_ALLOWED),
  )
  .meta({ description: PRIORITY_ALLOWED });

const SPEED_ALLOWED = 'faster, fast, normal, slow, very slow, bike or a number from 0.1 to 2';
export const speed = z
  .union([z.string(), z.number()], allowed(SPEED_ALLOWED))
  .refine((value) => (typeof value === 'string' ? value in SPEED_FACTORS : value >= 0.1 && value <= 2), allowed(SPEED_ALLOWED))
  .meta({ description: SPEED_ALLOWED });

const LOAD_ALLOWED = 'a number ≥ 0 or an object of named numbers ≥ 0 (e.g. {weight: 12, volume: 0.4})';
/** Load and capacity: a number (the scalar dimension) or an object of named dimensions. */
export const loadValue = z.union(
  [
    nonNegative(LOAD_ALLOWED),
    z.record(z.string(), nonNegative('a number ≥ 0')).refine((dimensions) => !Object.keys(dimensions).some((key) => key.trim() === ''), {
      message: 'a dimension with an empty name is not allowed; name each dimension (e.g. {weight: 12})',
    }),
  ],
  allowed(LOAD_ALLOWED),
);

/**
 * An empty window (`{}`) is almost surely a mistake: it would allow any time and so make the
 * stop's other windows meaningless.
 */
export function windowHasAnEnd(startKey: string, endKey: string) {
  return {
    message: `has neither ${startKey} nor ${endKey}; give at least one (HH:mm), or remove the window`,
    when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
  };
}

const LABELS_ALLOWED = 'a name or a list of names';
/** A single name is a list of one, so an element error can point at its position (`tags[1]`). */
export const labels = z.preprocess(
  (value) => (typeof value === 'string' ? [value] : value),
  z.array(z.string(allowed('a name')), allowed(LABELS_ALLOWED)),
);

const PHONE_ALLOWED = 'an international number with a leading + and country code (e.g. +33 4 72 00 00 00)';
function isInternationalPhone(value: string): boolean {
  return /^\+[1-9]\d{6,14}$/.test(value.replace(/[\s\-.()]/g, ''));
}
export const phone = z
  .string(allowed(PHONE_ALLOWED))
  .refine(isInternationalPhone, allowed(PHONE_ALLOWED))
  .meta({ description: PHONE_ALLOWED });

const EMAIL_ALLOWED = 'an e-mail address (e.g. name@example.com)';
export const email = z
  .string(allowed(EMAIL_ALLOWED))
  .refine((value) => /^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(value.trim()), allowed(EMAIL_ALLOWED));

/** Optional fields accept JSON `null` as "not given". */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish();
}

export const freeObject = z.record(z.string(), z.unknown(), allowed('an object'));
