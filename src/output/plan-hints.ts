/** The fix hints of an unserved stop as the JSON plan reports them (plan-types.ts `PlanHint`). */
import { SCALAR_DIMENSION, type Problem } from '../model/problem.js';
import { formatClock } from '../model/time.js';
import type { UnservedHint } from '../solver/types.js';
import type { PlanHint } from './plan-types.js';

export function planHint(problem: Problem, hint: UnservedHint): PlanHint {
  const out: PlanHint = { kind: hint.kind, text: hint.text, driver: problem.vehicles[hint.vehicle]?.name ?? '' };
  const seconds = (value: number): number => value / problem.units.timePerSecond;
  switch (hint.kind) {
    case 'window_end_later':
    case 'window_start_earlier':
      return { ...out, minutes: hint.amount, window: hint.window ?? 0, ...timeOf(seconds(hint.value ?? 0)) };
    case 'shift_end_later':
      return { ...out, minutes: hint.amount, ...timeOf(seconds(hint.value ?? 0)) };
    case 'duration_shorter':
      return { ...out, minutes: hint.amount, duration_s: seconds(hint.value ?? 0) };
    case 'driver_capacity': {
      const dimension = problem.dimensions[hint.dimension ?? 0] ?? SCALAR_DIMENSION;
      return { ...out, amount: hint.amount, capacity: hint.value ?? 0, ...(dimension === SCALAR_DIMENSION ? {} : { dimension }) };
    }
    case 'driver_type':
      return { ...out, type: hint.label ?? '' };
  }
}

function timeOf(seconds: number): Pick<PlanHint, 'time_s' | 'time'> {
  return { time_s: seconds, time: formatClock(seconds) };
}
