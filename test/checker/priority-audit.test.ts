/**
 * The priority audit (test/support/priority-audit.ts) on small hand-made plans: it finds a known
 * insertion, a known swap for a lower-priority stop (with its gain) and a known relocate-then-insert,
 * and counts nothing on a plan that leaves no such chance or where the move would break a rule.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import type { Plan } from '../../src/output/plan-types.js';
import { scheduleRoute } from '../../src/solver/route/schedule.js';
import type { RouteSchedule, SolveResult } from '../../src/solver/types.js';
import { checkPlan } from '../support/checker.js';
import { auditLine, auditPriority } from '../support/priority-audit.js';
import { buildProblem } from '../support/problem-builder.js';
import { DEPOT, east, west } from '../solver/helpers.js';

/** The JSON plan of exactly these routes (stop lists per vehicle), every other stop unserved. */
function planOf(problem: Problem, routes: number[][]): Plan {
  const schedules: RouteSchedule[] = [];
  const served = new Set<number>();
  routes.forEach((stops, v) => {
    if (stops.length === 0) return;
    const schedule = scheduleRoute(problem, v, stops);
    if (!schedule) throw new Error(`route ${v} is infeasible`);
    schedules.push(schedule);
    stops.forEach((s) => served.add(s));
  });
  const unserved = problem.stops
    .map((_, s) => s)
    .filter((s) => !served.has(s))
    .map((stop) => ({ stop, reason: 'dropped_for_capacity_or_time' as const, message: 'left out by the test' }));
  const result: SolveResult = {
    routes: schedules,
    unserved,
    stats: { elapsedMs: 0, iterations: 0, firstPlanMs: 0, bestFoundMs: 0, seed: 0, threads: 1, stoppedBy: 'iterations' },
  };
  const plan = JSON.parse(JSON.stringify(buildPlan(problem, result))) as Plan;
  expect(checkPlan(problem, plan, { checkReasons: false })).toEqual([]);
  return plan;
}

/**
 * Vehicle 0 has a lift and room for two, vehicle 1 no lift and room for `room`; stop 3 needs the
 * lift. Stop 0 has priority `servedPriority`, stop 3 `unservedPriority`, the others 5.
 */
function liftProblem(unservedPriority: number, servedPriority = 5, room = 2): Problem {
  return buildProblem({
    vehicles: [
      { start: DEPOT, capacity: 2, labels: ['lift'] },
      { start: DEPOT, capacity: room },
    ],
    stops: [
      { at: east(1), load: 1, priority: servedPriority },
      { at: east(2), load: 1, priority: 5 },
      { at: west(1), load: 1, priority: 5 },
      { at: east(1.5), load: 1, priority: unservedPriority, labels: ['lift'] },
    ],
  });
}

describe('priority audit', () => {
  it('finds a stop that fits as the plan stands', () => {
    const problem = liftProblem(10);
    const audit = auditPriority(problem, planOf(problem, [[0], [2]]));
    expect(audit.unserved).toBe(2);
    // Stop 1 fits either route, stop 3 (lift) vehicle 0; neither needs a relocation.
    expect(audit.inserts.map((c) => c.stop).sort()).toEqual([1, 3]);
    expect(audit.relocations).toEqual([]);
  });

  it('finds a relocate-then-insert: the lift stop fits vehicle 0 once one of its stops moves to vehicle 1', () => {
    const problem = liftProblem(10);
    const audit = auditPriority(problem, planOf(problem, [[0, 1], [2]]));
    expect(audit.inserts).toEqual([]);
    expect(audit.relocations).toHaveLength(1);
    expect(audit.relocations[0]).toMatchObject({ stop: 3, gain: 10 });
    expect(audit.relocations[0]!.move).toMatch(/^move stop [01] to vehicle 1 at \d, then insert into vehicle 0 at \d$/);
    // Stop 3 (priority 10) could also replace stop 0 or 1 (priority 5): +5.
    expect(audit.swaps.map((c) => [c.stop, c.gain])).toEqual([[3, 5]]);
  });

  it('finds no relocation when the other route has no room for the moved stop, and no swap of equal priority', () => {
    const problem = liftProblem(5, 5, 1);
    const audit = auditPriority(problem, planOf(problem, [[0, 1], [2]]));
    expect(audit.inserts).toEqual([]);
    expect(audit.relocations).toEqual([]);
    expect(audit.swaps).toEqual([]);
    expect(auditLine(audit)).toContain('insertable 0; replaceable by higher priority 0 (+0); relocate-then-insert 0');
  });

  it('finds a swap with its gain: the lift stop (priority 10) replaces stop 0 (priority 1), not stop 1 (priority 5)', () => {
    const problem = liftProblem(10, 1, 1);
    const audit = auditPriority(problem, planOf(problem, [[0, 1], [2]]));
    expect(audit.relocations).toEqual([]);
    expect(audit.swaps).toHaveLength(1);
    expect(audit.swaps[0]).toMatchObject({ stop: 3, gain: 9 });
    expect(audit.swaps[0]!.move).toMatch(/^replace stop 0 on vehicle 0/);
    expect(auditLine(audit)).toContain('replaceable by higher priority 1 (+9)');
  });

  it('counts only chances within its neighbours: with none looked at, it proves no swap or relocation', () => {
    const problem = liftProblem(10, 1);
    const audit = auditPriority(problem, planOf(problem, [[0, 1], [2]]), 0);
    expect(audit.swaps).toEqual([]);
    expect(audit.relocations).toEqual([]);
  });
});
