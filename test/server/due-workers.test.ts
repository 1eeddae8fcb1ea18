/**
 * The loop the webhook sender and the e-mail outbox share (src/server/services/due-workers.ts):
 * at most `max` workers at once, every due item taken exactly once, a failing store reported once
 * per cause, and the next look timed by the store's next due item.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DueWorkers, type DueWorkerSettings } from '../../src/server/services/due-workers.js';

const started: DueWorkers[] = [];
afterEach(async () => {
  for (const workers of started.splice(0)) await workers.close(100);
});

function workers(takeOne: ConstructorParameters<typeof DueWorkers>[0], settings: Partial<DueWorkerSettings> = {}): DueWorkers {
  const made = new DueWorkers(takeOne, {
    max: 3,
    pollMs: 60_000,
    now: () => new Date(),
    nextDue: () => Promise.resolve(null),
    failed: () => undefined,
    ...settings,
  });
  started.push(made);
  return made;
}

const tick = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('due workers', () => {
  it('at most max run at once, and every due item is taken exactly once', async () => {
    const due = Array.from({ length: 20 }, (_, i) => i);
    const taken: number[] = [];
    let running = 0;
    let most = 0;
    const pool = workers(async (took) => {
      const item = due.shift();
      if (item === undefined) return false;
      took();
      running++;
      most = Math.max(most, running);
      await tick();
      taken.push(item);
      running--;
      return true;
    });
    pool.pump();
    await expect.poll(() => taken.length, { timeout: 5_000 }).toBe(20);
    expect(most).toBe(3);
    expect([...taken].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('a store failing with the same cause is reported once until a look succeeds, then again', async () => {
    const failures: string[] = [];
    let failing = true;
    let looks = 0;
    let goodLooks = 0;
    const pool = workers(
      () => {
        looks++;
        if (failing) return Promise.reject(new Error('connection refused'));
        goodLooks++;
        return Promise.resolve(false);
      },
      { pollMs: 5, failed: (reason) => failures.push(reason) },
    );
    pool.pump();
    await expect.poll(() => looks, { timeout: 2_000 }).toBeGreaterThanOrEqual(5);
    expect(failures).toEqual(['connection refused']);
    failing = false;
    await expect.poll(() => goodLooks, { timeout: 2_000 }).toBeGreaterThan(0);
    failing = true;
    await expect.poll(() => failures.length, { timeout: 2_000 }).toBe(2);
  });

  it('the next look comes when the store says the next item is due, before the poll interval', async () => {
    let looks = 0;
    const dueAt = new Date(Date.now() + 50).toISOString();
    const pool = workers(
      () => {
        looks++;
        return Promise.resolve(false);
      },
      { pollMs: 60_000, nextDue: () => Promise.resolve(dueAt) },
    );
    pool.pump();
    await expect.poll(() => looks, { timeout: 2_000 }).toBeGreaterThanOrEqual(2);
  });

  it('after close nothing more is taken', async () => {
    let looks = 0;
    const pool = workers(
      () => {
        looks++;
        return Promise.resolve(false);
      },
      { pollMs: 5 },
    );
    await pool.close(100);
    pool.pump();
    await tick(40);
    expect(looks).toBe(0);
    expect(pool.closed).toBe(true);
  });
});
