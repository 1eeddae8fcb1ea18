/** The worker-thread runner, with the built worker script (dist/), on real documents. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobAbortedError, WorkerSolveRunner } from '../../src/server/solve-runner.js';
import { InputError } from '../../src/errors.js';
import { generateOneOff } from '../support/generate.js';
import { assertBuilt } from './built.js';
import { smallOneOff, smallProject } from './harness.js';

let runner: WorkerSolveRunner;
beforeAll(() => {
  assertBuilt();
  runner = new WorkerSolveRunner(2);
});
afterAll(async () => {
  await runner.close();
});

const never = new AbortController().signal;

describe('worker-thread solve runner', () => {
  it('solves a one-off off the main thread and answers the plan (contract version 1)', async () => {
    const outcome = await runner.run({ kind: 'oneoff', document: smallOneOff(), timeLimitMs: 200, seed: 0 }, never);
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.plan).toMatchObject({ version: 1, summary: { served: 2, unserved: 0 } });
  });

  it('solves a project the same way (optimize actions), reusing the worker', async () => {
    const outcome = await runner.run({ kind: 'project', document: smallProject(), timeLimitMs: 200, seed: 0 }, never);
    expect(outcome.ok).toBe(true);
  });

  it('a document that no longer validates fails the job with the input error, not a crash', async () => {
    const outcome = await runner.run({ kind: 'oneoff', document: { routes: [] }, timeLimitMs: 200, seed: 0 }, never);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.code).toBe('invalid_input');
    const after = await runner.run({ kind: 'oneoff', document: smallOneOff(), timeLimitMs: 100, seed: 0 }, never);
    expect(after.ok).toBe(true);
  });

  it('an abort (shutdown) rejects with JobAbortedError so the action stays pending', async () => {
    const controller = new AbortController();
    const running = runner.run({ kind: 'oneoff', document: smallOneOff(), timeLimitMs: 5000, seed: 0 }, controller.signal);
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(JobAbortedError);
    const already = runner.run({ kind: 'oneoff', document: smallOneOff(), timeLimitMs: 100, seed: 0 }, controller.signal);
    await expect(already).rejects.toBeInstanceOf(JobAbortedError);
  });

  it('validation runs loadProblemDocument in a worker: warnings for a valid body, the InputError for an invalid one', async () => {
    expect(await runner.validate('oneoff', smallOneOff({ surprise: 1 }), {})).toEqual([expect.objectContaining({ path: 'surprise' })]);
    const error = await runner.validate('oneoff', smallOneOff({ date: '2026-01-01' }), {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).details.map((detail) => detail.path)).toContain('date');
    await expect(runner.validate('project', smallOneOff(), {})).rejects.toBeInstanceOf(InputError);
  });

  it('validating the largest allowed problem leaves the event loop free', async () => {
    const document = generateOneOff(1, { stops: 5000, drivers: 100 });
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 1);
    try {
      await runner.validate('oneoff', document, {});
    } finally {
      clearInterval(ticker);
    }
    // Building this problem takes well over a second; on the event loop no tick could happen meanwhile.
    expect(ticks).toBeGreaterThan(0);
  });
});
