/**
 * A plan made by hand (decisions.md, "Editing a project and re-planning the day"): the routes as
 * given, timed by the solver's exact route evaluator, and every rule they break, each checked
 * against what the independent checker (test/support/checker.ts) finds wrong with the same plan.
 */
import { describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import { timeHandPlan } from '../../src/output/hand-plan.js';
import type { Problem } from '../../src/model/problem.js';
import { scheduleRoute } from '../../src/solver/route/schedule.js';
import { checkPlan } from '../support/checker.js';

const depot = { coords: { lat: 45.76, lng: 4.83 } };
const at = (lat: number, lng: number): Record<string, unknown> => ({ coords: { lat, lng } });

/** Ana: a one-hour shift, room for 2, a fridge; Ben: all day, room for 5, no types. */
function handProject(settings: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'By hand',
    date: '2026-11-23',
    drivers: [
      { name: 'Ana', start_location: depot, shift_start: '08:00', shift_end: '09:00', capacity: 2, types: ['fridge'] },
      { name: 'Ben', start_location: depot, shift_start: '08:00', shift_end: '17:00', capacity: 5 },
    ],
    stops: [
      { name: 'Plain 1', location: at(45.77, 4.84), duration: 30 },
      { name: 'Plain 2', location: at(45.75, 4.85), duration: 30 },
      { name: 'Early', location: at(45.76, 4.86), duration: 10, start: '08:00', end: '08:20' },
      { name: 'Fridge', location: at(45.78, 4.82), duration: 10, types: ['fridge'] },
      { name: 'Locked', location: at(45.74, 4.82), duration: 10, driver: 'Ana' },
      { name: 'Seq 1', location: at(45.73, 4.83), duration: 5, driver: 'Ana', sequence: 1 },
      { name: 'Seq 2', location: at(45.72, 4.83), duration: 5, driver: 'Ana', sequence: 2 },
    ],
    settings,
  };
}

function problemOf(document: unknown): Problem {
  return loadProblemDocument(document, { expect: 'project' }).problem;
}

describe('timing a plan made by hand', () => {
  it('names each violation by kind, route and stop, in words and numbers; the checker finds exactly these rules broken', () => {
    const problem = problemOf(handProject());
    const { plan, violations } = timeHandPlan(problem, [
      { vehicle: 0, stops: [0, 1, 2] },
      { vehicle: 1, stops: [3, 4] },
    ]);
    const early = plan.routes[0]!.visits[2]!;
    expect(early.kind === 'stop' && early.late_s).toBeGreaterThan(0);
    const late = early.kind === 'stop' ? early.late_s : 0;
    const overtime = plan.routes[0]!.overtime_s;
    expect(violations).toEqual([
      {
        kind: 'late',
        driver: 'Ana',
        vehicle_index: 0,
        stop: 'Early',
        stop_index: 2,
        amount: late,
        permitted: false,
        message: "late by 1 h 00 min (past its window's end)",
      },
      {
        kind: 'overtime',
        driver: 'Ana',
        vehicle_index: 0,
        amount: overtime,
        permitted: false,
        message: 'overtime: the shift end is passed by 20 min',
      },
      {
        kind: 'overload',
        driver: 'Ana',
        vehicle_index: 0,
        amount: 1,
        dimension: '',
        permitted: false,
        message: 'overload: load 3 of a capacity of 2 (1 over)',
      },
      {
        kind: 'incompatible_types',
        driver: 'Ben',
        vehicle_index: 1,
        stop: 'Fridge',
        stop_index: 3,
        permitted: false,
        message: 'needs types fridge; Ben has none',
      },
      {
        kind: 'lock_broken',
        driver: 'Ben',
        vehicle_index: 1,
        stop: 'Locked',
        stop_index: 4,
        permitted: false,
        message: "locked to Ana, on Ben's route",
      },
    ]);
    // The checker's view of the same plan: these rules broken and nothing else (its lateness sum
    // leaves out a service it finds in no window at all).
    expect(checkPlan(problem, plan)).toEqual([
      'route 0 (Ana) visit 2 (stop 2 "Early"): service [32994, 33594] fits no window [28800, 30000] (max lateness 0)',
      'route 0 (Ana): load 3 on dimension "" exceeds capacity 2',
      'route 0 (Ana): ends at 33594, past shift end 32400 + allowed overtime 0',
      `route 0 (Ana): lateness_s = ${late} (units), recomputed 0`,
      'route 1 (Ben) visit 0 (stop 3 "Fridge"): vehicle 1 "Ben" is not compatible with the stop (types/tags)',
      'route 1 (Ben) visit 1 (stop 4 "Locked"): vehicle 1 "Ben" is not compatible with the stop (types/tags)',
      'route 1 (Ben): lock not kept: stop 4 is locked to driver "Ana", served by "Ben"',
    ]);
    expect([late, overtime]).toEqual([33594 - 30000, 33594 - 32400]);
  });

  it('a sequence lock served out of order is a broken lock; stops left out keep the reasons the checker expects', () => {
    const problem = problemOf(handProject());
    const { plan, violations } = timeHandPlan(problem, [{ vehicle: 0, stops: [6, 5] }]);
    expect(violations).toEqual([
      {
        kind: 'lock_broken',
        driver: 'Ana',
        vehicle_index: 0,
        stop: 'Seq 1',
        stop_index: 5,
        permitted: false,
        message: 'locked as number 1 of Ana, served after Seq 2 (number 2)',
      },
    ]);
    expect(checkPlan(problem, plan)).toEqual(['route 0 (Ana): lock not kept: stop 5 (sequence 1) is served after stop 6 (sequence 2)']);
    expect(plan.unserved.map((entry) => [entry.stop, entry.reason])).toEqual([
      ['Plain 1', 'dropped_for_capacity_or_time'],
      ['Plain 2', 'dropped_for_capacity_or_time'],
      ['Early', 'dropped_for_capacity_or_time'],
      ['Fridge', 'dropped_for_capacity_or_time'],
      ['Locked', 'locked_driver_cannot_serve'],
    ]);
  });

  it('lateness the project permits (max_stop_lateness) is listed as permitted, and a feasible route has none and the times the solver gives it', () => {
    const problem = problemOf(handProject({ max_stop_lateness: 120, max_driver_overtime: 60 }));
    const { plan, violations } = timeHandPlan(problem, [{ vehicle: 0, stops: [0, 1, 2] }]);
    expect(violations.filter((v) => v.kind === 'late' || v.kind === 'overtime').map((v) => [v.kind, v.permitted])).toEqual([
      ['late', true],
      ['overtime', true],
    ]);
    const feasible = timeHandPlan(problem, [{ vehicle: 1, stops: [2, 0, 1] }]);
    expect(feasible.violations).toEqual([]);
    expect(checkPlan(problem, feasible.plan)).toEqual([]);
    // The same times as the solver's own schedule of that route: one evaluator, one timing rule.
    const solverEnd = scheduleRoute(problem, 1, [2, 0, 1])!.end;
    expect(feasible.plan.routes[0]!.end.time_s).toBe(solverEnd);
    expect(plan.solver).toBeUndefined();
  });
});
