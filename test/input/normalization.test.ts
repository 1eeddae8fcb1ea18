import { describe, expect, it } from 'vitest';
import { SCALAR_DIMENSION } from '../../src/model/problem.js';
import { buildGeoTravelMatrix } from '../../src/model/travel.js';
import { DEFAULT_TRAVEL_MODEL, mayServe } from '../support/problem-builder.js';
import { driver, load, oneoff, order, project, route, stop } from './helpers.js';

const H = 3600;
const withStop = (extra: Record<string, unknown>) => load(project({ stops: [stop('A', extra)] })).problem.stops[0]!;
const withDriver = (extra: Record<string, unknown>, settings: Record<string, unknown> = {}) =>
  load(project({ drivers: [driver('D', extra)], settings })).problem.vehicles[0]!;
const withOrder = (extra: Record<string, unknown>, options: Record<string, unknown> = {}) =>
  load(oneoff({ ordersData: [order('A', extra)], options })).problem.stops[0]!;
const withRoute = (constraints: Record<string, unknown>, options: Record<string, unknown> = {}) =>
  load(oneoff({ routesData: [route('R', constraints)], options })).problem.vehicles[0]!;

describe('time windows', () => {
  it('times are seconds since midnight', () => {
    expect(withStop({ start: '08:30', end: '10:00' }).windows).toEqual([{ start: 8.5 * H, end: 10 * H }]);
  });

  it('no window means any time: a single [0, Infinity] window', () => {
    expect(withStop({}).windows).toEqual([{ start: 0, end: Infinity }]);
    expect(withOrder({}).windows).toEqual([{ start: 0, end: Infinity }]);
  });

  it('a window start without an end means any time after start', () => {
    expect(withStop({ start: '09:00' }).windows).toEqual([{ start: 9 * H, end: Infinity }]);
  });

  it('a window end without a start means any time until the end', () => {
    expect(withStop({ end: '11:00' }).windows).toEqual([{ start: 0, end: 11 * H }]);
  });

  it('overnight window ends the next day', () => {
    expect(withStop({ start: '22:00', end: '06:00' }).windows).toEqual([{ start: 22 * H, end: 30 * H }]);
    expect(withOrder({ timeWindows: [{ startTime: '23:30', endTime: '00:30' }] }).windows).toEqual([{ start: 23.5 * H, end: 24.5 * H }]);
  });

  it('several windows are sorted by start', () => {
    const windows = withOrder({
      timeWindows: [
        { startTime: '13:00', endTime: '15:00' },
        { startTime: '08:00', endTime: '10:00' },
      ],
    }).windows;
    expect(windows).toEqual([
      { start: 8 * H, end: 10 * H },
      { start: 13 * H, end: 15 * H },
    ]);
  });

  it('overlapping windows are merged', () => {
    const windows = withOrder({
      timeWindows: [
        { startTime: '08:00', endTime: '10:00' },
        { startTime: '09:30', endTime: '11:00' },
        { startTime: '14:00' },
        { startTime: '16:00', endTime: '17:00' },
      ],
    }).windows;
    expect(windows).toEqual([
      { start: 8 * H, end: 11 * H },
      { start: 14 * H, end: Infinity },
    ]);
  });

  it('project time_windows (routeplan extension, the CSV column) give several windows', () => {
    expect(
      withStop({
        time_windows: [
          { start: '13:00', end: '15:00' },
          { start: '08:00', end: '10:00' },
        ],
      }).windows,
    ).toEqual([
      { start: 8 * H, end: 10 * H },
      { start: 13 * H, end: 15 * H },
    ]);
  });
});

