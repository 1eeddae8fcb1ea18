/**
 * Issue 12, through the BUILT binary: `solve` answers once the plan stops improving instead of
 * waiting out the time limit, says why it stopped in the JSON plan (`solver`), and `--full-time`
 * searches for the whole limit. Reasons are asserted, not times (these machines are shared).
 */
import { describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../server/built.js';

async function solveJson(args: string[]) {
  const run = await runCli(['solve', 'fixtures/bakery.yaml', '--json', ...args]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe('when the search stops', () => {
  it('by default, once the plan stops improving, even under a long time limit; the plan says so', async () => {
    assertBuilt();
    const plan = await solveJson(['--time-limit', '600']);
    expect(plan.solver.stop_reason).toBe('no_improvement');
    expect(plan.solver).toMatchObject({ threads: 1, seed: 0 });
    expect(plan.solver.first_plan_s).toBeLessThanOrEqual(plan.solver.best_found_s);
    expect(plan.solver.best_found_s).toBeLessThanOrEqual(plan.solver.elapsed_s);
    expect(plan.solver.elapsed_s).toBeLessThan(600);
  });

  it('--full-time searches for the whole limit', async () => {
    const plan = await solveJson(['--time-limit', '0.5', '--full-time']);
    expect(plan.solver.stop_reason).toBe('time');
  });

  it('--max-iterations stops on the count, the stall stop being off', async () => {
    const plan = await solveJson(['--time-limit', '600', '--max-iterations', '2500']);
    expect([plan.solver.stop_reason, plan.solver.iterations]).toEqual(['iterations', 2500]);
  });
});
