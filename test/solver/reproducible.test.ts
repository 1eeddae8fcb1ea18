/**
 * decisions.md: `--seed` makes a solve reproducible for the same input, seed and threads when it
 * stops on an iteration limit. Nothing inside an iteration-limited search may depend on the clock,
 * so the time limit (as long as it is not reached) does not change the plan.
 */
import { describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import { generateProject } from '../support/generate.js';
import { reproduced } from '../support/reproduced.js';

describe('seed and iteration limit reproduce a plan', () => {
  it('an iteration-limited plan does not depend on the time limit (exact-pricing local search too)', async () => {
    const { problem } = loadProblemDocument(generateProject(11, { stops: 40 }));
    const planWithin = async (timeLimitMs: number) =>
      JSON.stringify(reproduced(buildPlan(problem, await solve(problem, { timeLimitMs, seed: 11, maxIterations: 40 }))));
    // 4 s leaves each exact polish 80 ms under a clock share; 10 min leaves it 12 s.
    expect(await planWithin(4_000)).toBe(await planWithin(600_000));
  });
});
