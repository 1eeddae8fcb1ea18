import { describe, expect, it } from 'vitest';
import { JobQueue, QueueFullError } from '../../src/server/queue.js';

/** A job that runs until the test releases it, so nothing depends on timing. */
function gate(): { job: () => Promise<void>; started: boolean; release: () => void } {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  const handle = {
    started: false,
    release: () => release(),
    job: async () => {
      handle.started = true;
      await done;
    },
  };
  return handle;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('bounded solve queue', () => {
  it('runs at most `concurrency` jobs at once and starts the next when one ends', async () => {
    const queue = new JobQueue(2, 10, 1);
    const jobs = [gate(), gate(), gate()];
    for (const job of jobs) queue.reserve().start(job.job);
    await tick();
    expect(jobs.map((job) => job.started)).toEqual([true, true, false]);
    jobs[0]!.release();
    await tick();
    expect(jobs[2]!.started).toBe(true);
    jobs[1]!.release();
    jobs[2]!.release();
    expect(await queue.whenIdle(1000)).toBe(true);
  });

  it('queue full: a reservation beyond concurrency + capacity throws QueueFullError with a Retry-After hint', () => {
    const queue = new JobQueue(1, 2, 4);
    queue.reserve();
    queue.reserve();
    queue.reserve();
    let caught: unknown;
    try {
      queue.reserve();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(QueueFullError);
    expect((caught as QueueFullError).retryAfterSeconds).toBeGreaterThanOrEqual(4);
  });

  it('a cancelled reservation gives its place back', () => {
    const queue = new JobQueue(1, 0, 1);
    const first = queue.reserve();
    expect(() => queue.reserve()).toThrow(QueueFullError);
    first.cancel();
    expect(() => queue.reserve()).not.toThrow();
  });

  it('recovered (already accepted) jobs are queued past the capacity', async () => {
    const queue = new JobQueue(1, 0, 1);
    const jobs = [gate(), gate(), gate()];
    for (const job of jobs) queue.pushAccepted(job.job);
    await tick();
    expect(queue.stats()).toMatchObject({ running: 1, waiting: 2 });
    for (const job of jobs) job.release();
    await tick();
    await tick();
    expect(await queue.whenIdle(1000)).toBe(true);
  });

  it('stop(): waiting jobs never start, running ones are awaited, new reservations are refused', async () => {
    const queue = new JobQueue(1, 5, 1);
    const running = gate();
    const waiting = gate();
    queue.reserve().start(running.job);
    queue.reserve().start(waiting.job);
    await tick();
    expect(queue.stop()).toBe(1);
    expect(() => queue.reserve()).toThrow(QueueFullError);
    expect(await queue.whenIdle(0)).toBe(false);
    running.release();
    expect(await queue.whenIdle(1000)).toBe(true);
    expect(waiting.started).toBe(false);
  });

  it('a failing job frees its slot', async () => {
    const queue = new JobQueue(1, 1, 1);
    queue.reserve().start(async () => {
      throw new Error('boom');
    });
    const next = gate();
    queue.reserve().start(next.job);
    await tick();
    await tick();
    expect(next.started).toBe(true);
    next.release();
  });

  it('withdraw(): a waiting job leaves the queue and frees its place; a started one cannot be withdrawn', async () => {
    const queue = new JobQueue(1, 1, 1);
    const running = gate();
    const withdrawn = gate();
    queue.reserve().start(running.job);
    queue.reserve().start(withdrawn.job);
    await tick();
    expect(() => queue.reserve()).toThrow(QueueFullError);
    expect(queue.withdraw(withdrawn.job)).toBe(true);
    expect(queue.withdraw(running.job)).toBe(false);
    const next = gate();
    queue.reserve().start(next.job);
    running.release();
    await tick();
    await tick();
    expect(withdrawn.started).toBe(false);
    expect(next.started).toBe(true);
    next.release();
    expect(await queue.whenIdle(1000)).toBe(true);
  });
});