describe('durations', () => {
  it('durations are minutes, converted to seconds (fractions allowed)', () => {
    expect(withStop({ duration: 4.5 }).duration).toBe(270);
    expect(withOrder({ duration: 3 }).duration).toBe(180);
  });

  it('missing stop duration: default_duration (project)', () => {
    const { problem } = load(project({ stops: [stop('A'), stop('B', { duration: 2 })], settings: { default_duration: 6 } }));
    expect(problem.stops.map((s) => [s.duration, s.durationGiven])).toEqual([
      [360, true],
      [120, true],
    ]);
  });

  it('missing order duration: defaultOrderDuration (one-off)', () => {
    expect(withOrder({}, { defaultOrderDuration: 5 }).duration).toBe(300);
  });

  it('no duration and no default: 0 with durationGiven false (project ETAs are null)', () => {
    const s = withStop({});
    expect([s.duration, s.durationGiven]).toEqual([0, false]);
    const o = withOrder({});
    expect([o.duration, o.durationGiven]).toEqual([0, false]);
  });

  it('a duration of 0 given explicitly is a given duration', () => {
    expect(withStop({ duration: 0 }).durationGiven).toBe(true);
  });
});

describe('speeds and travel', () => {
  it('speed names map to factors: faster 1.5, fast 1.25, normal 1, slow 0.75, very slow 0.5, bike 0.4', () => {
    const names = ['faster', 'fast', 'normal', 'slow', 'very slow', 'bike'];
    const { problem } = load(project({ drivers: names.map((speed, i) => driver(`D${i}`, { speed })) }));
    expect(problem.vehicles.map((v) => v.speed)).toEqual([1.5, 1.25, 1, 0.75, 0.5, 0.4]);
  });

  it('speed defaults to normal (1) and numbers are used as factors', () => {
    expect(withDriver({}).speed).toBe(1);
    expect(withDriver({ speed: 1.3 }).speed).toBe(1.3);
  });

  it('one duration matrix per distinct speed; vehicles of equal speed share a profile', () => {
    const { problem } = load(
      project({ drivers: [driver('A', { speed: 'bike' }), driver('B'), driver('C', { speed: 0.4 })], stops: [stop('S')] }),
    );
    expect(problem.travel.durations).toHaveLength(2);
    expect(problem.vehicles.map((v) => v.profile)).toEqual([0, 1, 0]);
  });

  it('travel follows the offline model: haversine × road factor, base speed × speed factor, × traffic', () => {
    const { problem } = load(project({ drivers: [driver('D', { speed: 'slow' })], settings: { traffic: 1.5 } }));
    const expected = buildGeoTravelMatrix(problem.locations, [0.75], { ...DEFAULT_TRAVEL_MODEL, traffic: 1.5 });
    expect(Array.from(problem.travel.distance)).toEqual(Array.from(expected.travel.distance));
    expect(Array.from(problem.travel.durations[0]!)).toEqual(Array.from(expected.travel.durations[0]!));
    expect(problem.travelSource).toEqual({ kind: 'geo', roadFactor: 1.3, baseSpeedKmh: 40, traffic: 1.5 });
  });

  it('road factor and base speed come from the options (flags)', () => {
    const { problem } = load(project(), { roadFactor: 1.1, baseSpeedKmh: 30 });
    expect(problem.travelSource).toEqual({ kind: 'geo', roadFactor: 1.1, baseSpeedKmh: 30, traffic: 1 });
    const expected = buildGeoTravelMatrix(problem.locations, [1], { roadFactor: 1.1, baseSpeedKmh: 30, traffic: 1 });
    expect(Array.from(problem.travel.durations[0]!)).toEqual(Array.from(expected.travel.durations[0]!));
  });

  // test/cli/flag-terms.test.ts: the command line names the flags instead.
  it('an invalid road factor or base speed is an input error naming the setting', () => {
    expect(() => load(project(), { roadFactor: 0 })).toThrow(/roadFactor: 0 is not allowed/);
    expect(() => load(project(), { baseSpeedKmh: -5 })).toThrow(/baseSpeedKmh: -5 is not allowed/);
  });

  it('traffic defaults to 1 and one-off requests have no traffic setting', () => {
    expect(load(project()).problem.travelSource).toMatchObject({ traffic: 1 });
    expect(load(oneoff()).problem.travelSource).toMatchObject({ traffic: 1 });
  });
});

