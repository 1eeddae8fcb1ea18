import { describe, expect, it } from 'vitest';
import { JobQueue } from '../../src/server/store/data-dir/job-queue.js';
import { QueueFullError } from '../../src/server/store/errors.js';

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
    const queue = new JobQueue(2, 10, 1_000);
    const jobs = [gate(), gate(), gate()];
    for (const job of jobs) queue.reserve('a').start(job.job);
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
    const queue = new JobQueue(1, 2, 4_000);
    queue.reserve('a');
    queue.reserve('b');
    queue.reserve('c');
    let caught: unknown;
    try {
      queue.reserve('d');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(QueueFullError);
    expect((caught as QueueFullError).retryAfterSeconds).toBeGreaterThanOrEqual(4);
    expect((caught as QueueFullError).scope).toBe('queue');
  });

  it('a cancelled reservation gives its place back', () => {
    const queue = new JobQueue(1, 0, 1_000);
    const first = queue.reserve('a');
    expect(() => queue.reserve('a')).toThrow(QueueFullError);
    first.cancel();
    expect(() => queue.reserve('a')).not.toThrow();
  });

  it('recovered (already accepted) jobs are queued past the capacity', async () => {
    const queue = new JobQueue(1, 0, 1_000);
    const jobs = [gate(), gate(), gate()];
    for (const job of jobs) queue.pushAccepted('a', job.job);
    await tick();
    expect(queue.stats()).toMatchObject({ running: 1, waiting: 2 });
    for (const job of jobs) job.release();
    await tick();
    await tick();
    expect(await queue.whenIdle(1000)).toBe(true);
  });

  it('stop(): waiting jobs never start, running ones are awaited, new reservations are refused', async () => {
    const queue = new JobQueue(1, 5, 1_000);
    const running = gate();
    const waiting = gate();
    queue.reserve('a').start(running.job);
    queue.reserve('a').start(waiting.job);
    await tick();
    expect(queue.stop()).toBe(1);
    expect(() => queue.reserve('a')).toThrow(QueueFullError);
    expect(await queue.whenIdle(0)).toBe(false);
    running.release();
    expect(await queue.whenIdle(1000)).toBe(true);
    expect(waiting.started).toBe(false);
  });

  it('a failing job frees its slot', async () => {
    const queue = new JobQueue(1, 1, 1_000);
    queue.reserve('a').start(async () => {
      throw new Error('boom');
    });
    const next = gate();
    queue.reserve('a').start(next.job);
    await tick();
    await tick();
    expect(next.started).toBe(true);
    next.release();
  });

  it('withdraw(): a waiting job leaves the queue and frees its place; a started one cannot be withdrawn', async () => {
    const queue = new JobQueue(1, 1, 1_000);
    const running = gate();
    const withdrawn = gate();
    queue.reserve('a').start(running.job);
    queue.reserve('a').start(withdrawn.job);
    await tick();
    expect(() => queue.reserve('a')).toThrow(QueueFullError);
    expect(queue.withdraw(withdrawn.job)).toBe(true);
    expect(queue.withdraw(running.job)).toBe(false);
    const next = gate();
    queue.reserve('a').start(next.job);
    running.release();
    await tick();
    await tick();
    expect(withdrawn.started).toBe(false);
    expect(next.started).toBe(true);
    next.release();
    expect(await queue.whenIdle(1000)).toBe(true);
  });
});

describe('fairness between API keys', () => {
  it('round-robin: waiting jobs start one per key in turn, not first come first served', async () => {
    const queue = new JobQueue(1, 20, 1_000, 20);
    const order: string[] = [];
    const gates: ReturnType<typeof gate>[] = [];
    const submit = (owner: string, name: string): void => {
      const handle = gate();
      gates.push(handle);
      queue.reserve(owner).start(async () => {
        order.push(name);
        await handle.job();
      });
    };
    for (let i = 1; i <= 4; i += 1) submit('flood', `A${i}`);
    submit('single', 'B1');
    submit('other', 'C1');
    const released = new Set<ReturnType<typeof gate>>();
    for (let i = 0; i < 6; i += 1) {
      await tick();
      const runningNow = gates.find((handle) => handle.started && !released.has(handle))!;
      released.add(runningNow);
      runningNow.release();
    }
    await queue.whenIdle(1000);
    // A1 was running; then the keys not yet served: B's and C's single jobs do not wait behind A's backlog.
    expect(order).toEqual(['A1', 'B1', 'C1', 'A2', 'A3', 'A4']);
  });

  it('per-key share: past `perKey` waiting jobs that key is refused (scope key) while another key still gets in', async () => {
    const queue = new JobQueue(1, 10, 2_000, 3);
    const gates = [gate(), gate(), gate(), gate()];
    // One runs, three wait: the key's whole share.
    for (const handle of gates) queue.reserve('a').start(handle.job);
    await tick();
    expect(queue.stats()).toMatchObject({ running: 1, waiting: 3 });
    let caught: unknown;
    try {
      queue.reserve('a');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(QueueFullError);
    expect((caught as QueueFullError).scope).toBe('key');
    expect((caught as QueueFullError).retryAfterSeconds).toBeGreaterThanOrEqual(2);
    expect(() => queue.reserve('b').cancel()).not.toThrow();
    for (const handle of gates) handle.release();
    await queue.whenIdle(1000);
  });

  it('stats report running, waiting and waiting per key', async () => {
    const queue = new JobQueue(1, 10, 1_000, 5);
    const gates = [gate(), gate(), gate(), gate()];
    queue.reserve('a').start(gates[0]!.job);
    queue.reserve('a').start(gates[1]!.job);
    queue.reserve('a').start(gates[2]!.job);
    queue.reserve('b').start(gates[3]!.job);
    await tick();
    expect(queue.stats()).toMatchObject({ running: 1, waiting: 3, perKey: 5, waitingByKey: { a: 2, b: 1 } });
    for (const handle of gates) handle.release();
    await queue.whenIdle(1000);
  });

  it('the default share is half the capacity, at least one', () => {
    expect(new JobQueue(1, 100, 1_000).perKey).toBe(50);
    expect(new JobQueue(1, 1, 1_000).perKey).toBe(1);
    expect(new JobQueue(1, 0, 1_000).perKey).toBe(1);
  });
});
