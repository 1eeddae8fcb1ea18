/**
 * Honest unserved reasons and fix hints (decisions.md "Unserved reasons"): each rule on a project
 * built so that one constraint alone keeps a stop out. Every plan goes through the independent
 * checker, and a hint is taken at its word: applied to the input, the stop is served.
 */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/output/plan.js';
import type { Plan, PlanHint, PlanUnserved } from '../../src/output/plan-types.js';
import { solve } from '../../src/solver/index.js';
import { planOfRoutes, searchKitOf } from '../../src/solver/kit.js';
import { explainUnserved } from '../../src/solver/unserved.js';
import { HINTED_STOPS_WITHOUT_CLOCK } from '../../src/solver/params.js';
import { load } from '../input/helpers.js';
import { checkPlan } from '../support/checker.js';
import { buildProblem } from '../support/problem-builder.js';

const QUICK = { timeLimitMs: 5_000, seed: 1, maxIterations: 50 };
const DEPOT = { coords: { lat: 45.7622, lng: 4.8272 } };
/** About 1.1 km east of the depot: a few minutes' drive. */
const NEAR = { coords: { lat: 45.7622, lng: 4.8412 } };

type Doc = Record<string, unknown> & { drivers: Array<Record<string, unknown>>; stops: Array<Record<string, unknown>> };

function project(drivers: Array<Record<string, unknown>>, stops: Array<Record<string, unknown>>, settings = {}): Doc {
  return {
    name: 'Hints',
    date: '2026-11-23',
    settings: { strict_start: true, ...settings },
    drivers: drivers.map((driver) => ({ start_location: DEPOT, end_location: DEPOT, shift_start: '08:00', ...driver })),
    stops: stops.map((stop) => ({ location: DEPOT, ...stop })),
  };
}

async function checkedPlan(document: unknown): Promise<Plan> {
  const { problem } = load(document);
  const plan = buildPlan(problem, await solve(problem, QUICK));
  expect(checkPlan(problem, plan)).toEqual([]);
  return plan;
}

function unservedNamed(plan: Plan, name: string): PlanUnserved {
  const entry = plan.unserved.find((u) => u.stop === name);
  if (!entry) throw new Error(`${name} is served: ${JSON.stringify(plan.unserved)}`);
  return entry;
}

function hintOf(entry: PlanUnserved, kind: PlanHint['kind']): PlanHint {
  const hint = entry.hints?.find((h) => h.kind === kind);
  if (!hint) throw new Error(`no ${kind} hint on ${entry.stop}: ${JSON.stringify(entry.hints)}`);
  return hint;
}

function served(plan: Plan): string[] {
  return plan.routes.flatMap((route) => route.visits.flatMap((visit) => (visit.kind === 'stop' ? [visit.stop] : []))).sort();
}

/** The document with the hint applied: the one change it names, nothing else. */
function applied(document: Doc, stopName: string, hint: PlanHint): Doc {
  const copy = structuredClone(document);
  const stop = copy.stops.find((s) => s.name === stopName)!;
  const driver = copy.drivers.find((d) => d.name === hint.driver)!;
  switch (hint.kind) {
    case 'window_end_later':
      stop.end = hint.time;
      break;
    case 'window_start_earlier':
      stop.start = hint.time;
      break;
    case 'duration_shorter':
      stop.duration = hint.duration_s! / 60;
      break;
    case 'shift_end_later':
      driver.shift_end = hint.time;
      break;
    case 'driver_capacity':
      driver.capacity = hint.capacity;
      break;
    case 'driver_type':
      driver.types = [...((driver.types as string[] | undefined) ?? []), hint.type!];
      break;
  }
  return copy;
}

async function expectServedOnceApplied(document: Doc, stopName: string, hint: PlanHint): Promise<void> {
  const plan = await checkedPlan(applied(document, stopName, hint));
  expect(served(plan)).toContain(stopName);
  expect(plan.unserved).toEqual([]);
}

