/**
 * Property tests of the whole pipeline on generated documents of both surfaces:
 * raw document → loadProblemDocument → solve (iteration-limited) → buildPlan → JSON round trip,
 * then the independent checker must find no violation and no unserved stop that fits as is.
 *
 * `PROPERTY_SEEDS=n` runs n seeds per scenario instead of the default (for soak runs).
 */
import { describe, expect, it } from 'vitest';
import { loadProblemDocument, loadProblemFile } from '../../src/input/index.js';
import type { Problem } from '../../src/model/problem.js';
import type { Plan } from '../../src/output/plan-types.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import { checkPlan, findInsertableUnserved, findPriorityExchanges } from '../support/checker.js';
import { generateOneOff, generateProject, type Features } from '../support/generate.js';
import { reproduced } from '../support/reproduced.js';

const EXTRA_SEEDS = Number(process.env.PROPERTY_SEEDS ?? 0);

interface Scenario {
  name: string;
  stops: number;
  drivers?: number;
  seeds: number;
  iterations: number;
  features?: Partial<Features>;
}

const SCENARIOS: Scenario[] = [
  { name: 'small, all features', stops: 30, seeds: 10, iterations: 150 },
  { name: 'medium, all features', stops: 80, seeds: 4, iterations: 100 },
  { name: 'overnight shifts', stops: 40, seeds: 3, iterations: 100, features: { overnight: true } },
  { name: 'tight fleet (many unserved)', stops: 60, drivers: 2, seeds: 3, iterations: 100 },
  { name: 'no windows, no capacities', stops: 50, seeds: 2, iterations: 100, features: { windows: false, capacities: false } },
  { name: 'no durations (null project ETAs)', stops: 40, seeds: 2, iterations: 80, features: { durations: false } },
  { name: 'breaks everywhere, shared addresses', stops: 50, seeds: 3, iterations: 80, features: { breakShare: 1, sharedShare: 0.5 } },
  {
    name: 'tight windows, one break-taking driver',
    stops: 30,
    drivers: 2,
    seeds: 4,
    iterations: 100,
    features: { tightWindows: true, breakShare: 1 },
  },
  { name: 'large', stops: 300, seeds: 1, iterations: 30 },
];

async function planFor(problem: Problem, seed: number, iterations: number): Promise<Plan> {
  const result = await solve(problem, { timeLimitMs: 20_000, seed, maxIterations: iterations });
  // Check what a user receives: the plan after JSON serialisation.
  return JSON.parse(JSON.stringify(buildPlan(problem, result))) as Plan;
}

function report(label: string, problems: string[]): string {
  return `${label}: ${problems.length} finding(s)\n${problems.slice(0, 15).join('\n')}`;
}

async function expectSoundPlan(label: string, document: Record<string, unknown>, seed: number, iterations: number): Promise<Plan> {
  const { problem } = loadProblemDocument(document);
  const plan = await planFor(problem, seed, iterations);
  expect(plan.summary.served + plan.summary.unserved).toBe(problem.stops.length);
  expect(plan.summary.served, `${label}: nothing served`).toBeGreaterThan(0);
  const violations = checkPlan(problem, plan);
  expect(violations, report(`${label} violations`, violations)).toEqual([]);
  const missed = findInsertableUnserved(problem, plan);
  expect(missed, report(`${label} unserved stops that fit`, missed)).toEqual([]);
  return plan;
}

for (const scenario of SCENARIOS) {
  const seeds = Array.from({ length: scenario.seeds + EXTRA_SEEDS }, (_, i) => 1000 + i);
  const options = { stops: scenario.stops, drivers: scenario.drivers, features: scenario.features };
  describe(`pipeline property: ${scenario.name} (${scenario.stops} stops)`, () => {
    it.each(seeds)('project seed %i: feasible plan, no insertable unserved stop', async (seed) => {
      await expectSoundPlan(`project seed ${seed}`, generateProject(seed, options), seed, scenario.iterations);
    });
    it.each(seeds)('one-off seed %i: feasible plan, no insertable unserved stop', async (seed) => {
      await expectSoundPlan(`one-off seed ${seed}`, generateOneOff(seed, options), seed, scenario.iterations);
    });
  });
}

