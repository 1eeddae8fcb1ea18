/**
 * The anytime guarantee: more search never returns a worse plan, and no plan is worse than the
 * greedy floor that even a 1 ms limit returns. Plans are compared on their JSON summary, level by
 * level as the objective ranks them: priority served, then lateness and overtime, then cost.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { constructFirstPlan, fillUnserved, insertGreedily } from '../../src/solver/construct.js';
import { FIRST_PLAN_ITERATIONS } from '../../src/solver/params.js';
import { CostEvaluator, type ObjectiveValue } from '../../src/solver/cost.js';
import { solve, solveOnce } from '../../src/solver/index.js';
import { Solution } from '../../src/solver/solution.js';
import type { SolveOptions } from '../../src/solver/types.js';
import { checkPlan } from '../support/checker.js';
import { solverParts } from '../support/solver-parts.js';
import { buildProblem, randomProblem, seededRandom } from '../support/problem-builder.js';

/** Fewer vehicles than the stops need, so that priority is at stake at every level. */
const SCARCE = [
  { seed: 401, stops: 120, vehicles: 3 },
  { seed: 402, stops: 160, vehicles: 4 },
  { seed: 403, stops: 140, vehicles: 3 },
  { seed: 404, stops: 150, vehicles: 5 },
];

/** Plenty of vehicles, no other features: the regret plan beats the greedy floor on each. */
const REGRET_WINS = [
  { seed: 411, stops: 100, vehicles: 10 },
  { seed: 413, stops: 150, vehicles: 10 },
  { seed: 414, stops: 100, vehicles: 25 },
];

interface Levels {
  priority: number;
  violations: number;
  cost: number;
}

async function solvedLevels(problem: Problem, options: Partial<SolveOptions>): Promise<Levels> {
  const result = await solve(problem, { timeLimitMs: 60_000, seed: 7, ...options });
  const plan = JSON.parse(JSON.stringify(buildPlan(problem, result)));
  expect(checkPlan(problem, plan)).toEqual([]);
  const s = plan.summary;
  return {
    priority: s.priority_served,
    violations: s.lateness_s + s.overtime_s,
    cost: problem.objective.cost === 'distance' ? s.distance_m : s.working_s,
  };
}

/** Negative when `a` is the better plan: higher priority, then fewer violations, then lower cost. */
function compareLevels(a: Levels, b: Levels): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (Math.abs(a.violations - b.violations) > 0.5) return a.violations - b.violations;
  return a.cost - b.cost;
}

describe('anytime guarantee', () => {
  for (const c of SCARCE) {
    it(`more iterations never give a worse plan (seed ${c.seed}: ${c.stops} stops, ${c.vehicles} vehicles)`, async () => {
      const problem = randomProblem(c.seed, { stops: c.stops, vehicles: c.vehicles, allFeatures: true });
      let previous: Levels | null = null;
      for (const maxIterations of [0, 10, 40, 160]) {
        const levels = await solvedLevels(problem, { maxIterations });
        if (previous) expect(compareLevels(levels, previous), `at ${maxIterations} iterations`).toBeLessThanOrEqual(0.5);
        previous = levels;
      }
    }, 60_000);
  }

  it('a plan cut short by the clock is never worse than the greedy floor', async () => {
    for (const c of SCARCE) {
      const problem = randomProblem(c.seed, { stops: c.stops, vehicles: c.vehicles, allFeatures: true });
      const { costs, floor } = greedyFloor(problem);
      for (const timeLimitMs of [1, 20]) {
        const { objective } = await solveOnce(problem, { timeLimitMs, seed: 7 });
        expect(costs.compare(objective, floor), `seed ${c.seed} at ${timeLimitMs} ms`).toBeLessThanOrEqual(0);
      }
    }
  }, 60_000);

  it('the first plan is the better of the greedy floor and the regret construction', () => {
    for (const c of SCARCE) {
      const problem = randomProblem(c.seed, { stops: c.stops, vehicles: c.vehicles, allFeatures: true });
      const { inst, costs, inserter, evaluator, near } = solverParts(problem);
      const cut = constructFirstPlan(inst, costs, inserter, evaluator, near, { deadline: Infinity, work: 0 });
      expect(cut.from, 'a construction out of work returns the floor').toBe('greedy');
      const full = constructFirstPlan(inst, costs, inserter, evaluator, near, { deadline: Infinity });
      expect(costs.compare(costs.objective(full.plan), costs.objective(cut.plan)), `seed ${c.seed}`).toBeLessThanOrEqual(0);
    }
  });
});