describe('locations', () => {
  it('identical coordinates share one location', () => {
    const same = { lat: 45.7631, lng: 4.8509 };
    const { problem } = load(
      project({
        drivers: [driver('D', { start_location: { coords: same }, end_location: { coords: same } })],
        stops: [stop('A', {}, same), stop('B', {}, { lat: 45.76, lng: 4.85 }), stop('C', {}, same)],
      }),
    );
    expect(problem.locations).toHaveLength(2);
    expect(problem.vehicles[0]!.startLocation).toBe(problem.stops[0]!.location);
    expect(problem.vehicles[0]!.endLocation).toBe(problem.stops[0]!.location);
    expect(problem.stops[2]!.location).toBe(problem.stops[0]!.location);
    expect(problem.stops[1]!.location).not.toBe(problem.stops[0]!.location);
    expect(problem.travel.size).toBe(2);
  });

  it('identical coordinates share one location in one-off requests too', () => {
    const at = { latitude: 45.768, longitude: 4.853 };
    const { problem } = load(oneoff({ ordersData: [order('A', {}, at), order('B', {}, at)] }));
    expect(problem.stops[0]!.location).toBe(problem.stops[1]!.location);
  });

  it('no end location: an open route (endLocation -1)', () => {
    expect(withDriver({}).endLocation).toBe(-1);
    expect(withRoute({}).endLocation).toBe(-1);
    expect(withRoute({ endLocations: [{ latitude: 45.75, longitude: 4.84 }] }).endLocation).toBeGreaterThanOrEqual(0);
  });
});

describe('shifts', () => {
  it('shift start omitted: earliest start 0, not given, flexible', () => {
    expect(withDriver({})).toMatchObject({ earliestStart: 0, shiftStartGiven: false, flexibleStart: true, shiftEnd: Infinity });
  });

  it('project shift start given and not strict (default): may depart later', () => {
    expect(withDriver({ shift_start: '07:00' })).toMatchObject({ earliestStart: 7 * H, shiftStartGiven: true, flexibleStart: true });
  });

  it('project shift start given with strict_start: departs exactly then', () => {
    expect(withDriver({ shift_start: '07:00' }, { strict_start: true })).toMatchObject({ shiftStartGiven: true, flexibleStart: false });
  });

  it('one-off startTime given and flexibleStartTime absent or false: departs exactly then', () => {
    expect(withRoute({ startTime: '07:00' })).toMatchObject({ earliestStart: 7 * H, shiftStartGiven: true, flexibleStart: false });
    expect(withRoute({ startTime: '07:00' }, { flexibleStartTime: false }).flexibleStart).toBe(false);
  });

  it('one-off startTime given with flexibleStartTime true: may depart later', () => {
    expect(withRoute({ startTime: '07:00' }, { flexibleStartTime: true }).flexibleStart).toBe(true);
  });

  it('one-off startTime omitted: flexible whatever flexibleStartTime says', () => {
    expect(withRoute({})).toMatchObject({ shiftStartGiven: false, flexibleStart: true });
  });

  it('shift end is seconds since midnight; Infinity when absent', () => {
    expect(withDriver({ shift_end: '14:00' }).shiftEnd).toBe(14 * H);
    expect(withRoute({ endTime: '15:30' }).shiftEnd).toBe(15.5 * H);
    expect(withRoute({}).shiftEnd).toBe(Infinity);
  });

  it('overnight shift ends the next day', () => {
    expect(withDriver({ shift_start: '22:00', shift_end: '06:00' })).toMatchObject({ earliestStart: 22 * H, shiftEnd: 30 * H });
  });

  it('max_driver_overtime (minutes) bounds overtime; default 0', () => {
    expect(withDriver({}, { max_driver_overtime: 15 }).maxOvertime).toBe(900);
    expect(withDriver({}).maxOvertime).toBe(0);
  });

  it('allowRouteOvertime allows unbounded overtime', () => {
    expect(withRoute({}, { allowRouteOvertime: true }).maxOvertime).toBe(Infinity);
    expect(withRoute({}).maxOvertime).toBe(0);
  });
});

