/**
 * An independent oracle for the input layer: for generated raw documents, every normalized
 * field of `Problem` is recomputed from the document by the rules of decisions.md (clock times,
 * minutes, overnight, priorities, speeds, loads/capacities, types/tags, breaks, allowances,
 * start flexibility, options) and compared. The plan checker trusts `Problem`; this test is what
 * makes that trust earned.
 */
import { describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Problem } from '../../src/model/problem.js';
import { generateOneOff, generateProject } from '../support/generate.js';

type Doc = Record<string, any>;

const DAY = 86_400;
const PRIORITY_WORDS: Record<string, number> = { low: 1, regular: 5, high: 10 };
const SPEED_WORDS: Record<string, number> = { faster: 1.5, fast: 1.25, normal: 1, slow: 0.75, 'very slow': 0.5, bike: 0.4 };

function clock(text: string): number {
  const [h, m, s] = text.split(':').map(Number);
  return h! * 3600 + m! * 60 + (s ?? 0);
}

/** An interval from two clock texts; an end before the start is on the next day. */
function interval(start: string, end: string): { start: number; end: number } {
  const a = clock(start);
  const b = clock(end);
  return { start: a, end: b < a ? b + DAY : b };
}

/** Night work: an interval ending at or before the day's start (the earliest shift, or a break's own driver's) is on the next day. */
function onWorkingDay(span: { start: number; end: number }, dayStart: number): { start: number; end: number } {
  return dayStart > 0 && span.end <= dayStart ? { start: span.start + DAY, end: span.end + DAY } : span;
}

function minutes(value: number): number {
  return Math.round(value * 60);
}

function list(value: unknown): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? (value as string[]) : [value as string];
}

function loadOf(value: unknown): Record<string, number> {
  if (value === undefined) return {};
  return typeof value === 'number' ? { '': value } : (value as Record<string, number>);
}

function dimensionValue(problem: Problem, vector: Float64Array, name: string): number | undefined {
  const k = problem.dimensions.indexOf(name);
  return k < 0 ? undefined : vector[k];
}

function expectPoint(problem: Problem, index: number, lat: number, lng: number, where: string): void {
  expect(problem.locations[index], where).toEqual({ lat, lng });
}

