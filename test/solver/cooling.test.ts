/**
 * Issue 26, decisions.md `--seed`: a search that may stop by itself cools over work (search/accept.ts),
 * so that the same seed gives the same plan; where the machine cannot do that work within the limit
 * the clock leads the cooling instead, and such a search runs to its deadline (`time`), as its plan
 * depends on the clock. After its cooling a search holds the end temperature for at most
 * COOL_TAIL_SHARE of the cooling's work, so that a 200-stop project stops by itself within 5 s.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import { improvePlan } from '../../src/solver/improve.js';
import { planOfRoutes, searchKitOf } from '../../src/solver/kit.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { instanceOf } from '../../src/solver/instance.js';
import { CLOCK_LEADS_FROM, COOL_HORIZON_UNITS_PER_MS, COOL_TAIL_SHARE, REHEAT_MAX_STOPS, STALL_REHEATS } from '../../src/solver/params.js';
import { Rng } from '../../src/solver/rng.js';
import { Acceptance } from '../../src/solver/search/accept.js';
import { search } from '../../src/solver/search/search.js';
import type { SolveOptions } from '../../src/solver/types.js';
import { checkPlan } from '../support/checker.js';
import { randomProblem } from '../support/problem-builder.js';

async function checkedSolve(problem: Problem, options: SolveOptions) {
  const result = await solve(problem, options);
  expect(checkPlan(problem, buildPlan(problem, result))).toEqual([]);
  return result;
}

describe('the cooling: by work where the machine keeps up, else by the clock, and then to the deadline', () => {
  const problem = randomProblem(61, { stops: 40, vehicles: 4, allFeatures: true });

  it('a clock a thousand times slow (a fast machine): the search cools by work and stops by itself', async () => {
    const slow = (): number => performance.now() / 1000;
    const result = await checkedSolve(problem, { timeLimitMs: 2_000, seed: 1, clock: slow });
    expect(result.stats.stoppedBy).toBe('no_improvement');
  });

  it('a clock that runs 20 ms a reading (a machine too slow for the cooling within 2 s): the clock leads, and the search runs to its deadline', async () => {
    let reads = 0;
    const fast = (): number => performance.now() + 20 * ++reads;
    const result = await checkedSolve(problem, { timeLimitMs: 2_000, seed: 1, clock: fast });
    expect(result.stats.stoppedBy).toBe('time');
    expect(result.stats.iterations).toBeGreaterThan(0);
  });
});

describe('Acceptance: who leads the cooling', () => {
  const costs = new CostEvaluator(instanceOf(randomProblem(63, { stops: 5, vehicles: 1 })));
  const limits = { started: 0, deadline: 10_000, coolWork: 1_000_000 };

  it('the work, while it is further along than the clock: the search may stop by itself', () => {
    const acceptance = new Acceptance(1, limits, costs, new Rng(0));
    acceptance.cool(10, 600_000, 5_000, 0);
    expect(acceptance.clockLed).toBe(false);
  });

  it('the clock, from CLOCK_LEADS_FROM of the way on, once it is further along: from then on the search may not stop by itself', () => {
    const acceptance = new Acceptance(1, limits, costs, new Rng(0));
    acceptance.cool(1, 0, (CLOCK_LEADS_FROM * 10_000) / 2, 0);
    expect(acceptance.clockLed).toBe(false);
    acceptance.cool(10, 100_000, 5_000, 0);
    expect(acceptance.clockLed).toBe(true);
    acceptance.cool(20, 1_000_000, 5_001, 0);
    expect(acceptance.clockLed).toBe(true);
  });

  it("a reheat's cooling counts the clock from its own start", () => {
    const acceptance = new Acceptance(1, limits, costs, new Rng(0));
    acceptance.cool(10, 100_000, 8_000, 7_900);
    expect(acceptance.clockLed).toBe(false);
  });
});

describe('after its cooling, a search holds the end temperature for at most COOL_TAIL_SHARE of the cooling', () => {
  /**
   * A search that never stalls (no plateau within reach): only the tail's bound can stop it by
   * itself. Its limit's span (`spanMs`) sets the horizon the tail may reach where that is further.
   */
  async function tailOnly(stops: number, spanMs = 1) {
    const problem = randomProblem(62, { stops, vehicles: Math.ceil(stops / 12) });
    const kit = searchKitOf(problem);
    const first = await improvePlan(problem, null, { timeLimitMs: 600_000, seed: 2, maxIterations: 0 });
    const coolWork = 2_000_000;
    const outcome = await search(planOfRoutes(kit, first.routes), kit.inserter, kit.evaluator, kit.near, {
      started: performance.now(),
      deadline: performance.now() + 20_000,
      seed: 3,
      workSpanMs: spanMs,
      coolWork,
      plateauIterations: 1e9,
      plateauWork: 1e15,
    });
    return { outcome, coolWork };
  }

  it('on more than REHEAT_MAX_STOPS stops: one cooling, then at most its tail', async () => {
    const { outcome, coolWork } = await tailOnly(REHEAT_MAX_STOPS + 20);
    expect(outcome.stoppedBy).toBe('no_improvement');
    expect(outcome.work).toBeGreaterThanOrEqual((1 + COOL_TAIL_SHARE) * coolWork);
    expect(outcome.work).toBeLessThan((1 + COOL_TAIL_SHARE) * coolWork * 1.5);
  });

  it('up to REHEAT_MAX_STOPS stops: each of the 1 + STALL_REHEATS coolings with its tail', async () => {
    const { outcome, coolWork } = await tailOnly(60);
    expect(outcome.stoppedBy).toBe('no_improvement');
    expect(outcome.work).toBeGreaterThanOrEqual((1 + STALL_REHEATS) * (1 + COOL_TAIL_SHARE) * coolWork);
    expect(outcome.work).toBeLessThan((1 + STALL_REHEATS) * (1 + COOL_TAIL_SHARE) * coolWork * 1.5);
  });

  it('where the limit leaves room, the tail goes on to COOL_HORIZON_UNITS_PER_MS of its span', async () => {
    const spanMs = (3 * 2_000_000) / COOL_HORIZON_UNITS_PER_MS;
    const { outcome, coolWork } = await tailOnly(REHEAT_MAX_STOPS + 20, spanMs);
    expect(outcome.stoppedBy).toBe('no_improvement');
    expect(outcome.work).toBeGreaterThanOrEqual(3 * coolWork);
    expect(outcome.work).toBeLessThan(3 * coolWork * 1.2);
  });
});
