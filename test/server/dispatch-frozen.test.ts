/** freezePlan: what a (re-)dispatch copies out of the plan and the project, and what it carries over. */
import { describe, expect, it } from 'vitest';
import { freezePlan, linkExpiryMs, type FrozenDispatch } from '../../src/server/services/dispatch/frozen.js';
import type { Plan, PlanRoute } from '../../src/output/plan-types.js';
import type { ProjectRecord } from '../../src/server/services/projects.js';
import { cannedPlan } from './harness.js';

const project: ProjectRecord = {
  id: 'p1',
  name: 'Rounds',
  date: '2026-11-23',
  drivers: [
    { id: 'd-ana', name: 'Ana', phone_number: '+33 6' },
    { id: 'd-ben', name: 'Ben' },
  ],
  stops: [
    { id: 's-a', name: 'A', location: { address: '1 Main St', coords: { lat: 1, lng: 1 } }, email: 'a@example.com' },
    { id: 's-b', name: 'B', location: { coords: { lat: 2, lng: 2 } }, custom_notes: { gate: 4 } },
    { id: 's-c', name: 'C', location: { coords: { lat: 3, lng: 3 } } },
  ],
  settings: {},
  url: 'http://x/projects/p1',
  created_at: '2026-11-20T00:00:00Z',
};

function route(vehicleIndex: number, stops: [index: number, start: number][], endS = 40_000): PlanRoute {
  const visits = stops.map(([index, start]) => ({
    kind: 'stop' as const,
    stop: String(project.stops[index]!.name),
    stop_index: index,
    location: { lat: index + 1, lng: index + 1 },
    travel_s: 0,
    distance_m: 0,
    arrival_s: start,
    start_s: start,
    finish_s: start + 600,
    arrival: null,
    start: null,
    finish: null,
    late_s: 0,
    load_after: 0,
  }));
  return {
    vehicle: String(project.drivers[vehicleIndex]!.name),
    vehicle_index: vehicleIndex,
    start: { time_s: 28_800, time: '08:00', location: { lat: 0, lng: 0 } },
    visits,
    end: { time_s: endS, time: '', location: null, travel_s: 0, distance_m: 0 },
    distance_m: 0,
    driving_s: 0,
    service_s: 0,
    waiting_s: 0,
    break_s: 0,
    working_s: 0,
    overtime_s: 0,
    lateness_s: 0,
    load: 0,
  };
}

function planOf(...routes: PlanRoute[]): Plan {
  return { ...cannedPlan('x'), routes, unserved: [] };
}

let tokens = 0;
const frame = {
  actionUuid: 'a1',
  dispatchedAt: '2026-11-23T06:00:00Z',
  expiresAt: '2026-11-25T00:00:00Z',
  newToken: () => `t${++tokens}`,
  etaMarginS: 1_800,
};

describe('freezePlan', () => {
  it('copies the stops in route order with their driver, address, e-mail and custom notes, and links only drivers with stops', () => {
    const frozen = freezePlan(
      'owner',
      project,
      planOf(
        route(0, [
          [1, 30_000],
          [0, 31_000],
        ]),
      ),
      frame,
      null,
    );
    expect(frozen.stops.map((stop) => [stop.stop_id, stop.driver_id, stop.status, stop.changed])).toEqual([
      ['s-b', 'd-ana', 'planned', true],
      ['s-a', 'd-ana', 'planned', true],
    ]);
    expect(frozen.stops[1]).toMatchObject({ address: '1 Main St', email: 'a@example.com', start_s: 31_000, finish_s: 31_600 });
    expect(frozen.stops[0]!.custom_notes).toEqual({ gate: 4 });
    expect(frozen.drivers.map((driver) => [driver.driver_id, driver.phone_number, driver.start])).toEqual([
      ['d-ana', '+33 6', { lat: 0, lng: 0, time_s: 28_800 }],
    ]);
  });

  it('on a re-dispatch keeps tokens and reports, marks only moved stops changed, and keeps a linked driver whose route emptied', () => {
    const first = freezePlan(
      'owner',
      project,
      planOf(
        route(0, [
          [0, 30_000],
          [1, 31_000],
        ]),
        route(1, [[2, 30_000]]),
      ),
      frame,
      null,
    );
    first.stops[0]!.status = 'done';
    first.stops[0]!.at = '2026-11-23T08:30:00Z';
    const previous: FrozenDispatch = first;
    // A stays put, B moves later, C moves from Ben to Ana; Ben has nothing left.
    const second = freezePlan(
      'owner',
      project,
      planOf(
        route(0, [
          [0, 30_000],
          [1, 32_000],
          [2, 33_000],
        ]),
      ),
      frame,
      previous,
    );
    expect(second.stops.map((stop) => [stop.stop_id, stop.status, stop.changed])).toEqual([
      ['s-a', 'done', false],
      ['s-b', 'planned', true],
      ['s-c', 'planned', true],
    ]);
    expect(second.drivers.map((driver) => [driver.driver_id, driver.token])).toEqual(
      first.drivers.map((driver) => [driver.driver_id, driver.token]),
    );
    expect(second.drivers[1]!.start).toBeUndefined();
  });
});

