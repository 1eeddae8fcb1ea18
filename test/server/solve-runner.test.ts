/** The worker-thread runner, with the built worker script (dist/), on real documents. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobAbortedError, WorkerSolveRunner } from '../../src/server/services/solve-runner.js';
import { InputError } from '../../src/errors.js';
import { loadProblemDocument } from '../../src/input/index.js';
import { validateRequest } from '../../src/server/services/job.js';
import { inputError } from '../support/input-error.js';
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
});

describe('accepting a request (validation on the event loop, without the travel matrix)', () => {
  it('warnings for a valid body, the InputError for an invalid one', () => {
    expect(validateRequest('oneoff', smallOneOff({ surprise: 1 }), {})).toEqual([expect.objectContaining({ path: 'surprise' })]);
    const error = inputError(() => validateRequest('oneoff', smallOneOff({ date: '2026-01-01' }), {}));
    expect(error).toBeInstanceOf(InputError);
    expect(error.details.map((detail) => detail.path)).toContain('date');
    expect(() => validateRequest('project', smallOneOff(), {})).toThrow(InputError);
  });

  it('the largest allowed problem is accepted with the warnings of loading it, in a fraction of the time of building it', () => {
    const document = generateOneOff(1, { stops: 5000, drivers: 100 });
    let started = performance.now();
    const warnings = validateRequest('oneoff', document, {});
    const validating = performance.now() - started;
    started = performance.now();
    const loaded = loadProblemDocument(document, { expect: 'oneoff' });
    const building = performance.now() - started;
    expect(warnings).toEqual(loaded.warnings);
    // Building this problem (its travel matrix) takes well over a second.
    expect(validating).toBeLessThan(building / 2);
  });
});