describe('breaks', () => {
  it('a break object and a breaks array are both accepted, sorted by start', () => {
    const v = withDriver({ break: { start: '12:00', end: '12:30' }, breaks: [{ start: '09:00', end: '09:15' }] });
    expect(v.breaks).toEqual([
      { start: 9 * H, end: 9.25 * H },
      { start: 12 * H, end: 12.5 * H },
    ]);
  });

  it('overlapping breaks are merged', () => {
    const v = withDriver({
      breaks: [
        { start: '12:00', end: '12:30' },
        { start: '12:15', end: '13:00' },
      ],
    });
    expect(v.breaks).toEqual([{ start: 12 * H, end: 13 * H }]);
  });

  it('an overnight break ends the next day', () => {
    expect(withDriver({ break: { start: '23:45', end: '00:15' } }).breaks).toEqual([{ start: 23.75 * H, end: 24.25 * H }]);
  });

  it('a break early in the morning of an overnight shift belongs to the next day', () => {
    const v = withDriver({ shift_start: '22:00', shift_end: '06:00', break: { start: '02:00', end: '02:30' } });
    expect(v.breaks).toEqual([{ start: 26 * H, end: 26.5 * H }]);
  });
});

describe('priorities', () => {
  it('priority mapping: low=1, regular=5, high=10', () => {
    const { problem } = load(
      project({ stops: [stop('L', { priority: 'low' }), stop('R', { priority: 'regular' }), stop('H', { priority: 'high' })] }),
    );
    expect(problem.stops.map((s) => s.priority)).toEqual([1, 5, 10]);
  });

  it('priority defaults to regular (5); numbers are kept', () => {
    expect(withStop({}).priority).toBe(5);
    expect(withStop({ priority: 250 }).priority).toBe(250);
    expect(withOrder({}).priority).toBe(5);
  });
});

describe('lateness', () => {
  it('max_stop_lateness (minutes) bounds lateness; default 0', () => {
    expect(load(project({ settings: { max_stop_lateness: 5 } })).problem.stops[0]!.maxLateness).toBe(300);
    expect(withStop({}).maxLateness).toBe(0);
  });

  it('allowVisitLateness allows unbounded lateness', () => {
    expect(withOrder({}, { allowVisitLateness: true }).maxLateness).toBe(Infinity);
    expect(withOrder({}).maxLateness).toBe(0);
  });
});

