/** The objective, the unserved reasons and the stopping rules of `solve`. */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import { scheduleRoute } from '../../src/solver/route/schedule.js';
import { buildProblem, randomProblem } from '../support/problem-builder.js';
import { DEPOT, east, H, MIN, reasonOf, servedStops, stopVisits, west } from './helpers.js';
import { checkInvariants } from './invariants.js';

const quick = { timeLimitMs: 10_000, seed: 0, maxIterations: 100 };

describe('objective', () => {
  it('priority: one stop of 10 loses to three of 5', async () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, capacity: 3 }],
      stops: [
        { at: east(2), load: 3, priority: 10 },
        { at: west(2), load: 1, priority: 5 },
        { at: west(3), load: 1, priority: 5 },
        { at: west(4), load: 1, priority: 5 },
      ],
    });
    const result = await solve(problem, quick);
    expect(servedStops(result)).toEqual([1, 2, 3]);
    expect(reasonOf(result, 0)).toBe('dropped_for_capacity_or_time');
  });

  it('priority: one stop of 20 beats three of 5', async () => {
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, capacity: 3 }],
      stops: [
        { at: east(2), load: 3, priority: 20 },
        { at: west(2), load: 1, priority: 5 },
        { at: west(3), load: 1, priority: 5 },
        { at: west(4), load: 1, priority: 5 },
      ],
    });
    const result = await solve(problem, quick);
    expect(servedStops(result)).toEqual([0]);
  });

  it('permitted violations are minimised before cost', async () => {
    // Serving the far stop first avoids its lateness at the price of a longer route.
    const problem = buildProblem({
      vehicles: [{ start: DEPOT, shiftStart: '08:00', flexibleStart: false }],
      stops: [
        { at: east(2), durationMin: 30 },
        { at: east(20), windows: [['08:00', '09:00']], durationMin: 10, maxLatenessMin: Infinity },
      ],
    });
    const result = await solve(problem, quick);
    expect(result.routes[0]!.lateness).toBe(0);
    expect(stopVisits(result.routes[0]!).map((x) => x.stop)).toEqual([1, 0]);
  });

  it('minimizeRoutes prefers fewer routes over a shorter total', async () => {
    const stops = [{ at: east(5) }, { at: west(5) }];
    const vehicles = [{ start: DEPOT }, { start: DEPOT }];
    const spread = await solve(buildProblem({ vehicles, stops, objective: { cost: 'distance' } }), quick);
    const packed = await solve(buildProblem({ vehicles, stops, objective: { cost: 'distance', minimizeRoutes: true } }), quick);
    expect(packed.routes).toHaveLength(1);
    // Without the flag both stops still fit one route: distance is equal either way, so only check feasibility.
    expect(spread.routes.length).toBeGreaterThanOrEqual(1);
  });

  it('balanceType orders spreads the orders over the routes', async () => {
    const stops = Array.from({ length: 8 }, (_, i) => ({ at: east(1 + i * 0.2) }));
    const vehicles = [{ start: DEPOT }, { start: DEPOT }];
    const balanced = await solve(buildProblem({ vehicles, stops, objective: { balance: 'orders' } }), quick);
    const counts = balanced.routes.map((r) => stopVisits(r).length);
    expect(counts).toHaveLength(2);
    expect(Math.abs(counts[0]! - counts[1]!)).toBeLessThanOrEqual(1);
    const plain = await solve(buildProblem({ vehicles, stops }), quick);
    expect(plain.routes).toHaveLength(1);
  });

  it('cost distance minimises distance, cost time minimises working time', async () => {
    const problem = randomProblem(3, { stops: 40, vehicles: 4 });
    const result = await solve(problem, { ...quick, maxIterations: 300 });
    const construction = await solve(problem, { ...quick, maxIterations: 0 });
    const working = (r: typeof result) => r.routes.reduce((a, x) => a + x.working, 0);
    expect(result.unserved.length).toBeLessThanOrEqual(construction.unserved.length);
    if (result.unserved.length === construction.unserved.length) {
      expect(working(result)).toBeLessThanOrEqual(working(construction));
    }
  });
});

