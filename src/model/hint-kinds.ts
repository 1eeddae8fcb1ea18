/**
 * The kinds of fix hint an unserved stop may carry (decisions.md "Unserved reasons"), one list for
 * the solver that finds them, the JSON plan that reports them and the pages that show them.
 */
export const HINT_KINDS = [
  'window_end_later',
  'window_start_earlier',
  'duration_shorter',
  'shift_end_later',
  'driver_capacity',
  'driver_type',
] as const;

export type UnservedHintKind = (typeof HINT_KINDS)[number];
