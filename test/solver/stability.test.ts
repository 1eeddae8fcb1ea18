/**
 * Re-optimizing a day under way (issue 24): a stop's preferred vehicle (its dispatched driver) is
 * a level of the objective below priority and above cost, and a vehicle may go on from another
 * place at a later time (the day's fixed prefix). Every plan passes the independent checker.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import type { SolveResult } from '../../src/solver/types.js';
import { checkPlan, findInsertableUnserved, findReturnableMoved } from '../support/checker.js';
import { buildProblem } from '../support/problem-builder.js';
import { DEPOT, east, reasonOf, servedStops, stopVisits, west } from './helpers.js';

const quick = { timeLimitMs: 10_000, seed: 0, maxIterations: 100 };

function checked(problem: Problem, result: SolveResult): string[] {
  const plan = JSON.parse(JSON.stringify(buildPlan(problem, result)));
  return [...checkPlan(problem, plan), ...findInsertableUnserved(problem, plan), ...findReturnableMoved(problem, plan)];
}

function servedBy(problem: Problem, result: SolveResult): Array<string | undefined> {
  const names: Array<string | undefined> = problem.stops.map(() => undefined);
  for (const route of result.routes) for (const visit of stopVisits(route)) names[visit.stop] = problem.vehicles[route.vehicle]!.name;
  return names;
}

describe('a stop that prefers its dispatched vehicle', () => {
  it('stays with it though another vehicle would serve it for far less distance', async () => {
    const spec = {
      vehicles: [
        { name: 'Ann', start: east(30) },
        { name: 'Ben', start: DEPOT },
      ],
      stops: [{ at: west(1) }, { at: west(2) }],
    };
    const free = buildProblem(spec);
    const freeResult = await solve(free, quick);
    expect(servedBy(free, freeResult)).toEqual(['Ben', 'Ben']);
    const kept = buildProblem({ ...spec, stops: spec.stops.map((stop) => ({ ...stop, prefer: 'Ann' })) });
    const result = await solve(kept, quick);
    expect(servedBy(kept, result)).toEqual(['Ann', 'Ann']);
    expect(checked(kept, result)).toEqual([]);
  });

  it('stays with it though it is late there (within the permitted lateness) and on time elsewhere', async () => {
    const spec = {
      vehicles: [
        { name: 'Ann', start: east(30), shiftStart: '08:00' },
        { name: 'Ben', start: DEPOT, shiftStart: '08:00' },
      ],
      stops: [{ at: west(1), windows: [['08:00', '08:30']] as Array<[string, string]>, maxLatenessMin: 60 }],
    };
    const free = buildProblem(spec);
    expect(servedBy(free, await solve(free, quick))).toEqual(['Ben']);
    const kept = buildProblem({ ...spec, stops: spec.stops.map((stop) => ({ ...stop, prefer: 'Ann' })) });
    const result = await solve(kept, quick);
    expect(servedBy(kept, result)).toEqual(['Ann']);
    expect(result.routes[0]!.lateness).toBeGreaterThan(0);
    expect(checkPlan(kept, JSON.parse(JSON.stringify(buildPlan(kept, result))))).toEqual([]);
  });

  it('moves when that lets more priority be served, and only the one stop that has to', async () => {
    // Ann can take one stop (capacity 1): keeping both with her would leave one unserved.
    const problem = buildProblem({
      vehicles: [
        { name: 'Ann', start: DEPOT, capacity: 1 },
        { name: 'Ben', start: east(30), capacity: 5 },
      ],
      stops: [
        { at: east(1), load: 1, prefer: 'Ann', priority: 5 },
        { at: east(2), load: 1, prefer: 'Ann', priority: 5 },
        { at: east(3), load: 1, prefer: 'Ann', priority: 5 },
      ],
    });
    const result = await solve(problem, quick);
    const served = servedBy(problem, result);
    expect(served.every((name) => name !== undefined)).toBe(true);
    expect(served.filter((name) => name === 'Ann')).toHaveLength(1);
    expect(checked(problem, result)).toEqual([]);
  });

  it('gives way to a stop of higher priority that only its vehicle can reach', async () => {
    // Ann ends at 09:30: she has time for one stop. Only she may serve the urgent new stop (no
    // preference; it needs her type), so the dispatched one moves to Ben rather than leave it out.
    const problem = buildProblem({
      surface: 'project',
      vehicles: [
        { name: 'Ann', start: DEPOT, shiftStart: '09:00', shiftEnd: '09:30', end: null, labels: ['cold'] },
        { name: 'Ben', start: east(5), shiftStart: '09:00', shiftEnd: '12:00' },
      ],
      stops: [
        { at: east(1), durationMin: 20, prefer: 'Ann', priority: 5 },
        { at: west(1), durationMin: 20, priority: 10, labels: ['cold'] },
      ],
    });
    const result = await solve(problem, quick);
    expect(servedBy(problem, result)).toEqual(['Ben', 'Ann']);
    expect(checked(problem, result)).toEqual([]);
  });

  it('yields to a lock, and a lock that cannot be kept is locked_driver_cannot_serve', async () => {
    const problem = buildProblem({
      surface: 'project',
      vehicles: [
        { name: 'Ann', start: DEPOT, labels: ['van'] },
        { name: 'Ben', start: DEPOT, labels: ['cold'] },
      ],
      stops: [
        { at: east(1), labels: ['cold'], lock: { driver: 'Ann' }, prefer: 'Ben' },
        { at: east(2), labels: ['cold'], lock: { driver: 'Ben' }, prefer: 'Ann' },
      ],
    });
    const result = await solve(problem, quick);
    expect(servedStops(result)).toEqual([1]);
    expect(reasonOf(result, 0)).toBe('locked_driver_cannot_serve');
    expect(servedBy(problem, result)[1]).toBe('Ben');
    expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, result))))).toEqual([]);
  });
});