describe('fix hints: each found by trial insertion and served once applied', () => {
  it('a stop blocked only by its window end gets the window hint with the exact minutes', async () => {
    // The one driver is busy 08:00–09:00 at Big (at the depot, no travel); Small can start at 09:00
    // at the soonest and its 20 min end at 09:20: its window must end 50 min later than 08:30.
    const document = project(
      [{ name: 'Camille', shift_end: '17:00' }],
      [
        { name: 'Big', start: '08:00', end: '09:00', duration: 60, priority: 'high' },
        { name: 'Small', start: '08:00', end: '08:30', duration: 20 },
      ],
    );
    const entry = unservedNamed(await checkedPlan(document), 'Small');
    expect(entry.reason).toBe('dropped_for_capacity_or_time');
    expect(entry.message).toMatch(/inside its time window \(08:00–08:30\) \(time\)/);
    const hint = hintOf(entry, 'window_end_later');
    expect(hint).toMatchObject({ minutes: 50, time: '09:20', window: 0, driver: 'Camille' });
    expect(hint.text).toBe("Window ending 50 min later (09:20), on Camille's route");
    await expectServedOnceApplied(document, 'Small', hint);
    // One minute less is not enough: the amount is the smallest that serves it.
    const short = { ...hint, time: '09:19' };
    expect(served(await checkedPlan(applied(document, 'Small', short)))).not.toContain('Small');
  });

  it("capacity +N: the driver's capacity raised by exactly what the stop's load is over", async () => {
    const document = project(
      [{ name: 'Camille', capacity: 10 }],
      [
        { name: 'Big', load: 8, priority: 'high', location: NEAR },
        { name: 'Small', load: 5, location: NEAR },
      ],
    );
    const entry = unservedNamed(await checkedPlan(document), 'Small');
    expect(entry.message).toBe('it fits in no route as the plan stands: Camille has no room left for its load (capacity)');
    const hint = hintOf(entry, 'driver_capacity');
    expect(hint).toMatchObject({ amount: 3, capacity: 13, driver: 'Camille', text: "Camille's capacity +3 (13)" });
    expect(entry.hints).toHaveLength(1);
    await expectServedOnceApplied(document, 'Small', hint);
  });

  it('a type: a driver lacking the type the stop needs gets it in the hint', async () => {
    const document = project([{ name: 'Camille', types: ['van'] }], [{ name: 'Cold', types: ['fridge'], location: NEAR }]);
    const entry = unservedNamed(await checkedPlan(document), 'Cold');
    expect(entry.reason).toBe('no_compatible_vehicle');
    const hint = hintOf(entry, 'driver_type');
    expect(hint).toMatchObject({ type: 'fridge', driver: 'Camille', text: 'Camille having type fridge' });
    await expectServedOnceApplied(document, 'Cold', hint);
  });

  it('shift end: the shift ending exactly as much later as the route needs', async () => {
    // 08:00–10:00 with Big (60 min) served; Long (90 min) would end the route at 10:30.
    const document = project(
      [{ name: 'Camille', shift_end: '10:00' }],
      [
        { name: 'Big', duration: 60, priority: 'high' },
        { name: 'Long', duration: 90 },
      ],
    );
    const entry = unservedNamed(await checkedPlan(document), 'Long');
    expect(entry.message).toMatch(/serving it would end the route of Camille after the shift \(time\)/);
    const hint = hintOf(entry, 'shift_end_later');
    expect(hint).toMatchObject({ minutes: 30, time: '10:30', driver: 'Camille', text: "Camille's shift ending 30 min later (10:30)" });
    await expectServedOnceApplied(document, 'Long', hint);
    // Smallest first: 30 min on a 2-hour shift (1/4) is a smaller change than 30 min off a 90-min service (1/3).
    expect(entry.hints!.map((h) => h.kind)).toEqual(['shift_end_later', 'duration_shorter']);
    expect(hintOf(entry, 'duration_shorter')).toMatchObject({ minutes: 30, duration_s: 3600 });
    await expectServedOnceApplied(document, 'Long', hintOf(entry, 'duration_shorter'));
  });

  it('at most three hints, smallest first, one per kind', async () => {
    // Big fills 08:30–09:30 on Camille's route. Late (08:10–08:40, 30 min) fits before it if its
    // window starts 10 min earlier (08:00, 1/3 of its window) or its service is 10 min shorter
    // (1/3 of it), on Théo's empty route if his shift ends 15 min later (08:40, 3/5 of it), after
    // Big if its window ends 80 min later (8/3): four kinds apply, the three smallest are given.
    const document = project(
      [
        { name: 'Camille', shift_end: '10:00' },
        { name: 'Théo', shift_end: '08:25' },
      ],
      [
        { name: 'Big', start: '08:30', end: '09:30', duration: 60, priority: 'high' },
        { name: 'Late', start: '08:10', end: '08:40', duration: 30 },
      ],
    );
    const entry = unservedNamed(await checkedPlan(document), 'Late');
    expect(entry.hints!.map((h) => h.kind)).toEqual(['window_start_earlier', 'duration_shorter', 'shift_end_later']);
    expect(entry.hints![0]).toMatchObject({ minutes: 10, time: '08:00', driver: 'Camille' });
    expect(entry.hints![1]).toMatchObject({ minutes: 10, duration_s: 1200 });
    expect(entry.hints![2]).toMatchObject({ minutes: 15, time: '08:40', driver: 'Théo' });
    for (const hint of entry.hints!) await expectServedOnceApplied(document, 'Late', hint);
  });
});

