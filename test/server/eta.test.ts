/**
 * The live estimates (dispatch/eta.ts): a driver's remaining stops re-timed from a report by the
 * solver's exact route evaluator, on a real solved and dispatched plan (checked by the
 * independent checker), compared with the plan's own times.
 */
import { describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import type { Plan } from '../../src/output/plan-types.js';
import { retimeRoutes } from '../../src/solver/retime.js';
import { checkPlan } from '../support/checker.js';
import {
  applyEstimates,
  estimatesOf,
  remainingStops,
  restOfRouteDocument,
  type ReportPlace,
} from '../../src/server/services/dispatch/eta.js';
import { freezePlan, type FrozenDispatch, type FrozenStop } from '../../src/server/services/dispatch/frozen.js';
import type { ProjectRecord } from '../../src/server/services/projects.js';
import { checkedPlanOf } from '../support/checked-plan.js';

const DEPOT = { lat: 45.75, lng: 4.85 };

/** Ana serves A, B, C, D east of the depot in this order (locked), from 08:00 sharp; C must be done by 09:00. */
function day(overrides: { shiftEnd?: string; windowB?: [string, string]; windowC?: boolean } = {}): Record<string, unknown> {
  const stop = (name: string, index: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    name,
    location: { coords: { lat: 45.75, lng: 4.86 + index * 0.01 } },
    duration: 10,
    driver: 'Ana',
    sequence: index + 1,
    ...extra,
  });
  const windowB = overrides.windowB ? { start: overrides.windowB[0], end: overrides.windowB[1] } : {};
  return {
    name: 'Live day',
    date: '2026-11-23',
    settings: { time_zone: 'UTC', strict_start: true },
    drivers: [{ name: 'Ana', start_location: { coords: DEPOT }, shift_start: '08:00', shift_end: overrides.shiftEnd ?? '12:00' }],
    stops: [
      stop('A', 0),
      stop('B', 1, windowB),
      stop('C', 2, overrides.windowC === false ? {} : { start: '08:00', end: '09:00' }),
      stop('D', 3),
    ],
  };
}

function recordOf(document: Record<string, unknown>): ProjectRecord {
  const withIds = (list: unknown, prefix: string): ({ id: string } & Record<string, unknown>)[] =>
    (list as Record<string, unknown>[]).map((entry) => ({ ...entry, id: `${prefix}-${String(entry.name)}` }));
  return {
    id: 'p1',
    name: 'Live day',
    date: '2026-11-23',
    drivers: withIds(document.drivers, 'd'),
    stops: withIds(document.stops, 's'),
    settings: document.settings as Record<string, unknown>,
    url: 'http://x/projects/p1',
    created_at: '2026-11-20T00:00:00Z',
  };
}

interface Day {
  document: Record<string, unknown>;
  project: ProjectRecord;
  plan: Plan;
  dispatch: FrozenDispatch;
}

async function dispatched(document: Record<string, unknown>): Promise<Day> {
  const project = recordOf(document);
  const plan = await checkedPlanOf(document);
  const frame = {
    actionUuid: 'a1',
    dispatchedAt: '2026-11-23T07:00:00Z',
    expiresAt: '2026-11-25T00:00:00Z',
    newToken: () => 't',
    etaMarginS: 1800,
  };
  return { document, project, plan, dispatch: freezePlan('owner', project, plan, frame, null) };
}

/** What the retimer does once it has the project: the rest of Ana's route timed from `from`, written onto the dispatch. */
function retime(d: Day, from: ReportPlace): FrozenStop[] {
  const stops = remainingStops(d.dispatch, 'd-Ana');
  const document = restOfRouteDocument(d.project, d.document, 'd-Ana', stops, from);
  expect(document).not.toBeNull();
  const problem = loadProblemDocument(document).problem;
  const estimates = estimatesOf(problem, stops);
  expectCheckedTimes(
    problem,
    estimates.map((estimate) => estimate.eta_s),
  );
  return applyEstimates(d.dispatch, estimates);
}

/**
 * The evaluator's times pass the independent checker, which simulates the route itself, on the
 * problem with lateness and overtime permitted (an estimate may be late: it is flagged, not refused).
 */
function expectCheckedTimes(problem: Problem, etas: (number | null)[]): void {
  const lenient: Problem = {
    ...problem,
    stops: problem.stops.map((stop) => ({ ...stop, maxLateness: Infinity })),
    vehicles: problem.vehicles.map((vehicle) => ({ ...vehicle, maxOvertime: Infinity })),
  };
  const plan = buildPlan(lenient, retimeRoutes(lenient, [{ vehicle: 0, stops: etas.map((_, index) => index) }]));
  expect(checkPlan(lenient, plan)).toEqual([]);
  expect(plan.routes[0]!.visits.filter((visit) => visit.kind === 'stop').map((visit) => visit.arrival_s)).toEqual(etas);
}

function stopNamed(d: Day, name: string): FrozenStop {
  return d.dispatch.stops.find((stop) => stop.name === name)!;
}

