/**
 * Issue 26, through the BUILT binary: `--time-limit` bounds the whole command — loading, matrix,
 * solving and output (decisions.md, `--seed`/`--time-limit`) — not the search alone: the solve gets
 * what the loading left of the limit, less the time kept for writing the plan. Asserted on the
 * phases the plan reports in `solver`, not on wall time (these machines are shared).
 */
import { describe, expect, it } from 'vitest';
import { loadProblemFile } from '../../src/input/index.js';
import { FIRST_PLAN_ITERATIONS } from '../../src/solver/params.js';
import { checkPlan } from '../support/checker.js';
import { assertBuilt, runCli } from '../server/built.js';

async function solvedPlan(file: string, args: string[]) {
  const run = await runCli(['solve', file, '--json', ...args]);
  expect(run.code, run.stderr).toBe(0);
  const plan = JSON.parse(run.stdout);
  const { problem } = await loadProblemFile(file);
  expect(checkPlan(problem, plan)).toEqual([]);
  return plan;
}

describe('--time-limit bounds the command', () => {
  it("the command's time limit covers loading and output", async () => {
    assertBuilt();
    // Long enough for the first plan, which is made whatever the clock, even on a loaded machine.
    const plan = await solvedPlan('fixtures/bakery.yaml', ['--time-limit', '3', '--full-time']);
    const { time_limit_s, solve_started_s, output_reserve_s, elapsed_s, stop_reason } = plan.solver;
    expect(time_limit_s).toBe(3);
    // Starting Node and loading the problem came out of the limit, and the output keeps a share.
    expect(solve_started_s).toBeGreaterThan(0);
    expect(output_reserve_s).toBeGreaterThan(0);
    // Searching for the whole limit (--full-time), the solve still ended where the command's
    // limit, less the output's share, says: not three seconds after it began (± rounding to ms).
    expect(stop_reason).toBe('time');
    expect(solve_started_s + elapsed_s).toBeLessThanOrEqual(time_limit_s - output_reserve_s + 0.002);
  });

  it('a limit shorter than the loading still prints a first plan, every stop served', async () => {
    const plan = await solvedPlan('fixtures/bakery.yaml', ['--time-limit', '0.001']);
    // The first plan of a small problem is the regret plan and the iterations the clock does not cut.
    expect(plan.solver).toMatchObject({ iterations: FIRST_PLAN_ITERATIONS, stop_reason: 'time', time_limit_s: 0.001 });
    expect(plan.solver.solve_started_s).toBeGreaterThan(plan.solver.time_limit_s);
    expect(plan.unserved).toEqual([]);
  });
});
