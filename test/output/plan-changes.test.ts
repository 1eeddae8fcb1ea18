/** What changed between two plans of a project (output/plan-changes.ts), on small plans made by hand. */
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/output/plan-changes.js';
import type { Plan, PlanRoute, PlanStopVisit } from '../../src/output/plan-types.js';

function visit(stop: string, stop_index: number): PlanStopVisit {
  const none = { arrival_s: null, start_s: null, finish_s: null, arrival: null, start: null, finish: null };
  return { kind: 'stop', stop, stop_index, location: { lat: 0, lng: 0 }, travel_s: 0, distance_m: 0, late_s: 0, load_after: 0, ...none };
}

function plan(routes: Record<string, [string, number][]>, unserved: [string, number][], working_s: number, distance_m: number): Plan {
  const planRoutes = Object.entries(routes).map(([vehicle, stops], v) => ({
    vehicle,
    vehicle_index: v,
    visits: stops.map(([name, i]) => visit(name, i)),
  }));
  return {
    version: 1,
    summary: { working_s, distance_m } as Plan['summary'],
    routes: planRoutes as unknown as PlanRoute[],
    unserved: unserved.map(([stop, stop_index]) => ({ stop, stop_index, reason: 'dropped_for_capacity_or_time', message: 'x' })),
  };
}

describe('plan changes', () => {
  it('lists stops that changed driver, were added (new or unserved before) and removed, and the totals up or down', () => {
    const before = plan(
      {
        Ana: [
          ['A', 0],
          ['B', 1],
        ],
        Ben: [['C', 2]],
      },
      [['D', 3]],
      7200,
      30_000,
    );
    const after = plan(
      {
        Ana: [['A', 0]],
        Ben: [
          ['B', 1],
          ['D', 3],
          ['E', 4],
        ],
      },
      [['C', 2]],
      6900.5,
      31_250,
    );
    expect(planChanges('first', before, after)).toEqual({
      against: 'first',
      driver_changed: [{ stop: 'B', from: 'Ana', to: 'Ben' }],
      added: [
        { stop: 'D', driver: 'Ben' },
        { stop: 'E', driver: 'Ben' },
      ],
      removed: [{ stop: 'C', driver: 'Ben' }],
      working_s: { before: 7200, after: 6900.5, delta: -299.5 },
      distance_m: { before: 30_000, after: 31_250, delta: 1250 },
    });
  });

  it('the same plan changes nothing; two stops of one name stay two, told apart by their order in the project', () => {
    const one = plan({ Ana: [['Shop', 0]], Ben: [['Shop', 1]] }, [], 100, 10);
    expect(planChanges('p', one, one)).toMatchObject({ driver_changed: [], added: [], removed: [], working_s: { delta: 0 } });
    const swapped = plan({ Ana: [['Shop', 1]], Ben: [['Shop', 0]] }, [], 100, 10);
    expect(planChanges('p', one, swapped).driver_changed).toEqual([
      { stop: 'Shop', from: 'Ana', to: 'Ben' },
      { stop: 'Shop', from: 'Ben', to: 'Ana' },
    ]);
  });
});