describe('loads and capacities', () => {
  it('number load and capacity use the scalar dimension ""', () => {
    const { problem } = load(project({ drivers: [driver('D', { capacity: 50 })], stops: [stop('A', { load: 7 })] }));
    expect(problem.dimensions).toEqual([SCALAR_DIMENSION]);
    expect(Array.from(problem.vehicles[0]!.capacity)).toEqual([50]);
    expect(Array.from(problem.stops[0]!.load)).toEqual([7]);
  });

  it('object loads and capacities use named dimensions', () => {
    const { problem } = load(
      project({
        drivers: [driver('D', { capacity: { weight: 500, volume: 2 } })],
        stops: [stop('A', { load: { weight: 12, volume: 0.4 } })],
      }),
    );
    expect(problem.dimensions).toEqual(['weight', 'volume']);
    expect(Array.from(problem.vehicles[0]!.capacity)).toEqual([500, 2]);
    expect(Array.from(problem.stops[0]!.load)).toEqual([12, 0.4]);
  });

  it('a dimension missing from a capacity is unconstrained (Infinity)', () => {
    const { problem } = load(
      project({
        drivers: [driver('A', { capacity: { weight: 500, volume: 2 } }), driver('B', { capacity: { weight: 300 } }), driver('C')],
        stops: [stop('S', { load: { weight: 1, volume: 1 } })],
      }),
    );
    expect(problem.vehicles.map((v) => Array.from(v.capacity))).toEqual([
      [500, 2],
      [300, Infinity],
      [Infinity, Infinity],
    ]);
  });

  it('a number capacity constrains number loads only', () => {
    const { problem } = load(
      project({ drivers: [driver('D', { capacity: 10 })], stops: [stop('A', { load: { weight: 4 } }), stop('B', { load: 3 })] }),
    );
    expect(problem.dimensions).toEqual(['']);
    expect(problem.stops.map((s) => Array.from(s.load))).toEqual([[0], [3]]);
    expect(problem.stops.length).toBe(2);
  });

  it('loads are ignored when no vehicle has a capacity', () => {
    const loaded = load(project({ stops: [stop('A', { load: 7 })] }));
    expect(loaded.problem.dimensions).toEqual([]);
    expect(loaded.problem.stops[0]!.load.length).toBe(0);
    expect(loaded.problem.vehicles[0]!.capacity.length).toBe(0);
    expect(loaded.warnings.map((w) => w.message)).toContain('loads are ignored: no vehicle has a capacity');
  });

  it('missing load: default_load, itself 1 by default (project)', () => {
    const capped = [driver('D', { capacity: 40 })];
    expect(Array.from(load(project({ drivers: capped })).problem.stops[0]!.load)).toEqual([1]);
    expect(Array.from(load(project({ drivers: capped, settings: { default_load: 4 } })).problem.stops[0]!.load)).toEqual([4]);
  });

  it('missing load on a one-off order is 0', () => {
    const { problem } = load(oneoff({ routesData: [route('R', { capacity: 10 })] }));
    expect(Array.from(problem.stops[0]!.load)).toEqual([0]);
  });

  it('a load dimension no vehicle constrains gives a warning', () => {
    const loaded = load(project({ drivers: [driver('D', { capacity: { weight: 100 } })], stops: [stop('A', { load: { wieght: 3 } })] }));
    expect(loaded.warnings).toContainEqual({
      path: 'stops[0].load.wieght',
      message: 'no vehicle has a capacity for load "wieght"; it is not constrained',
    });
  });

  it('allowCapacityOverload sets allowOverload', () => {
    expect(load(oneoff({ options: { allowCapacityOverload: true } })).problem.allowOverload).toBe(true);
    expect(load(oneoff()).problem.allowOverload).toBe(false);
    expect(load(project()).problem.allowOverload).toBe(false);
  });
});

describe('types and tags', () => {
  it('types are any-of: a stop with types [X, Y] may be served by a vehicle having X or Y', () => {
    const { problem } = load(
      project({
        drivers: [driver('X', { types: 'X' }), driver('Y', { types: ['Y', 'Z'] }), driver('W', { types: 'W' })],
        stops: [stop('S', { types: ['X', 'Y'] })],
      }),
    );
    expect([0, 1, 2].map((v) => mayServe(problem, v, 0))).toEqual([true, true, false]);
  });

  it('a stop without types may be served by any vehicle', () => {
    const { problem } = load(project({ drivers: [driver('X', { types: 'X' }), driver('none')], stops: [stop('S')] }));
    expect([0, 1].map((v) => mayServe(problem, v, 0))).toEqual([true, true]);
  });

  it('a vehicle without types serves only stops without types', () => {
    const { problem } = load(project({ drivers: [driver('none')], stops: [stop('typed', { types: 'X' }), stop('plain')] }));
    expect([0, 1].map((s) => mayServe(problem, 0, s))).toEqual([false, true]);
  });

  it('tags are all-of: a route may serve an order only if it has every tag of the order', () => {
    const { problem } = load(
      oneoff({
        routesData: [route('both', { tags: ['cold', 'heavy'] }), route('cold', { tags: ['cold'] }), route('none')],
        ordersData: [order('cold+heavy', { tags: ['cold', 'heavy'] }), order('cold', { tags: ['cold'] }), order('any')],
      }),
    );
    const table = [0, 1, 2].map((v) => [0, 1, 2].map((s) => (mayServe(problem, v, s) ? 1 : 0)));
    expect(table).toEqual([
      [1, 1, 1],
      [0, 1, 1],
      [0, 0, 1],
    ]);
  });

  it('labels are kept for display', () => {
    expect(withStop({ types: ['van', 'bike'] }).labels).toEqual(['van', 'bike']);
    expect(withRoute({ tags: ['cold'] }).labels).toEqual(['cold']);
  });
});