describe('unserved reasons', () => {
  const solveOne = async (spec: Parameters<typeof buildProblem>[0]) => {
    const result = await solve(buildProblem(spec), quick);
    return result.unserved;
  };

  it('missing_location', async () => {
    const unserved = await solveOne({ vehicles: [{ start: DEPOT }], stops: [{ at: null }] });
    expect(unserved[0]!.reason).toBe('missing_location');
  });

  it('no_compatible_vehicle', async () => {
    const unserved = await solveOne({ vehicles: [{ start: DEPOT, labels: ['a'] }], stops: [{ at: east(2), labels: ['b'] }] });
    expect(unserved[0]!.reason).toBe('no_compatible_vehicle');
    expect(unserved[0]!.message).toContain('b');
  });

  it('duration_exceeds_window', async () => {
    const unserved = await solveOne({
      vehicles: [{ start: DEPOT }],
      stops: [
        {
          at: east(2),
          windows: [
            ['09:00', '09:20'],
            ['10:00', '10:15'],
          ],
          durationMin: 30,
        },
      ],
    });
    expect(unserved[0]!.reason).toBe('duration_exceeds_window');
  });

  it('load_exceeds_capacity', async () => {
    const unserved = await solveOne({ vehicles: [{ start: DEPOT, capacity: 5 }], stops: [{ at: east(2), load: 6 }] });
    expect(unserved[0]!.reason).toBe('load_exceeds_capacity');
  });

  it('unreachable_in_shift', async () => {
    const unserved = await solveOne({
      vehicles: [{ start: DEPOT, shiftStart: '08:00', shiftEnd: '09:00' }],
      stops: [{ at: east(100) }],
    });
    expect(unserved[0]!.reason).toBe('unreachable_in_shift');
  });

  it('dropped_for_capacity_or_time names capacity when the vehicles are full', async () => {
    const unserved = await solveOne({
      vehicles: [{ start: DEPOT, capacity: 2 }],
      stops: [
        { at: east(2), load: 1 },
        { at: east(3), load: 1 },
        { at: east(4), load: 1 },
      ],
    });
    expect(unserved).toHaveLength(1);
    expect(unserved[0]!.reason).toBe('dropped_for_capacity_or_time');
    expect(unserved[0]!.message).toContain('capacity');
  });

  it('dropped_for_capacity_or_time names time when the shift is full', async () => {
    const unserved = await solveOne({
      vehicles: [{ start: DEPOT, shiftStart: '08:00', shiftEnd: '10:00' }],
      stops: [
        { at: east(2), durationMin: 50 },
        { at: east(2.5), durationMin: 50 },
        { at: east(3), durationMin: 50 },
      ],
    });
    expect(unserved).toHaveLength(1);
    expect(unserved[0]!.reason).toBe('dropped_for_capacity_or_time');
    expect(unserved[0]!.message).toContain('time');
  });
});