describe("the first plan under a limit already passed (issue 26: the limit counts from the command's start)", () => {
  it('below FLOOR_FIRST_MIN_STOPS stops the regret plan is the first plan whatever the clock', () => {
    // Problems on which the regret plan beats the greedy floor (a cut would answer the floor).
    for (const c of REGRET_WINS) {
      const problem = randomProblem(c.seed, { stops: c.stops, vehicles: c.vehicles });
      const late = solverParts(problem);
      const passed = constructFirstPlan(late.inst, late.costs, late.inserter, late.evaluator, late.near, { deadline: -Infinity });
      const timely = solverParts(problem);
      const whole = constructFirstPlan(timely.inst, timely.costs, timely.inserter, timely.evaluator, timely.near, { deadline: Infinity });
      expect([passed.from, whole.from], `seed ${c.seed}`).toEqual(['regret', 'regret']);
      expect(late.costs.compare(late.costs.objective(passed.plan), timely.costs.objective(whole.plan)), `seed ${c.seed}`).toBe(0);
    }
  });

  it('a solve whose end has passed before it began answers the first plan and its untimed iterations, better than the floor', async () => {
    const cases = [
      ...REGRET_WINS.map((c) => ({ problem: randomProblem(c.seed, c), beatsFloor: true })),
      ...SCARCE.map((c) => ({ problem: randomProblem(c.seed, { ...c, allFeatures: true }), beatsFloor: false })),
    ];
    for (const { problem, beatsFloor } of cases) {
      const { costs, floor } = greedyFloor(problem);
      const { result, objective } = await solveOnce(problem, { timeLimitMs: 100, seed: 7, endsAt: performance.timeOrigin });
      expect([result.stats.iterations, result.stats.stoppedBy]).toEqual([FIRST_PLAN_ITERATIONS, 'time']);
      expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, result))))).toEqual([]);
      const comparison = costs.compare(objective, floor);
      if (beatsFloor) expect(comparison).toBeLessThan(0);
      else expect(comparison).toBeLessThanOrEqual(0);
    }
  });

  it('the untimed iterations start from the regret plan and never answer worse than it', async () => {
    for (const c of REGRET_WINS) {
      const problem = randomProblem(c.seed, { stops: c.stops, vehicles: c.vehicles });
      const p = solverParts(problem);
      const regret = constructFirstPlan(p.inst, p.costs, p.inserter, p.evaluator, p.near, { deadline: Infinity });
      const { result, objective } = await solveOnce(problem, { timeLimitMs: 100, seed: 7, endsAt: performance.timeOrigin });
      expect(result.stats.iterations, `seed ${c.seed}`).toBe(FIRST_PLAN_ITERATIONS);
      expect(p.costs.compare(objective, p.costs.objective(regret.plan)), `seed ${c.seed}`).toBeLessThanOrEqual(0);
    }
  });

  it('a limit passed before the solve gives the same plan every run: the clock cuts none of the untimed iterations', async () => {
    const problem = randomProblem(REGRET_WINS[0]!.seed, REGRET_WINS[0]!);
    const once = async (clock?: () => number) =>
      buildPlan(problem, await solve(problem, { timeLimitMs: 100, seed: 3, endsAt: performance.timeOrigin, clock }));
    const first = await once();
    // A clock that runs 50 ms a reading, as on a busy machine, changes nothing: the iterations count, not their time.
    let slow = performance.now();
    const second = await once(() => (slow += 50));
    expect(checkPlan(problem, JSON.parse(JSON.stringify(first)))).toEqual([]);
    expect(second.routes).toEqual(first.routes);
    expect(second.summary.distance_m).toBe(first.summary.distance_m);
  });

  it('where iterations are slow, the untimed ones end at FIRST_PLAN_WORK: a passed limit then answers fewer, the same plan every run', async () => {
    const problem = longRoutes(200, 2);
    const once = async (clock?: () => number) => solve(problem, { timeLimitMs: 100, seed: 3, endsAt: performance.timeOrigin, clock });
    const first = await once();
    let slow = performance.now();
    const second = await once(() => (slow += 50));
    expect(first.stats.iterations).toBeGreaterThan(0);
    expect(first.stats.iterations).toBeLessThan(FIRST_PLAN_ITERATIONS);
    expect(second.stats.iterations).toBe(first.stats.iterations);
    const plan = buildPlan(problem, first);
    expect(checkPlan(problem, JSON.parse(JSON.stringify(plan)))).toEqual([]);
    expect(buildPlan(problem, second).routes).toEqual(plan.routes);
  });
});

/** Stops without windows shared by a few vehicles with room for all: routes of hundreds of stops, slow iterations. */
function longRoutes(stops: number, vehicles: number): Problem {
  const rand = seededRandom(11);
  const at = (): [number, number] => [52.4 + rand() * 0.2, 13.3 + rand() * 0.2];
  return buildProblem({
    vehicles: Array.from({ length: vehicles }, () => ({ start: at(), shiftStart: '00:00', shiftEnd: '23:59', capacity: stops })),
    stops: Array.from({ length: stops }, () => ({ at: at(), durationMin: 1, load: 1 })),
  });
}

/** The floor built directly: every stop inserted greedily, highest priority first, then filled. */
function greedyFloor(problem: Problem): { costs: CostEvaluator; floor: ObjectiveValue } {
  const { inst, costs, inserter, evaluator, near } = solverParts(problem);
  const floor = new Solution(inst, costs);
  const stops = Array.from({ length: inst.nStops }, (_, s) => s).filter((s) => inst.stopLoc[s]! >= 0);
  insertGreedily(floor, inserter, evaluator, stops, near);
  fillUnserved(floor, inserter, evaluator);
  return { costs, floor: costs.objective(floor) };
}
