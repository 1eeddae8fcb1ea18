/** Helpers both surface converters use. */
import type { Warning } from '../errors.js';
import { minutesToSeconds, parseClock } from '../model/time.js';
import type { PathNamer } from './paths.js';
import { DEFAULT_PRIORITY, PRIORITY_WORDS, SPEED_FACTORS } from './schema/fields.js';

/** Collects the warnings of the conversion (rounding, several locations, …) at their user paths. */
export class ConversionLog {
  readonly warnings: Warning[] = [];
  constructor(readonly namer: PathNamer) {}

  warn(path: PropertyKey[], message: string): void {
    this.warnings.push({ path: this.namer.nameForWarning(path), message });
  }
}

/** A validated clock string → seconds since midnight. */
export function clockSeconds(text: string | null | undefined): number | null {
  if (text == null) return null;
  return parseClock(text);
}

/** Minutes → seconds; a value that is not a whole number of seconds is rounded, with a warning. */
export function durationSeconds(minutes: number, path: PropertyKey[], log: ConversionLog): number {
  const seconds = minutesToSeconds(minutes);
  if (Math.abs(minutes * 60 - seconds) > 1e-6) {
    log.warn(path, `${minutes} minutes is not a whole number of seconds; rounded to ${seconds} s`);
  }
  return seconds;
}

export function speedFactor(speed: string | number | null | undefined): number {
  if (speed == null) return 1;
  return typeof speed === 'number' ? speed : SPEED_FACTORS[speed]!;
}

export function priorityNumber(priority: string | number | null | undefined): number {
  if (priority == null) return DEFAULT_PRIORITY;
  return typeof priority === 'number' ? priority : PRIORITY_WORDS[priority]!;
}

/** Types/tags: a single string is one label; blanks and duplicates are dropped. */
export function labelList(value: string | string[] | null | undefined): string[] {
  if (value == null) return [];
  const list = typeof value === 'string' ? [value] : value;
  return [...new Set(list.map((label) => label.trim()).filter((label) => label !== ''))];
}

/** Copies the given fields that are present, unchanged. */
/**
 * The fields carried through unchanged, copied: the problem is frozen, and freezing must never
 * reach into the caller's document (a `custom_notes` object the caller goes on using).
 */
export function pick(source: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (source[field] !== undefined && source[field] !== null) out[field] = structuredClone(source[field]);
  return out;
}