describe('honest messages', () => {
  it('no message claims full when it fits: a plan that leaves out a stop that fits says so', () => {
    const { problem } = load(
      project(
        [{ name: 'Camille', capacity: 10 }],
        [
          { name: 'A', load: 2, location: NEAR },
          { name: 'B', load: 2 },
        ],
      ),
    );
    const kit = searchKitOf(problem);
    // A plan given as it is, leaving B out although it fits next to A.
    const plan = planOfRoutes(kit, [Int32Array.of(0)]);
    const [entry] = explainUnserved(plan, kit.evaluator);
    expect(entry).toMatchObject({ stop: 1, reason: 'dropped_for_capacity_or_time', hints: [] });
    expect(entry!.message).toMatch(/^left out although it fits the plan as it stands: serving it on Camille's route would add [\d.]+ km/);
    expect(entry!.message).not.toMatch(/full|busy|no room/);
  });

  it('a plan cut by its limit: the first unserved stops still get their hints, the rest only while time lasts', () => {
    const stops = Array.from({ length: HINTED_STOPS_WITHOUT_CLOCK + 3 }, (_, i) => ({ name: `S${i}`, load: 4, location: NEAR }));
    const { problem } = load(project([{ name: 'Camille', capacity: 4 }], stops));
    const kit = searchKitOf(problem);
    // S0 fills Camille's van; every other stop needs capacity +4.
    const plan = planOfRoutes(kit, [Int32Array.of(0)]);
    const timeIsUp = (): boolean => false;
    const entries = explainUnserved(plan, kit.evaluator, timeIsUp);
    expect(entries).toHaveLength(HINTED_STOPS_WITHOUT_CLOCK + 2);
    for (const entry of entries.slice(0, HINTED_STOPS_WITHOUT_CLOCK)) {
      expect(entry.hints?.map((hint) => [hint.kind, hint.amount])).toEqual([['driver_capacity', 4]]);
    }
    for (const entry of entries.slice(HINTED_STOPS_WITHOUT_CLOCK)) expect(entry.hints).toBeUndefined();
  });

  it('a solve leaves out no stop that fits the plan as it stands (priority comes first in the objective)', async () => {
    const document = project(
      [{ name: 'Camille', capacity: 6, shift_end: '12:00' }],
      Array.from({ length: 12 }, (_, i) => ({
        name: `S${i}`,
        load: 1 + (i % 3),
        duration: 15,
        location: { coords: { lat: 45.7622 + 0.004 * (i % 4), lng: 4.8272 + 0.005 * Math.floor(i / 4) } },
      })),
    );
    const plan = await checkedPlan(document);
    expect(plan.unserved.length).toBeGreaterThan(0);
    for (const entry of plan.unserved) expect(entry.message).not.toMatch(/fits the plan as it stands/);
  });
});

describe('certain reasons get hints only where a single change helps', () => {
  it('a stop with no location gets none', async () => {
    const problem = buildProblem({ vehicles: [{ start: [0, 0] }], stops: [{ at: null }, { at: [0, 0.01] }] });
    const result = await solve(problem, QUICK);
    expect(checkPlan(problem, buildPlan(problem, result))).toEqual([]);
    expect(result.unserved).toEqual([expect.objectContaining({ stop: 0, reason: 'missing_location', hints: [] })]);
  });

  it('a one-off order missing two tags of a vehicle gets no tag hint; missing one, it does', async () => {
    const oneoff = (tags: string[]) => ({
      routesData: [{ name: 'Van', constraints: { startLocations: [{ latitude: 45.7622, longitude: 4.8272 }], tags: ['cold'] } }],
      ordersData: [{ name: 'Order', locations: [{ latitude: 45.7622, longitude: 4.8412 }], tags }],
      options: {},
    });
    const two = unservedNamed(await checkedPlan(oneoff(['cold', 'heavy', 'big'])), 'Order');
    expect(two).toMatchObject({ reason: 'no_compatible_vehicle', hints: [] });
    const one = unservedNamed(await checkedPlan(oneoff(['cold', 'heavy'])), 'Order');
    expect(one.hints).toEqual([expect.objectContaining({ kind: 'driver_type', type: 'heavy', text: 'Van having tag heavy' })]);
  });

  it('a stop no driver can reach in the shift gets the shift end it needs', async () => {
    const far = { coords: { lat: 45.9, lng: 4.8272 } };
    const document = project([{ name: 'Camille', shift_end: '08:30' }], [{ name: 'Far', location: far, duration: 10 }]);
    const entry = unservedNamed(await checkedPlan(document), 'Far');
    expect(entry.reason).toBe('unreachable_in_shift');
    await expectServedOnceApplied(document, 'Far', hintOf(entry, 'shift_end_later'));
  });

  it('a service longer than its window gets the window or the duration changed', async () => {
    const document = project([{ name: 'Camille', shift_end: '17:00' }], [{ name: 'Tight', start: '10:00', end: '10:20', duration: 30 }]);
    const entry = unservedNamed(await checkedPlan(document), 'Tight');
    expect(entry.reason).toBe('duration_exceeds_window');
    expect(hintOf(entry, 'window_end_later')).toMatchObject({ minutes: 10, time: '10:30' });
    expect(hintOf(entry, 'window_start_earlier')).toMatchObject({ minutes: 10, time: '09:50' });
    expect(hintOf(entry, 'duration_shorter')).toMatchObject({ minutes: 10, duration_s: 1200 });
    for (const hint of entry.hints!) await expectServedOnceApplied(document, 'Tight', hint);
  });
});