function checkProjectNormalization(doc: Doc, problem: Problem): void {
  const settings: Doc = doc.settings ?? {};
  const strict = settings.strict_start === true;
  expect(problem.surface).toBe('project');
  expect(problem.name).toBe(doc.name);
  expect(problem.date).toBe(doc.date);
  expect(problem.vehicles).toHaveLength(doc.drivers.length);
  expect(problem.stops).toHaveLength(doc.stops.length);
  expect(problem.travelSource).toEqual({ kind: 'geo', roadFactor: 1.3, baseSpeedKmh: 40, traffic: settings.traffic ?? 1 });
  expect(problem.objective.cost, 'shortest_distance').toBe(settings.shortest_distance === true ? 'distance' : 'time');
  expect(problem.objective.balance, 'auto_balance').toBe(settings.auto_balance === true ? 'time' : 'none');
  expect(problem.squashDuration).toBeNull();
  expect(problem.allowOverload).toBe(false);
  const anyCapacity = doc.drivers.some((d: Doc) => d.capacity !== undefined);

  doc.drivers.forEach((d: Doc, i: number) => {
    const v = problem.vehicles[i]!;
    const where = `drivers[${i}]`;
    expect(v.name, where).toBe(d.name);
    expectPoint(problem, v.startLocation, d.start_location.coords.lat, d.start_location.coords.lng, `${where}.start_location`);
    if (d.end_location) expectPoint(problem, v.endLocation, d.end_location.coords.lat, d.end_location.coords.lng, `${where}.end_location`);
    else expect(v.endLocation, `${where} open route`).toBe(-1);
    const start = d.shift_start === undefined ? null : clock(d.shift_start);
    expect(v.shiftStartGiven, `${where}.shift_start given`).toBe(start !== null);
    expect(v.earliestStart, `${where}.shift_start`).toBe(start ?? 0);
    expect(v.flexibleStart, `${where} flexible (strict_start ${strict})`).toBe(start === null || !strict);
    const end = d.shift_end === undefined ? Infinity : clock(d.shift_end);
    expect(v.shiftEnd, `${where}.shift_end (overnight when before the start)`).toBe(start !== null && end < start ? end + DAY : end);
    expect(v.maxOvertime, `${where} max_driver_overtime`).toBe(minutes(settings.max_driver_overtime ?? 0));
    const speed = d.speed === undefined ? 1 : typeof d.speed === 'number' ? d.speed : SPEED_WORDS[d.speed];
    expect(v.speed, `${where}.speed ${String(d.speed)}`).toBe(speed);
    const breaks = (d.breaks ?? (d.break ? [d.break] : []))
      .map((b: Doc) => onWorkingDay(interval(b.start, b.end), start ?? 0))
      .sort((a: { start: number }, b: { start: number }) => a.start - b.start);
    expect(v.breaks, `${where} breaks`).toEqual(breaks);
    if (anyCapacity) {
      const capacity = loadOf(d.capacity);
      for (const name of problem.dimensions) {
        expect(dimensionValue(problem, v.capacity, name), `${where}.capacity "${name}"`).toBe(capacity[name] ?? Infinity);
      }
    }
  });

  const dayStart = Math.min(Infinity, ...doc.drivers.map((d: Doc) => (d.shift_start === undefined ? 0 : clock(d.shift_start))));
  const planDayStart = Number.isFinite(dayStart) ? dayStart : 0;
  doc.stops.forEach((s: Doc, j: number) => {
    const stop = problem.stops[j]!;
    const where = `stops[${j}]`;
    expect(stop.name, where).toBe(s.name);
    expectPoint(problem, stop.location, s.location.coords.lat, s.location.coords.lng, `${where}.location`);
    const window =
      s.end === undefined
        ? { start: s.start === undefined ? 0 : clock(s.start), end: Infinity }
        : onWorkingDay(interval(s.start ?? '00:00', s.end), planDayStart);
    expect(stop.windows, `${where} window`).toEqual([window]);
    const duration = s.duration ?? settings.default_duration;
    expect(stop.duration, `${where}.duration`).toBe(duration === undefined ? 0 : minutes(duration));
    expect(stop.durationGiven, `${where} duration given`).toBe(duration !== undefined);
    const priority = s.priority === undefined ? 5 : typeof s.priority === 'number' ? s.priority : PRIORITY_WORDS[s.priority];
    expect(stop.priority, `${where}.priority ${String(s.priority)}`).toBe(priority);
    expect(stop.maxLateness, `${where} max_stop_lateness`).toBe(minutes(settings.max_stop_lateness ?? 0));
    if (anyCapacity) {
      const load: Record<string, number> = s.load === undefined ? { '': settings.default_load ?? 1 } : loadOf(s.load);
      for (const name of problem.dimensions) {
        if (s.load === undefined && name !== '') continue;
        expect(dimensionValue(problem, stop.load, name), `${where}.load "${name}"`).toBe(load[name] ?? 0);
      }
    } else {
      expect(problem.dimensions, 'loads are ignored when no vehicle has a capacity').toEqual([]);
    }
    const stopTypes = list(s.types);
    doc.drivers.forEach((d: Doc, i: number) => {
      const vehicleTypes = list(d.types);
      const expected = stopTypes.length === 0 || stopTypes.some((t) => vehicleTypes.includes(t));
      expect(problem.compatible[i * doc.stops.length + j] === 1, `${where} types ${stopTypes} vs drivers[${i}] ${vehicleTypes}`).toBe(
        expected,
      );
    });
    for (const key of ['notes', 'custom_notes', 'phone_number', 'email']) {
      if (s[key] !== undefined) expect(stop.passthrough[key], `${where}.${key} carried through`).toEqual(s[key]);
    }
  });
}