describe('freezePlan: what customers keep', () => {
  it('gives each stop its own tracking token and the planned arrival ± the margin in quarter hours', () => {
    const frozen = freezePlan('owner', project, planOf(route(0, [[0, 30_000]]), route(1, [[1, 31_000]])), frame, null);
    const [a, b] = frozen.stops;
    expect(a!.tracking_token).toMatch(/^t\d+$/);
    expect(new Set([a!.tracking_token, b!.tracking_token, ...frozen.drivers.map((driver) => driver.token)]).size).toBe(4);
    // 30,000 s = 08:20 → 07:50–08:50 → 07:45–09:00; 31,000 s = 08:36:40 → 08:06:40–09:06:40 → 08:00–09:15.
    expect(a!.promised).toEqual({ start_s: 27_900, end_s: 32_400 });
    expect(b!.promised).toEqual({ start_s: 28_800, end_s: 33_300 });
    expect(frozen.retired_tracking_tokens).toEqual([]);
  });

  it('on a re-dispatch keeps the token of a stop that stays, its promise unless it moved, and retires the token of a stop dropped', () => {
    const first = freezePlan(
      'owner',
      project,
      planOf(
        route(0, [[0, 30_000]]),
        route(1, [
          [1, 31_000],
          [2, 32_000],
        ]),
      ),
      frame,
      null,
    );
    first.stops[0]!.promised = { start_s: 36_000, end_s: 39_600 }; // revised since
    first.stops[0]!.revised_at = '2026-11-23T08:00:00Z';
    const second = freezePlan(
      'owner',
      project,
      planOf(
        route(0, [
          [0, 30_000],
          [1, 35_000],
        ]),
      ),
      frame,
      first,
    );
    const [a, b] = second.stops;
    expect([a!.tracking_token, b!.tracking_token]).toEqual([first.stops[0]!.tracking_token, first.stops[1]!.tracking_token]);
    expect([a!.promised, a!.revised_at]).toEqual([{ start_s: 36_000, end_s: 39_600 }, '2026-11-23T08:00:00Z']);
    // B moved to 35,000 s = 09:43:20: a new promise, 09:00–10:15.
    expect([b!.changed, b!.promised, b!.revised_at]).toEqual([true, { start_s: 32_400, end_s: 36_900 }, undefined]);
    expect(second.retired_tracking_tokens).toEqual([first.stops[2]!.tracking_token]);
    const third = freezePlan('owner', project, planOf(route(0, [[0, 30_000]])), frame, second);
    expect(third.retired_tracking_tokens).toEqual([first.stops[2]!.tracking_token, b!.tracking_token]);
  });
});

describe('freezePlan: a stop that moved within its window', () => {
  it('keeps its promise and the time of its last revision', () => {
    const first = freezePlan('owner', project, planOf(route(0, [[0, 30_000]])), frame, null);
    first.stops[0]!.revised_at = '2026-11-23T07:00:00Z';
    // 30,000 s → 30,120 s (08:22): the same 07:45–09:00 window.
    const second = freezePlan('owner', project, planOf(route(0, [[0, 30_120]])), frame, first);
    expect([second.stops[0]!.changed, second.stops[0]!.promised, second.stops[0]!.revised_at]).toEqual([
      true,
      { start_s: 27_900, end_s: 32_400 },
      '2026-11-23T07:00:00Z',
    ]);
  });
});

describe('linkExpiryMs', () => {
  it('is the end of the date in UTC plus the grace, or the end of an overnight route', () => {
    expect(linkExpiryMs('2026-11-23', planOf(route(0, [[0, 30_000]])), 3_600_000)).toBe(Date.parse('2026-11-24T01:00:00Z'));
    expect(linkExpiryMs('2026-11-23', planOf(route(0, [[0, 30_000]], 100_000)), 0)).toBe(Date.parse('2026-11-24T03:46:40Z'));
    expect(linkExpiryMs('someday', planOf(route(0, [[0, 30_000]])), 0)).toBeNaN();
  });
});
