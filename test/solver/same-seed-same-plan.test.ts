/**
 * Issue 26, decisions.md `--seed`: the same input, seed and threads give the same plan whenever the
 * search stops by itself. The stall stop, the cooling and an exact polish's budget count iterations
 * and work (src/solver/search/work.ts), never seconds: here one run reads the real clock and the
 * other a clock that runs fast and pauses now and then (as on a busy machine), and both plans must be equal, JSON for JSON, and pass the independent checker.
 */
import { describe, expect, it } from 'vitest';
import { loadProblemDocument, loadProblemFile } from '../../src/input/index.js';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import type { SolveOptions, SolveResult } from '../../src/solver/types.js';
import { solveInThreads } from '../../src/threads/searches.js';
import { checkPlan } from '../support/checker.js';
import { generateProject } from '../support/generate.js';
import { reproduced } from '../support/reproduced.js';

/** Far beyond what these searches take, even on the fast clock: every run stops by itself. */
const LIMIT_MS = 600_000;

/**
 * A clock each of whose readings lands `lagMs` later than the one before would, and that jumps
 * `pauseMs` ahead at each reading of `pausesAt` (the process was descheduled): to the search, the
 * machine is slow and now and then stopped. It counts its readings.
 */
function busyClock(lagMs: number, pausesAt: readonly number[], pauseMs: number): { read: () => number; reads: number } {
  const clock = {
    reads: 0,
    read: () => performance.now() + ++clock.reads * lagMs + pausesAt.filter((at) => clock.reads >= at).length * pauseMs,
  };
  return clock;
}

interface Run {
  plan: string;
  result: SolveResult;
}

/** Solved on the calling thread (threads one after the other: the sources under test), checked, the plan without its timings. */
async function run(problem: Problem, options: Partial<SolveOptions>): Promise<Run> {
  const result = await solveInThreads(problem, { timeLimitMs: LIMIT_MS, seed: 3, ...options }, { inline: true });
  const plan = buildPlan(problem, result);
  expect(checkPlan(problem, plan)).toEqual([]);
  return { plan: JSON.stringify(reproduced(plan)), result };
}

async function expectSamePlanOnBothClocks(problem: Problem, options: Partial<SolveOptions> = {}): Promise<void> {
  const quiet = await run(problem, options);
  // To the search a fifth of the limit goes by, most of it in two pauses, early on and late: enough
  // for anything that reads the clock (a time share of the stall, a cooling over the limit) to change
  // the plan, and not so much that the machine could not do the cooling's work within the limit (then
  // the clock leads the cooling and the search runs to its deadline, search/accept.ts; cooling.test.ts).
  const iterations = quiet.result.stats.iterations;
  const clock = busyClock((0.05 * LIMIT_MS) / iterations, [Math.ceil(iterations / 10), Math.ceil(iterations * 0.8)], 0.075 * LIMIT_MS);
  const busy = await run(problem, { ...options, clock: clock.read });
  expect([quiet.result.stats.stoppedBy, busy.result.stats.stoppedBy]).toEqual(['no_improvement', 'no_improvement']);
  // The fast clock was read at every iteration: to the search, seconds more went by.
  expect(clock.reads).toBeGreaterThanOrEqual(busy.result.stats.iterations);
  expect(busy.result.stats.iterations).toBe(quiet.result.stats.iterations);
  expect(busy.plan).toBe(quiet.plan);
}

const plainProject = (): Problem =>
  loadProblemDocument(
    generateProject(26, { stops: 30, drivers: 4, features: { windows: false, breaks: false, overnight: false, allowances: false } }),
  ).problem;

describe('same seed, same plan: a search that stops by itself never reads the clock for what it does', () => {
  it('bakery fixture (every move priced by the exact evaluator)', async () => {
    await expectSamePlanOnBothClocks((await loadProblemFile('fixtures/bakery.yaml')).problem);
  });

  it('a 30-stop project without windows (local search by segment summaries, slow iterations)', async () => {
    await expectSamePlanOnBothClocks(plainProject());
  });

  it('a 40-stop project with every feature (local search priced exactly, within a budget of work)', async () => {
    await expectSamePlanOnBothClocks(loadProblemDocument(generateProject(11, { stops: 40 })).problem);
  });

  it('the construction is cut by the clock only at the deadline that stops the run: a lagging, jumping clock starts the search from the same plan', async () => {
    // Its first reading (the start) lags 10 s behind the process's clock, and by the third the
    // clock has jumped 20 s ahead: to a construction with a clock deadline of its own (5 s) the
    // machine was too busy for the regret insertion, and the search, starting from the greedy
    // floor, stopped by itself at another plan. Neither reaches the run's deadline.
    const problem = plainProject();
    const quiet = await run(problem, {});
    let reads = 0;
    const lagging = (): number => performance.now() - 10_000 + (++reads >= 3 ? 20_000 : 0);
    const busy = await run(problem, { clock: lagging });
    expect([quiet.result.stats.stoppedBy, busy.result.stats.stoppedBy]).toEqual(['no_improvement', 'no_improvement']);
    expect(reads).toBeGreaterThan(2);
    expect(busy.result.stats.iterations).toBe(quiet.result.stats.iterations);
    expect(busy.plan).toBe(quiet.plan);
  });

  it("however much of the command's limit was gone before the solve began: budgets of work follow the limit", async () => {
    // A short limit, whose span sets the budgets of work (an exact polish's, the final claim's),
    // read on a clock a thousand times slow, so that no run is cut by it nor its cooling led by it;
    // the second run's end comes a second after it begins (SolveOptions.endsAt, a command's limit
    // less what its loading took), still too late to cut it.
    const problem = plainProject();
    const slow = (): number => performance.now() / 1000;
    const whole = await run(problem, { timeLimitMs: 2000, clock: slow });
    const late = await run(problem, { timeLimitMs: 2000, clock: slow, endsAt: performance.timeOrigin + performance.now() + 1000 });
    expect([whole.result.stats.stoppedBy, late.result.stats.stoppedBy]).toEqual(['no_improvement', 'no_improvement']);
    expect(late.plan).toBe(whole.plan);
  });

  it('a 40-stop project with every feature, the population on (restarts after stalls counted in iterations)', async () => {
    await expectSamePlanOnBothClocks(loadProblemDocument(generateProject(11, { stops: 40 })).problem, { population: true });
  });

  it('two threads: each search and the pick of the best', async () => {
    await expectSamePlanOnBothClocks(plainProject(), { threads: 2 });
  });
});
