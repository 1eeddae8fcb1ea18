/**
 * Issue 10, decisions.md "Night work": in a 22:00–06:00 shift a stop window 02:00–03:00 is the
 * coming night (it used to be read on the plan's own day and the stop went unserved), a break at
 * 02:00 is read the same way, and input times past 24:00 are accepted as the plan prints them.
 * Solved for real and checked by the independent checker.
 */
import { describe, expect, it } from 'vitest';
import type { PlanStopVisit } from '../../src/output/plan-types.js';
import { checkedPlanOf } from '../support/checked-plan.js';
import { driver, oneoff, order, project, route, stop } from '../input/helpers.js';

const nightDriver = driver('Nuit', { shift_start: '22:00', shift_end: '06:00' });
const visitOf = (plan: Awaited<ReturnType<typeof checkedPlanOf>>, name: string) =>
  plan.routes.flatMap((r) => r.visits).find((v): v is PlanStopVisit => v.kind === 'stop' && v.stop === name)!;

describe('night work', () => {
  it('in a 22:00–06:00 shift a stop window 02:00–03:00 is the coming night, and the stop is served then', async () => {
    const plan = await checkedPlanOf(
      project({ drivers: [nightDriver], stops: [stop('Boulangerie', { start: '02:00', end: '03:00', duration: 10 })] }),
    );
    expect(plan.unserved).toEqual([]);
    expect(visitOf(plan, 'Boulangerie').start).toMatch(/^26:/);
  });

  it('a break at 02:00 in the same shift is read the same way: it falls in the night, among the stops', async () => {
    const withBreak = driver('Nuit', { shift_start: '22:00', shift_end: '06:00', breaks: [{ start: '02:00', end: '02:30' }] });
    const plan = await checkedPlanOf(
      project({
        drivers: [withBreak],
        stops: [
          stop('Avant', { start: '01:00', end: '01:50', duration: 10 }),
          stop('Après', { start: '02:30', end: '03:00', duration: 10 }),
        ],
      }),
    );
    expect(plan.unserved).toEqual([]);
    const visits = plan.routes[0]!.visits.map((visit) => (visit.kind === 'break' ? `break ${visit.start}` : visit.stop));
    expect(visits).toEqual(['Avant', 'break 26:00', 'Après']);
  });

  it('a window on the plan\u2019s own evening stays there: only windows ending at or before the shift start move', async () => {
    const plan = await checkedPlanOf(
      project({ drivers: [nightDriver], stops: [stop('Soir', { start: '21:00', end: '23:00', duration: 10 })] }),
    );
    expect(visitOf(plan, 'Soir').start).toMatch(/^22:/);
  });

  it('input times past 24:00 are accepted (25:30), in projects and one-offs alike', async () => {
    const projectPlan = await checkedPlanOf(
      project({ drivers: [nightDriver], stops: [stop('Tard', { start: '25:30', end: '26:00', duration: 5 })] }),
    );
    expect(visitOf(projectPlan, 'Tard').start).toBe('25:30');
    const oneoffPlan = await checkedPlanOf(
      oneoff({
        routesData: [route('Nuit', { startTime: '22:00', endTime: '30:00' })],
        ordersData: [order('Tard', { timeWindows: [{ startTime: '25:30', endTime: '26:00' }], duration: 5 })],
      }),
    );
    expect(visitOf(oneoffPlan, 'Tard').start).toBe('25:30');
  });
});