describe('pipeline property: 1,000 stops', () => {
  it('one-off with 1,000 orders solves to a feasible plan', async () => {
    await expectSoundPlan('one-off 1000', generateOneOff(4242, { stops: 1000 }), 1, 5);
  });

  it('project with 1,000 stops solves to a feasible plan', async () => {
    await expectSoundPlan('project 1000', generateProject(4243, { stops: 1000 }), 1, 5);
  });
});

describe('pipeline property: reproducibility', () => {
  it('--seed: the same input, seed and iteration limit give the same plan', async () => {
    for (const document of [generateProject(77, { stops: 40 }), generateOneOff(77, { stops: 40 })]) {
      const { problem } = loadProblemDocument(document);
      const first = await planFor(problem, 3, 80);
      const second = await planFor(problem, 3, 80);
      expect(reproduced(second)).toEqual(reproduced(first));
    }
  });
});

describe('pipeline property: benchmark instances (units in tenths / rounded euclidean)', () => {
  const BENCHMARKS = '/work/shared/benchmarks';
  it.each(['solomon/C101.txt', 'solomon/R201.txt', 'solomon/RC105.txt', 'cvrp-x/X-n101-k25.vrp'])(
    '%s: feasible plan, no insertable unserved stop',
    async (file) => {
      const { problem } = await loadProblemFile(`${BENCHMARKS}/${file}`);
      const plan = await planFor(problem, 0, 20);
      const violations = checkPlan(problem, plan);
      expect(violations, report(`${file} violations`, violations)).toEqual([]);
      const missed = findInsertableUnserved(problem, plan);
      expect(missed, report(`${file} unserved stops that fit`, missed)).toEqual([]);
    },
  );
});

describe('pipeline property: the checker is not vacuous on real plans', () => {
  it('a one-second shift of any served stop in a real plan is reported', async () => {
    const { problem } = loadProblemDocument(generateOneOff(5, { stops: 40 }));
    const plan = await planFor(problem, 0, 50);
    expect(checkPlan(problem, plan)).toEqual([]);
    let mutated = 0;
    for (const route of plan.routes) {
      for (const visit of route.visits) {
        if (visit.kind !== 'stop' || visit.start_s === null || visit.finish_s === null) continue;
        const copy = JSON.parse(JSON.stringify(plan)) as Plan;
        const target = copy.routes[plan.routes.indexOf(route)]!.visits[route.visits.indexOf(visit)]!;
        if (target.kind !== 'stop') continue;
        target.finish_s = visit.finish_s - 1;
        expect(checkPlan(problem, copy).length, `stop ${visit.stop_index}`).toBeGreaterThan(0);
        mutated++;
      }
    }
    expect(mutated).toBeGreaterThan(10);
  });
});

describe('pipeline property: priority is maximised first (objective level 1)', () => {
  // With a tiny iteration budget a heuristic may still miss an exchange (seen: 2 of 80 tight
  // plans at 100 iterations), so this property gives the search a working budget.
  const seeds = Array.from({ length: 3 + EXTRA_SEEDS }, (_, i) => 2000 + i);
  it.each(seeds)('tight fleet seed %i: no unserved stop can replace a served stop of lower priority', async (seed) => {
    for (const document of [generateProject(seed, { stops: 60, drivers: 2 }), generateOneOff(seed, { stops: 60, drivers: 2 })]) {
      const { problem } = loadProblemDocument(document);
      const plan = await planFor(problem, seed, 600);
      const exchanges = findPriorityExchanges(problem, plan);
      expect(exchanges, report(`seed ${seed} ${problem.surface} exchanges raising priority served`, exchanges)).toEqual([]);
    }
  });
});