describe('stopping and reproducibility', () => {
  const signature = (result: Awaited<ReturnType<typeof solve>>) =>
    JSON.stringify({
      routes: result.routes.map((r) => [r.vehicle, stopVisits(r).map((x) => x.stop)]),
      unserved: result.unserved,
    });

  it('determinism for a seed and iteration limit', async () => {
    const problem = randomProblem(11, { stops: 80, vehicles: 6, allFeatures: true });
    const a = await solve(problem, { timeLimitMs: 60_000, seed: 7, maxIterations: 150 });
    const b = await solve(problem, { timeLimitMs: 60_000, seed: 7, maxIterations: 150 });
    expect(a.stats.stoppedBy).toBe('iterations');
    expect(a.stats.iterations).toBe(150);
    expect(signature(a)).toBe(signature(b));
  });

  it('time limit kept', async () => {
    const problem = randomProblem(12, { stops: 200, vehicles: 12 });
    const limit = 1500;
    const result = await solve(problem, { timeLimitMs: limit, seed: 0, stopWhenStalled: false });
    expect(result.stats.stoppedBy).toBe('time');
    expect(result.stats.elapsedMs).toBeLessThanOrEqual(limit * 1.05);
    expect(checkInvariants(problem, result)).toEqual([]);
  });

  it('abort returns the best plan so far', async () => {
    const problem = randomProblem(13, { stops: 120, vehicles: 8 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await solve(problem, { timeLimitMs: 60_000, seed: 0, signal: controller.signal });
    expect(result.stats.stoppedBy).toBe('aborted');
    expect(checkInvariants(problem, result)).toEqual([]);
  });

  it('per-operator counters: every local-search operator, tries at least its improvements; not in the JSON plan', async () => {
    const problem = randomProblem(14, { stops: 60, vehicles: 5 });
    const result = await solve(problem, { timeLimitMs: 60_000, seed: 0, maxIterations: 50, operatorStats: true });
    const operators = result.stats.operators ?? [];
    expect(operators.map((op) => op.name)).toEqual(['relocate', 'swap', '2-opt*', '2-opt', 'or-opt-2', 'or-opt-3', 'empty-route', 'swap*']);
    for (const op of operators) {
      expect(op.tries).toBeGreaterThanOrEqual(op.improvements);
      expect(op.ms).toBeGreaterThanOrEqual(0);
    }
    expect(operators.reduce((sum, op) => sum + op.tries, 0)).toBeGreaterThan(0);
    expect(operators.reduce((sum, op) => sum + op.improvements, 0)).toBeGreaterThan(0);
    expect(JSON.stringify(buildPlan(problem, result))).not.toContain('operators');
  });

  it('per-operator counters are off unless asked for (counting costs time in the hottest loop)', async () => {
    const problem = randomProblem(14, { stops: 60, vehicles: 5 });
    const result = await solve(problem, { timeLimitMs: 60_000, seed: 0, maxIterations: 50 });
    expect(result.stats.operators).toBeUndefined();
  });

  it('by default the search stops once the plan stops improving, long before a generous time limit', async () => {
    const problem = buildProblem({ vehicles: [{ start: DEPOT }], stops: [{ at: east(2) }, { at: west(3) }, { at: east(4) }] });
    const result = await solve(problem, { timeLimitMs: 600_000, seed: 0 });
    expect(result.stats.stoppedBy).toBe('no_improvement');
    expect(result.stats.bestFoundMs).toBeLessThanOrEqual(result.stats.elapsedMs);
    expect(result.stats.firstPlanMs).toBeLessThanOrEqual(result.stats.bestFoundMs);
    expect(checkInvariants(problem, result)).toEqual([]);
  });

  it('under an iteration limit the stall stop is off, so a seed and a count reproduce the plan', async () => {
    const problem = buildProblem({ vehicles: [{ start: DEPOT }], stops: [{ at: east(2) }, { at: west(3) }] });
    const result = await solve(problem, { timeLimitMs: 600_000, seed: 0, maxIterations: 3_000 });
    expect([result.stats.stoppedBy, result.stats.iterations]).toEqual(['iterations', 3_000]);
  });

  it('stopWhenStalled: false searches for the whole time limit', async () => {
    const problem = buildProblem({ vehicles: [{ start: DEPOT }], stops: [{ at: east(2) }, { at: west(3) }] });
    const result = await solve(problem, { timeLimitMs: 300, seed: 0, stopWhenStalled: false });
    expect(result.stats.stoppedBy).toBe('time');
  });

  it('maxNoImprove stops the search', async () => {
    const problem = buildProblem({ vehicles: [{ start: DEPOT }], stops: [{ at: east(2) }, { at: east(3) }] });
    const result = await solve(problem, { timeLimitMs: 60_000, seed: 0, maxNoImprove: 25 });
    expect(result.stats.stoppedBy).toBe('no_improvement');
    expect(result.stats.iterations).toBeGreaterThanOrEqual(25);
  });

  it('onProgress reports the best plan so far', async () => {
    const problem = randomProblem(14, { stops: 60, vehicles: 5 });
    const seen: number[] = [];
    await solve(problem, { ...quick, onProgress: (p) => seen.push(p.served + p.unserved) });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((n) => n === 60)).toBe(true);
  });

  it('onProgress: the first report is the complete construction, before any search iteration', async () => {
    const problem = randomProblem(16, { stops: 80, vehicles: 6 });
    const reports: Array<{ iterations: number; total: number }> = [];
    await solve(problem, {
      timeLimitMs: 60_000,
      seed: 0,
      maxIterations: 30,
      onProgress: (p) => reports.push({ iterations: p.iterations, total: p.served + p.unserved }),
    });
    expect(reports[0]).toEqual({ iterations: 0, total: 80 });
    expect(reports.at(-1)!.iterations).toBe(30);
  });

  it('an empty problem solves to an empty plan', async () => {
    const none = await solve(buildProblem({ vehicles: [{ start: DEPOT }], stops: [] }), quick);
    expect(none.routes).toEqual([]);
    const noVehicles = await solve(buildProblem({ vehicles: [], stops: [{ at: east(1) }] }), quick);
    expect(noVehicles.unserved[0]!.reason).toBe('no_compatible_vehicle');
  });

  it('the returned routes are what scheduleRoute gives for them', async () => {
    const problem = randomProblem(15, { stops: 50, vehicles: 4, allFeatures: true });
    const result = await solve(problem, quick);
    for (const route of result.routes) {
      expect(
        scheduleRoute(
          problem,
          route.vehicle,
          stopVisits(route).map((x) => x.stop),
        ),
      ).toEqual(route);
    }
    expect(H).toBe(60 * MIN);
  });
});
