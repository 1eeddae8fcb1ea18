/**
 * The local search above 1,000 stops when moves are priced by the exact evaluator
 * (SolveOptions.largeLocalSearch, experimental): it exists there only when asked for, runs on fewer granular
 * neighbours, each move it applies improves the plan, and a solve with it passes the checker.
 */
import { describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import { buildPlan } from '../../src/output/plan.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { solve } from '../../src/solver/index.js';
import { instanceOf } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { LocalSearch } from '../../src/solver/ls/local-search.js';
import { segmentsApply } from '../../src/solver/ls/segments.js';
import { EXACT_MAX_STOPS } from '../../src/solver/params.js';
import { fillUnserved } from '../../src/solver/construct.js';
import { Rng } from '../../src/solver/rng.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { Solution } from '../../src/solver/solution.js';
import { generateLargeProblem } from '../bench/generate-large.js';
import { checkPlan } from '../support/checker.js';

/** The bench's generated parcel operation (breaks, several windows: priced exactly), just above the cut-off. */
function largeProblem() {
  return loadProblemDocument(generateLargeProblem({ stops: EXACT_MAX_STOPS + 100, vehicles: 100, seed: 4, kind: 'oneoff' })).problem;
}

describe('local search above EXACT_MAX_STOPS stops priced exactly', () => {
  const problem = largeProblem();
  const inst = instanceOf(problem);

  it('is made only when asked for, and improves a greedy plan without a move the exact evaluator refuses', () => {
    expect(inst.nStops).toBeGreaterThan(EXACT_MAX_STOPS);
    expect(segmentsApply(inst)).toBe(false);
    const evaluator = new RouteEvaluator(inst);
    expect(LocalSearch.create(inst, evaluator, new Rng(1))).toBeNull();
    const ls = LocalSearch.create(inst, evaluator, new Rng(1), { large: true })!;
    expect(ls).not.toBeNull();
    expect(ls.fast).toBe(false);
    const sol = new Solution(inst, new CostEvaluator(inst));
    fillUnserved(sol, new Inserter(inst, evaluator), evaluator);
    const before = sol.costs.objective(sol);
    // A bounded pass, as the search's polish runs it (a budget of work).
    let calls = 0;
    const applied = ls.run(sol, Infinity, () => ++calls > 20);
    const after = sol.costs.objective(sol);
    expect(applied).toBeGreaterThan(0);
    expect(after.priority).toBe(before.priority);
    expect(sol.costs.compare(after, before)).toBeLessThan(0);
  });

  // Bounded by the clock, not iterations: under an iteration limit the polish has no budget of work.
  it('a solve with it passes the independent checker', async () => {
    const result = await solve(problem, { timeLimitMs: 3000, seed: 2, largeLocalSearch: true });
    expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, result))))).toEqual([]);
  });
});
