/**
 * When a failed delivery is tried again: growing waits (doubling from the first, up to the longest),
 * each spread by ±25 % at random so that many deliveries failed together (a receiver down) are not
 * tried again all at the same moment; and never after the window counted from the event.
 */
export interface RetrySchedule {
  firstWaitMs: number;
  longestWaitMs: number;
  /** How long after the event it is still tried (24 h). */
  windowMs: number;
  /** How long one attempt may wait for an answer. */
  timeoutMs: number;
  /** How long an attempt holds its delivery against other processes: longer than an attempt may take. */
  leaseMs: number;
}

export const RETRY_SCHEDULE: RetrySchedule = {
  firstWaitMs: 5_000,
  longestWaitMs: 3_600_000,
  windowMs: 24 * 3_600_000,
  timeoutMs: 10_000,
  leaseMs: 15_000,
};

/** The wait after the `attempts`-th failed attempt (1 for the first); `random` in [0, 1). */
export function waitAfter(attempts: number, schedule: RetrySchedule, random: number): number {
  const growing = Math.min(schedule.longestWaitMs, schedule.firstWaitMs * 2 ** Math.min(attempts - 1, 30));
  return Math.round(growing * (0.75 + 0.5 * random));
}

/** When to try again after the `attempts`-th failure, or null when that falls past the window: the delivery is given up. */
export function nextAttemptAt(createdAt: string, attempts: number, now: Date, schedule: RetrySchedule, random: number): Date | null {
  const next = now.getTime() + waitAfter(attempts, schedule, random);
  return next > Date.parse(createdAt) + schedule.windowMs ? null : new Date(next);
}