describe('objective', () => {
  it('project: cost time by default, distance with shortest_distance; balance time with auto_balance', () => {
    expect(load(project()).problem.objective).toEqual({ minimizeRoutes: false, cost: 'time', balance: 'none' });
    expect(load(project({ settings: { shortest_distance: true, auto_balance: true } })).problem.objective).toEqual({
      minimizeRoutes: false,
      cost: 'distance',
      balance: 'time',
    });
  });

  it('one-off: minimizeRoutes, and balance orders for balanceType orders', () => {
    expect(load(oneoff({ options: { minimizeRoutes: true, balanceType: 'orders' } })).problem.objective).toEqual({
      minimizeRoutes: true,
      cost: 'time',
      balance: 'orders',
    });
    expect(load(oneoff({ options: { balanceType: 'none' } })).problem.objective.balance).toBe('none');
  });

  it('squashDuration is minutes converted to seconds; absent or 0 means no squashing', () => {
    expect(load(oneoff({ options: { squashDuration: 1.5 } })).problem.squashDuration).toBe(90);
    expect(load(oneoff({ options: { squashDuration: 0 } })).problem.squashDuration).toBeNull();
    expect(load(oneoff()).problem.squashDuration).toBeNull();
    expect(load(project()).problem.squashDuration).toBeNull();
  });
});

describe('passthrough, names, units, immutability', () => {
  it('notes, custom_notes, phone_number and email are carried through unchanged', () => {
    const custom = { order_id: 'BG-1', price: 18.2 };
    const s = withStop({ notes: 'Quai B', custom_notes: custom, phone_number: '+33 4 72 11 73 11', email: 'a@b.example' });
    expect(s.passthrough).toEqual({ notes: 'Quai B', custom_notes: custom, phone_number: '+33 4 72 11 73 11', email: 'a@b.example' });
    expect(withDriver({ phone_number: '+33 6 12 34 56 78' }).passthrough).toEqual({ phone_number: '+33 6 12 34 56 78' });
  });

  it('displayOrderId and customerOrderNumber are carried through unchanged', () => {
    expect(withOrder({ displayOrderId: 'CMD-1', customerOrderNumber: 7812 }).passthrough).toEqual({
      displayOrderId: 'CMD-1',
      customerOrderNumber: 7812,
    });
  });

  it('one-off routes and orders without a name are numbered', () => {
    const { problem } = load({
      routesData: [{ constraints: { startLocations: [{ latitude: 45, longitude: 4 }] } }],
      ordersData: [{ locations: [{ latitude: 45.1, longitude: 4 }] }],
    });
    expect(problem.vehicles[0]!.name).toBe('Route 1');
    expect(problem.stops[0]!.name).toBe('Order 1');
  });

  it('indices follow the input order', () => {
    const { problem } = load(project({ drivers: [driver('A'), driver('B')], stops: [stop('X'), stop('Y'), stop('Z')] }));
    expect(problem.vehicles.map((v) => [v.index, v.name])).toEqual([
      [0, 'A'],
      [1, 'B'],
    ]);
    expect(problem.stops.map((s) => [s.index, s.name])).toEqual([
      [0, 'X'],
      [1, 'Y'],
      [2, 'Z'],
    ]);
  });

  it('units are seconds and metres', () => {
    expect(load(project()).problem.units).toEqual({ timePerSecond: 1, distancePerReported: 1 });
    expect(load(oneoff()).problem.units).toEqual({ timePerSecond: 1, distancePerReported: 1 });
  });

  it('the problem is immutable after normalization', () => {
    const { problem } = load(project());
    expect(Object.isFrozen(problem)).toBe(true);
    expect(Object.isFrozen(problem.stops[0]!.windows)).toBe(true);
    expect(() => (problem.stops as unknown as unknown[]).push({})).toThrow();
  });

  it('the document is returned as given', () => {
    const doc = project();
    expect(load(doc).document).toBe(doc);
  });
});
