/**
 * Issue 26, through the BUILT binary: a problem file large enough to need a worker thread starts
 * it while the file loads (src/cli/early-worker.ts). Whether the guess by the file's size was
 * right or not, the command answers a checked plan and ends: a worker left unused is stopped, and
 * none keeps the process alive (runCli fails on a command that does not end).
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EARLY_WORKER_MIN_BYTES } from '../../src/cli/early-worker.js';
import { loadProblemFile } from '../../src/input/index.js';
import { generateLargeProblem } from '../bench/generate-large.js';
import { assertBuilt, runCli } from '../server/built.js';
import { checkPlan } from '../support/checker.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'routeplan-early-worker-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The file written, after checking that it is large enough to start the worker early. */
async function largeFile(name: string, document: unknown): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(document));
  expect((await stat(file)).size).toBeGreaterThanOrEqual(EARLY_WORKER_MIN_BYTES);
  return file;
}

async function checkedSolve(file: string) {
  const run = await runCli(['solve', file, '--json', '--time-limit', '0.001'], {}, 120_000);
  expect(run.code, run.stderr).toBe(0);
  const plan = JSON.parse(run.stdout);
  const { problem } = await loadProblemFile(file);
  expect(checkPlan(problem, plan)).toEqual([]);
  return { plan, stops: problem.stops.length };
}

describe('a large problem file starts its worker thread while it loads', () => {
  it('1,200 orders, the worker started while the file loads: a checked plan with every order accounted for', async () => {
    assertBuilt();
    const file = await largeFile('oneoff-1200.json', generateLargeProblem({ stops: 1200, vehicles: 120, seed: 5, kind: 'oneoff' }));
    const { plan, stops } = await checkedSolve(file);
    expect(stops).toBe(1200);
    expect(plan.summary.served + plan.summary.unserved).toBe(1200);
    expect(plan.solver.stop_reason).toBe('time');
  }, 180_000);

  it('a large file with few orders (long notes) is solved on the main thread, and the unused worker does not keep the command alive', async () => {
    assertBuilt();
    const small = generateLargeProblem({ stops: 20, vehicles: 3, seed: 6, kind: 'oneoff' }) as {
      ordersData: Array<Record<string, unknown>>;
    };
    for (const order of small.ordersData) order['notes'] = 'ring twice; '.repeat(1000);
    const file = await largeFile('oneoff-20-long-notes.json', small);
    const { plan, stops } = await checkedSolve(file);
    expect(stops).toBe(20);
    expect(plan.summary.served).toBe(20);
  }, 180_000);
});
