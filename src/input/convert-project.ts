/** Surface A (project) → ProblemSpec, per decisions.md. */
import type { Point } from '../model/problem.js';
import { minutesToSeconds } from '../model/time.js';
import type { ConversionLog } from './convert-common.js';
import { clockSeconds, durationSeconds, labelList, pick, priorityNumber, speedFactor } from './convert-common.js';
import type { ProjectDocument, ProjectDriver, ProjectLocation, ProjectStop } from './schema/project.js';
import { driverSchema, stopSchema } from './schema/project.js';
import { carriedKeys } from './schema/vocabulary.js';
import type { ClockSpan, ProblemSpec, StopSpec, VehicleSpec, PendingAddress } from './spec.js';

const STOP_PASSTHROUGH = carriedKeys(stopSchema);
const DRIVER_PASSTHROUGH = carriedKeys(driverSchema);
/** decisions.md: missing load is `default_load`, itself 1 by default. */
const DEFAULT_LOAD = 1;

export function projectSpec(doc: ProjectDocument, raw: Record<string, unknown>, log: ConversionLog): ProblemSpec {
  const settings = doc.settings ?? {};
  const rawDrivers = (raw.drivers ?? []) as Record<string, unknown>[];
  const rawStops = (raw.stops ?? []) as Record<string, unknown>[];
  const defaultDuration =
    settings.default_duration != null ? durationSeconds(settings.default_duration, ['settings', 'default_duration'], log) : null;
  const strictStart = settings.strict_start ?? false;
  const vehicles = (doc.drivers ?? []).map((driver, i) => driverSpec(driver, rawDrivers[i]!, i, strictStart, log));
  const stops = (doc.stops ?? []).map((stop, i) => stopSpec(stop, rawStops[i]!, i, defaultDuration, log));
  return {
    surface: 'project',
    name: doc.name,
    date: doc.date,
    vehicles,
    stops,
    matching: 'types-any-of',
    defaultLoad: settings.default_load ?? DEFAULT_LOAD,
    maxLateness: minutesToSeconds(settings.max_stop_lateness ?? 0),
    maxOvertime: minutesToSeconds(settings.max_driver_overtime ?? 0),
    objective: {
      minimizeRoutes: false,
      cost: settings.shortest_distance ? 'distance' : 'time',
      balance: settings.auto_balance ? 'time' : 'none',
    },
    squashDuration: null,
    allowOverload: false,
    traffic: settings.traffic ?? 1,
    excludeTolls: settings.exclude_tolls ?? false,
    excludeFerry: settings.exclude_ferry ?? false,
    excludePaths: (['exclude_tolls', 'exclude_ferry'] as const)
      .filter((key) => settings[key])
      .map((key) => log.namer.name(['settings', key])),
  };
}

function driverSpec(driver: ProjectDriver, raw: Record<string, unknown>, i: number, strictStart: boolean, log: ConversionLog): VehicleSpec {
  const breaks = [...(driver.break ? [driver.break] : []), ...(driver.breaks ?? [])];
  return {
    path: log.namer.name(['drivers', i]),
    name: driver.name,
    start: projectPoint(driver.start_location),
    end: driver.end_location ? projectPoint(driver.end_location) : null,
    ...pendingAddress('startAddress', driver.start_location, log.namer.name(['drivers', i, 'start_location'])),
    ...pendingAddress('endAddress', driver.end_location, log.namer.name(['drivers', i, 'end_location'])),
    shiftStart: clockSeconds(driver.shift_start),
    shiftEnd: clockSeconds(driver.shift_end),
    flexibleWhenGiven: !strictStart,
    capacity: driver.capacity ?? null,
    speed: speedFactor(driver.speed),
    labels: labelList(driver.types),
    breaks: breaks.map((b) => ({ start: clockSeconds(b.start)!, end: clockSeconds(b.end)! })),
    ...(driver.resume
      ? { resume: { point: { lat: driver.resume.lat, lng: driver.resume.lng }, at: clockSeconds(driver.resume.at)! } }
      : {}),
    passthrough: pick(raw, DRIVER_PASSTHROUGH),
  };
}

function stopSpec(
  stop: ProjectStop,
  raw: Record<string, unknown>,
  i: number,
  defaultDuration: number | null,
  log: ConversionLog,
): StopSpec {
  const windows: ClockSpan[] =
    stop.time_windows && stop.time_windows.length > 0
      ? stop.time_windows.map((w) => ({ start: clockSeconds(w.start), end: clockSeconds(w.end) }))
      : stop.start != null || stop.end != null
        ? [{ start: clockSeconds(stop.start), end: clockSeconds(stop.end) }]
        : [];
  return {
    path: log.namer.name(['stops', i]),
    name: stop.name,
    point: projectPoint(stop.location),
    ...pendingAddress('address', stop.location, log.namer.name(['stops', i, 'location'])),
    windows,
    duration: stop.duration != null ? durationSeconds(stop.duration, ['stops', i, 'duration'], log) : defaultDuration,
    load: stop.load ?? null,
    priority: priorityNumber(stop.priority),
    labels: labelList(stop.types),
    passthrough: pick(raw, STOP_PASSTHROUGH),
    ...(stop.driver != null ? { lock: { driver: stop.driver, sequence: stop.sequence ?? null } } : {}),
    ...(stop.preferred_driver != null ? { prefer: stop.preferred_driver } : {}),
  };
}

/** The schema guarantees coordinates (an address alone is rejected until geocoding exists). */
function projectPoint(location: ProjectLocation): Point | null {
  return location.coords ? { lat: location.coords.lat, lng: location.coords.lng } : null;
}

/** `{[key]: {address, path}}` for a location given by its address only, else nothing. */
function pendingAddress<K extends string>(
  key: K,
  location: ProjectLocation | null | undefined,
  path: string,
): Partial<Record<K, PendingAddress>> {
  if (!location || location.coords || !location.address) return {};
  return { [key]: { address: location.address, path } } as Record<K, PendingAddress>;
}
