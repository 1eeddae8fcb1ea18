/** The worker pool with the built worker (dist/): overruns, aborts and task errors. */
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { JobAbortedError, WorkerPool } from '../../src/threads/pool.js';
import type { PlanTask } from '../../src/threads/protocol.js';
import { WorkerFailure } from '../../src/threads/thread.js';
import { workerUrl } from '../../src/threads/worker-url.js';
import { smallOneOff } from '../server/harness.js';

const url = workerUrl();
const pool = url === null ? null : new WorkerPool(url, 1);
afterAll(async () => {
  await pool?.close();
});

const never = new AbortController().signal;
const plan = (document: unknown, timeLimitMs: number): PlanTask => ({
  kind: 'plan',
  job: { kind: 'oneoff', document, timeLimitMs, seed: 0 },
});

describe.skipIf(pool === null)('worker pool', () => {
  it('a task that overruns its time fails with solve_timeout; the next task gets a fresh thread', async () => {
    const overrun = await pool!.run(plan(smallOneOff(), 5000), 50, never).catch((error: unknown) => error);
    expect(overrun).toBeInstanceOf(WorkerFailure);
    expect((overrun as WorkerFailure).code).toBe('solve_timeout');
    await expect(pool!.run(plan(smallOneOff(), 100), 30_000, never)).resolves.toMatchObject({ version: 1 });
  });

  it("a task's own error arrives with its class and the thread stays in service", async () => {
    await expect(pool!.run(plan({ routes: [] }, 100), 30_000, never)).rejects.toBeInstanceOf(InputError);
    await expect(pool!.run(plan(smallOneOff(), 100), 30_000, never)).resolves.toMatchObject({ version: 1 });
  });

  it('calls wait their turn; an abort rejects with JobAbortedError, running or waiting', async () => {
    const controller = new AbortController();
    const running = pool!.run(plan(smallOneOff(), 5000), 30_000, controller.signal);
    const waiting = pool!.run(plan(smallOneOff(), 100), 30_000, controller.signal);
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(JobAbortedError);
    await expect(waiting).rejects.toBeInstanceOf(JobAbortedError);
  });
});
