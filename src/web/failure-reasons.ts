/** The reasons a driver picks from when a stop fails, in the words the page shows (the codes are the service's). */
import type { FailureReasonCode } from './types.js';

export const FAILURE_REASONS: Readonly<Record<FailureReasonCode, string>> = {
  not_at_home: 'Not at home',
  refused: 'Refused',
  address_not_found: 'Address not found',
  damaged: 'Damaged',
  other: 'Other',
};

/** "Not at home", "Not at home — left a note", or the text alone for Other and for a report from before the list. */
export function failureText(code: FailureReasonCode | undefined, text: string | undefined): string {
  const label = code !== undefined && code !== 'other' ? FAILURE_REASONS[code] : undefined;
  return [label, text].filter((part) => part !== undefined && part !== '').join(' — ');
}