/** A stop reported done at `finish` seconds into the day. */
function done(d: Day, name: string, finish: number): ReportPlace {
  const stop = stopNamed(d, name);
  stop.status = 'done';
  stop.at = new Date(Date.parse('2026-11-23T00:00:00Z') + finish * 1000).toISOString();
  return { lat: stop.lat, lng: stop.lng, at: finish };
}

describe('live estimates', () => {
  it('a report 40 min late pushes the rest of the route by 40 min and flags the stop whose window it passes', async () => {
    const d = await dispatched(day());
    const a = stopNamed(d, 'A');
    expect(d.dispatch.stops.map((stop) => stop.name)).toEqual(['A', 'B', 'C', 'D']);
    expect(stopNamed(d, 'C').finish_s!).toBeLessThanOrEqual(9 * 3600);
    const moved = retime(d, done(d, 'A', a.finish_s! + 2400));
    for (const name of ['B', 'C', 'D']) expect(stopNamed(d, name).eta_s).toBe(stopNamed(d, name).arrival_s! + 2400);
    expect(['B', 'C', 'D'].map((name) => stopNamed(d, name).late)).toEqual([false, true, false]);
    expect(moved.map((stop) => stop.name)).toEqual(['B', 'C', 'D']);
    expect(a.eta_s).toBeUndefined();
  });

  it('a stop done early pulls the next arrival earlier, but the driver waits for a window, so later stops keep their times', async () => {
    const d = await dispatched(day({ windowB: ['09:30', '11:00'], windowC: false }));
    const b = stopNamed(d, 'B');
    expect(b.start_s).toBe(9.5 * 3600);
    expect(b.arrival_s!).toBeLessThan(b.start_s!);
    const moved = retime(d, done(d, 'A', stopNamed(d, 'A').finish_s! - 600));
    expect(b.eta_s).toBe(b.arrival_s! - 600);
    expect(stopNamed(d, 'C').eta_s).toBe(stopNamed(d, 'C').arrival_s);
    expect(['B', 'C', 'D'].map((name) => stopNamed(d, name).late)).toEqual([false, false, false]);
    expect(moved.map((stop) => stop.name)).toEqual(['B']);
  });

  it('a position re-times every stop still planned from that point and time', async () => {
    const d = await dispatched(day());
    const moved = retime(d, { ...DEPOT, at: 8 * 3600 + 1200 });
    for (const name of ['A', 'B', 'C', 'D']) expect(stopNamed(d, name).eta_s).toBe(stopNamed(d, name).arrival_s! + 1200);
    expect(moved).toHaveLength(4);
    // The same position again moves nothing: the estimates are already those.
    expect(retime(d, { ...DEPOT, at: 8 * 3600 + 1200 })).toEqual([]);
  });

  it('skips failed stops: the next one is reached straight from the report, sooner than planned', async () => {
    const d = await dispatched(day());
    const b = stopNamed(d, 'B');
    b.status = 'failed';
    b.at = '2026-11-23T08:00:00Z';
    retime(d, done(d, 'A', stopNamed(d, 'A').finish_s!));
    expect(b.eta_s).toBeUndefined();
    const c = stopNamed(d, 'C');
    // B's ten minutes of service are no longer on the way.
    expect(c.eta_s!).toBeLessThanOrEqual(c.arrival_s! - 600);
    expect(c.late).toBe(false);
  });

  it('flags every stop whose service ends past the shift end, with or without a window', async () => {
    const d = await dispatched(day({ shiftEnd: '10:00' }));
    retime(d, done(d, 'A', 9.5 * 3600));
    expect(['B', 'C', 'D'].map((name) => stopNamed(d, name).late)).toEqual([false, true, true]);
    expect(stopNamed(d, 'D').eta_s! + 600).toBeGreaterThan(10 * 3600);
  });

  it('a re-dispatch keeps each driver’s last position but no estimate: the new routes are timed afresh', async () => {
    const d = await dispatched(day());
    retime(d, { ...DEPOT, at: 8 * 3600 + 1200 });
    d.dispatch.drivers[0]!.position = { ...DEPOT, at: '2026-11-23T08:20:00.000Z' };
    d.dispatch.drivers[0]!.retimed_at = '2026-11-23T08:20:00.000Z';
    const frame = {
      actionUuid: 'a2',
      dispatchedAt: '2026-11-23T08:30:00Z',
      expiresAt: '2026-11-25T00:00:00Z',
      newToken: () => 'u',
      etaMarginS: 1800,
    };
    const again = freezePlan('owner', d.project, d.plan, frame, d.dispatch);
    expect(again.drivers[0]!.position).toEqual({ ...DEPOT, at: '2026-11-23T08:20:00.000Z' });
    expect(again.drivers[0]!.retimed_at).toBeUndefined();
    expect(again.stops.every((stop) => stop.eta_s === undefined && stop.late === undefined)).toBe(true);
  });

  it('has no estimate for a stop that is no longer in the project', async () => {
    const d = await dispatched(day());
    const project = { ...d.project, stops: d.project.stops.filter((stop) => stop.name !== 'C') };
    expect(restOfRouteDocument(project, d.document, 'd-Ana', remainingStops(d.dispatch, 'd-Ana'), { ...DEPOT, at: 0 })).toBeNull();
  });
});