function checkOneOffNormalization(doc: Doc, problem: Problem): void {
  const options: Doc = doc.options ?? {};
  expect(problem.surface).toBe('oneoff');
  expect(problem.date).toBeNull();
  expect(problem.vehicles).toHaveLength(doc.routesData.length);
  expect(problem.stops).toHaveLength(doc.ordersData.length);
  expect(problem.travelSource).toEqual({ kind: 'geo', roadFactor: 1.3, baseSpeedKmh: 40, traffic: 1 });
  expect(problem.objective.minimizeRoutes, 'minimizeRoutes').toBe(options.minimizeRoutes === true);
  expect(problem.objective.balance, 'balanceType').toBe(options.balanceType === 'orders' ? 'orders' : 'none');
  expect(problem.squashDuration, 'squashDuration').toBe(options.squashDuration ? minutes(options.squashDuration) : null);
  expect(problem.allowOverload, 'allowCapacityOverload').toBe(options.allowCapacityOverload === true);
  const anyCapacity = doc.routesData.some((r: Doc) => r.constraints.capacity !== undefined);

  doc.routesData.forEach((r: Doc, i: number) => {
    const c: Doc = r.constraints;
    const v = problem.vehicles[i]!;
    const where = `routesData[${i}]`;
    expect(v.name, where).toBe(r.name);
    expectPoint(problem, v.startLocation, c.startLocations[0].latitude, c.startLocations[0].longitude, `${where} start`);
    if (c.endLocations) expectPoint(problem, v.endLocation, c.endLocations[0].latitude, c.endLocations[0].longitude, `${where} end`);
    else expect(v.endLocation, `${where} open route`).toBe(-1);
    const start = clock(c.startTime);
    expect(v.earliestStart, `${where}.startTime`).toBe(start);
    expect(v.flexibleStart, `${where} flexibleStartTime ${String(options.flexibleStartTime)}`).toBe(options.flexibleStartTime === true);
    const end = c.endTime === undefined ? Infinity : clock(c.endTime);
    expect(v.shiftEnd, `${where}.endTime`).toBe(end < start ? end + DAY : end);
    expect(v.maxOvertime, `${where} allowRouteOvertime`).toBe(options.allowRouteOvertime === true ? Infinity : 0);
    expect(v.speed).toBe(1);
    expect(v.breaks).toEqual([]);
    if (anyCapacity) expect(dimensionValue(problem, v.capacity, ''), `${where}.capacity`).toBe(c.capacity ?? Infinity);
  });

  const dayStart = Math.min(...doc.routesData.map((r: Doc) => clock(r.constraints.startTime)));
  doc.ordersData.forEach((o: Doc, j: number) => {
    const stop = problem.stops[j]!;
    const where = `ordersData[${j}]`;
    expect(stop.name, where).toBe(o.name);
    expectPoint(problem, stop.location, o.locations[0].latitude, o.locations[0].longitude, `${where} location`);
    const windows = o.timeWindows
      ? o.timeWindows.map((w: Doc) => onWorkingDay(interval(w.startTime, w.endTime), dayStart))
      : [{ start: 0, end: Infinity }];
    expect(stop.windows, `${where}.timeWindows`).toEqual(windows);
    const duration = o.duration ?? options.defaultOrderDuration;
    expect(stop.duration, `${where}.duration`).toBe(duration === undefined ? 0 : minutes(duration));
    expect(stop.priority).toBe(5);
    expect(stop.maxLateness, `${where} allowVisitLateness`).toBe(options.allowVisitLateness === true ? Infinity : 0);
    if (anyCapacity && o.load !== undefined) expect(dimensionValue(problem, stop.load, ''), `${where}.load`).toBe(o.load);
    const tags: string[] = o.tags ?? [];
    doc.routesData.forEach((r: Doc, i: number) => {
      const routeTags: string[] = r.constraints.tags ?? [];
      const expected = tags.every((t) => routeTags.includes(t));
      expect(problem.compatible[i * doc.ordersData.length + j] === 1, `${where} tags ${tags} vs routesData[${i}] ${routeTags}`).toBe(
        expected,
      );
    });
    for (const key of ['displayOrderId', 'customerOrderNumber']) {
      if (o[key] !== undefined) expect(stop.passthrough[key], `${where}.${key} carried through`).toEqual(o[key]);
    }
  });
}

describe('input normalization agrees with decisions.md on generated documents', () => {
  it.each(Array.from({ length: 25 }, (_, i) => i))('project seed %i', (seed) => {
    const doc = generateProject(seed, { stops: 40, features: { durations: seed % 5 !== 0 } });
    checkProjectNormalization(doc, loadProblemDocument(doc).problem);
  });

  it.each(Array.from({ length: 25 }, (_, i) => i))('one-off seed %i', (seed) => {
    const doc = generateOneOff(seed, { stops: 40, features: { durations: seed % 5 !== 0 } });
    const loaded = loadProblemDocument(doc);
    checkOneOffNormalization(doc, loaded.problem);
    (doc.ordersData as Doc[]).forEach((order, j) => {
      if (order.locations.length < 2) return;
      const warned = loaded.warnings.some((w) => w.path.startsWith(`ordersData[${j}].locations`));
      expect(warned, `ordersData[${j}] has ${order.locations.length} locations: validate warns`).toBe(true);
    });
  });
});
