/** A plan task's progress reports, through the worker pool (the built worker, dist/). */
import { afterAll, describe, expect, it } from 'vitest';
import type { SolveProgress } from '../../src/solver/types.js';
import { WorkerPool } from '../../src/threads/pool.js';
import { PLAN_PROGRESS_EVERY_MS } from '../../src/threads/tasks.js';
import { workerUrl } from '../../src/threads/worker-url.js';
import { generateOneOff } from '../support/generate.js';

const url = workerUrl();
const pool = url === null ? null : new WorkerPool(url, 1);
afterAll(async () => {
  await pool?.close();
});

const never = new AbortController().signal;

describe.skipIf(pool === null)('plan task progress', () => {
  it('reaches the caller while the solve runs, at most one report every PLAN_PROGRESS_EVERY_MS', async () => {
    const timeLimitMs = 1500;
    const reports: SolveProgress[] = [];
    const job = { kind: 'oneoff' as const, document: generateOneOff(3, { stops: 40 }), timeLimitMs, seed: 0, fullTime: true };
    await pool!.run({ kind: 'plan', job }, 30_000, never, (progress) => reports.push(progress));
    expect(reports.length).toBeGreaterThanOrEqual(2);
    // The solver itself reports 20 times a second.
    expect(reports.length).toBeLessThanOrEqual(Math.ceil(timeLimitMs / PLAN_PROGRESS_EVERY_MS) + 1);
    for (let i = 1; i < reports.length; i++) {
      expect(reports[i]!.elapsedMs - reports[i - 1]!.elapsedMs).toBeGreaterThanOrEqual(PLAN_PROGRESS_EVERY_MS - 5);
    }
    expect(reports.every((report) => report.served + report.unserved === 40)).toBe(true);
  });
});
