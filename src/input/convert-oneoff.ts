/** Surface B (one-off request) → ProblemSpec, per decisions.md. */
import type { Point } from '../model/problem.js';
import type { ConversionLog } from './convert-common.js';
import { clockSeconds, durationSeconds, labelList, pick } from './convert-common.js';
import { DEFAULT_PRIORITY } from './schema/fields.js';
import type { LocationEntry, OneoffDocument, OneoffOrder, OneoffRoute } from './schema/oneoff.js';
import { orderSchema } from './schema/oneoff.js';
import { carriedKeys } from './schema/vocabulary.js';
import type { PendingAddress, ProblemSpec, StopSpec, VehicleSpec } from './spec.js';

const ORDER_PASSTHROUGH = carriedKeys(orderSchema);
/**
 * A one-off order without `load` consumes nothing (0): the interface gives one-off requests no
 * default load, unlike projects (`default_load`, 1 by default). The README states this.
 */
const ONEOFF_DEFAULT_LOAD = 0;

export function oneoffSpec(doc: OneoffDocument, raw: Record<string, unknown>, log: ConversionLog): ProblemSpec {
  const options = doc.options ?? {};
  const rawOrders = raw.ordersData as Record<string, unknown>[];
  const defaultDuration =
    options.defaultOrderDuration != null ? durationSeconds(options.defaultOrderDuration, ['options', 'defaultOrderDuration'], log) : null;
  const vehicles = doc.routesData.map((route, i) => routeSpec(route, i, options.flexibleStartTime ?? false, log));
  const stops = doc.ordersData.map((order, i) => orderSpec(order, rawOrders[i]!, i, defaultDuration, log));
  const squash =
    options.squashDuration != null && options.squashDuration > 0
      ? durationSeconds(options.squashDuration, ['options', 'squashDuration'], log)
      : null;
  return {
    surface: 'oneoff',
    name: null,
    date: null,
    vehicles,
    stops,
    matching: 'tags-all-of',
    defaultLoad: ONEOFF_DEFAULT_LOAD,
    maxLateness: options.allowVisitLateness ? Infinity : 0,
    maxOvertime: options.allowRouteOvertime ? Infinity : 0,
    objective: {
      minimizeRoutes: options.minimizeRoutes ?? false,
      cost: 'time',
      balance: options.balanceType === 'orders' ? 'orders' : 'none',
    },
    squashDuration: squash === 0 ? null : squash,
    allowOverload: options.allowCapacityOverload ?? false,
    traffic: 1,
    excludeTolls: options.excludeTolls ?? false,
    excludeFerry: options.excludeFerry ?? false,
    excludePaths: (['excludeTolls', 'excludeFerry'] as const).filter((key) => options[key]).map((key) => log.namer.name(['options', key])),
  };
}

function routeSpec(route: OneoffRoute, i: number, flexibleStartTime: boolean, log: ConversionLog): VehicleSpec {
  const c = route.constraints ?? {};
  const base = ['routesData', i, 'constraints'];
  // The schema guarantees a first start location with coordinates.
  const start = firstPoint(c.startLocations, [...base, 'startLocations'], log);
  return {
    path: log.namer.name(['routesData', i]),
    name: route.name ?? `Route ${i + 1}`,
    start,
    end: firstPoint(c.endLocations, [...base, 'endLocations'], log),
    ...pendingAddress('startAddress', c.startLocations, log.namer.name([...base, 'startLocations', 0])),
    ...pendingAddress('endAddress', c.endLocations, log.namer.name([...base, 'endLocations', 0])),
    shiftStart: clockSeconds(c.startTime),
    shiftEnd: clockSeconds(c.endTime),
    flexibleWhenGiven: flexibleStartTime,
    capacity: c.capacity ?? null,
    speed: 1,
    labels: labelList(c.tags),
    breaks: [],
    passthrough: {},
  };
}

function orderSpec(
  order: OneoffOrder,
  raw: Record<string, unknown>,
  i: number,
  defaultDuration: number | null,
  log: ConversionLog,
): StopSpec {
  const point = firstPoint(order.locations, ['ordersData', i, 'locations'], log);
  if (!order.locations || order.locations.length === 0) {
    log.warn(['ordersData', i, 'locations'], 'no location given; the order will be left unserved (missing_location)');
  }
  return {
    path: log.namer.name(['ordersData', i]),
    name: order.name ?? `Order ${i + 1}`,
    point,
    ...pendingAddress('address', order.locations, log.namer.name(['ordersData', i, 'locations', 0])),
    windows: (order.timeWindows ?? []).map((w) => ({ start: clockSeconds(w.startTime), end: clockSeconds(w.endTime) })),
    duration: order.duration != null ? durationSeconds(order.duration, ['ordersData', i, 'duration'], log) : defaultDuration,
    load: order.load ?? null,
    priority: DEFAULT_PRIORITY,
    labels: labelList(order.tags),
    passthrough: pick(raw, ORDER_PASSTHROUGH),
  };
}

/**
 * decisions.md: of several locations the first is used, with a warning. The schema guarantees
 * the first has coordinates.
 */
function firstPoint(entries: LocationEntry[] | null | undefined, path: PropertyKey[], log: ConversionLog): Point | null {
  if (!entries || entries.length === 0) return null;
  if (entries.length > 1) log.warn(path, `${entries.length} locations given; the first is used`);
  const first = entries[0]!;
  return first.latitude != null && first.longitude != null ? { lat: first.latitude, lng: first.longitude } : null;
}

/** `{[key]: {address, path}}` when the first entry has an address but no coordinates, else nothing. */
function pendingAddress<K extends string>(
  key: K,
  entries: LocationEntry[] | null | undefined,
  path: string,
): Partial<Record<K, PendingAddress>> {
  const first = entries?.[0];
  if (!first || first.latitude != null || !first.address) return {};
  return { [key]: { address: first.address, path } } as Record<K, PendingAddress>;
}
