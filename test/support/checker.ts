/**
 * An independent feasibility checker for JSON plans (contract version 1).
 *
 * It deliberately shares no code with the solver or the output layer (type imports only) and
 * re-derives every number from the `Problem`: leg distances and times from the points and the
 * travel model of decisions.md, schedules by its own simulation, totals by its own sums. A bug
 * in the solver or in `buildPlan` therefore cannot hide behind the same bug in the checker.
 *
 * Internally everything is in problem units (time units, distance units); plan values are
 * converted with `units.timePerSecond` and `units.distancePerReported`.
 */
import type { Point, Problem, Stop, Vehicle } from '../../src/model/problem.js';
import type {
  LoadValue,
  Plan,
  PlanBreakVisit,
  PlanEndpoint,
  PlanRoute,
  PlanStopVisit,
  PlanSummary,
  PlanUnserved,
} from '../../src/output/plan-types.js';

/**
 * What the travel matrices hold for a leg with no road (a provider's null cell), as decisions.md's
 * "Road travel times" makes such a leg impossible; test/property/no-road.test.ts checks it is the
 * model's value. Written out here, not imported, like everything else the checker knows.
 */
export const NO_ROAD = 1_000_000_000;

export interface CheckOptions {
  /** Check unserved reason codes against the stop's own feasibility (default true). */
  checkReasons?: boolean;
  /** Report a flexible-start route that waits at its first stop for nothing (default true). */
  checkIdleStart?: boolean;
}

export const UNSERVED_REASONS = [
  'no_compatible_vehicle',
  'duration_exceeds_window',
  'load_exceeds_capacity',
  'unreachable_in_shift',
  'missing_location',
  'dropped_for_capacity_or_time',
  'locked_driver_cannot_serve',
] as const;

/** The reasons a stop gets from checking it alone against every vehicle (a locked stop: against its driver). */
const STATIC_REASONS = new Set<string>(
  UNSERVED_REASONS.filter((r) => r !== 'dropped_for_capacity_or_time' && r !== 'locked_driver_cannot_serve'),
);

/** Float noise allowed when comparing reported values converted back to units. */
const EPS = 1e-6;

// ---------------------------------------------------------------------------------------------
// Travel model, re-derived from decisions.md
// ---------------------------------------------------------------------------------------------

const EARTH_RADIUS_METRES = 6_371_008.8;

/** Great-circle distance by the haversine formula (own implementation, on purpose). */
export function greatCircleMetres(a: Point, b: Point): number {
  const toRad = Math.PI / 180;
  const phi1 = a.lat * toRad;
  const phi2 = b.lat * toRad;
  const dPhi = phi2 - phi1;
  const dLambda = (b.lng - a.lng) * toRad;
  const s = Math.sin(dPhi / 2);
  const t = Math.sin(dLambda / 2);
  const h = s * s + Math.cos(phi1) * Math.cos(phi2) * t * t;
  return 2 * EARTH_RADIUS_METRES * Math.atan2(Math.sqrt(h), Math.sqrt(Math.max(0, 1 - h)));
}

export interface Leg {
  /** Distance in distance units. */
  distance: number;
  /** Driving time in time units. */
  travel: number;
}

/** The leg between two location indices for a vehicle, per `problem.travelSource`. */
export function expectedLeg(problem: Problem, vehicle: Vehicle, from: number, to: number): Leg {
  const source = problem.travelSource;
  if (source.kind === 'matrix' || source.kind === 'road') {
    const k = from * problem.travel.size + to;
    const durations = problem.travel.durations[vehicle.profile];
    return { distance: problem.travel.distance[k] ?? NaN, travel: durations?.[k] ?? NaN };
  }
  if (from === to) return { distance: 0, travel: 0 };
  const a = problem.locations[from]!;
  const b = problem.locations[to]!;
  if (source.kind === 'euclidean') {
    const straight = Math.sqrt((a.lat - b.lat) ** 2 + (a.lng - b.lng) ** 2);
    const reported = source.rounding === 'trunc1' ? Math.floor(10 * straight + EPS) / 10 : Math.round(straight);
    const distance = Math.round(reported * problem.units.distancePerReported);
    // Benchmarks: travel time equals distance, in the same reported unit.
    return { distance, travel: Math.round(reported * problem.units.timePerSecond) };
  }
  const distance = Math.round(greatCircleMetres(a, b) * source.roadFactor);
  return { distance, travel: geoTravelSeconds(distance, vehicle.speed, source.baseSpeedKmh, source.traffic) };
}

function geoTravelSeconds(metres: number, speed: number, baseSpeedKmh: number, traffic: number): number {
  if (metres === 0) return 0;
  const metresPerSecond = (baseSpeedKmh * speed) / 3.6;
  return Math.ceil((metres / metresPerSecond) * traffic - EPS);
}

/**
 * Whether a reported leg matches the re-derived one. Geo values are compared with a hair of
 * float tolerance at the rounding boundaries (a different but equally correct formula may
 * land on the other side of an exact .5 or an exact integer).
 */
function legMatches(problem: Problem, vehicle: Vehicle, from: number, to: number, leg: Leg): boolean {
  const expected = expectedLeg(problem, vehicle, from, to);
  if (leg.distance === expected.distance && leg.travel === expected.travel) return true;
  const source = problem.travelSource;
  if (source.kind !== 'geo') return false;
  const raw = greatCircleMetres(problem.locations[from]!, problem.locations[to]!) * source.roadFactor;
  if (Math.abs(leg.distance - raw) > 0.5 + 1e-6) return false;
  if (leg.distance === 0) return leg.travel === 0;
  const exact = (leg.distance / ((source.baseSpeedKmh * vehicle.speed) / 3.6)) * source.traffic;
  return leg.travel >= Math.ceil(exact - 1e-6) && leg.travel <= Math.ceil(exact + 1e-6);
}

/** Verifies `problem.travel` against the re-derived model (input-layer check). */
export function checkTravelMatrix(problem: Problem, maxReports = 10): string[] {
  const out: string[] = [];
  const n = problem.travel.size;
  if (n !== problem.locations.length) out.push(`travel.size ${n} != locations ${problem.locations.length}`);
  if (problem.travelSource.kind === 'matrix' || problem.travelSource.kind === 'road') return out;
  for (const vehicle of problem.vehicles) {
    const durations = problem.travel.durations[vehicle.profile];
    if (!durations) {
      out.push(`vehicle ${vehicle.index} profile ${vehicle.profile} has no duration matrix`);
      continue;
    }
    for (let i = 0; i < n && out.length < maxReports; i++) {
      for (let j = 0; j < n && out.length < maxReports; j++) {
        const leg = { distance: problem.travel.distance[i * n + j]!, travel: durations[i * n + j]! };
        if (!legMatches(problem, vehicle, i, j, leg)) {
          const e = expectedLeg(problem, vehicle, i, j);
          out.push(
            `travel matrix ${i}->${j} (vehicle ${vehicle.index}): distance ${leg.distance}/travel ${leg.travel}, ` +
              `expected ${e.distance}/${e.travel}`,
          );
        }
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Schedule primitives (breaks, windows, squashing)
// ---------------------------------------------------------------------------------------------

/** Arrival after driving `travel` from `departure`, pausing for every break met on the way. */
export function driveArrival(vehicle: Vehicle, departure: number, travel: number): number {
  let now = departure;
  let remaining = travel;
  if (remaining <= 0) return now;
  for (const brk of vehicle.breaks) {
    if (brk.end <= now) continue;
    if (brk.start >= now + remaining) break;
    if (brk.start > now) remaining -= brk.start - now;
    now = brk.end;
  }
  return now + remaining;
}

/** Whether a service [start, finish] touches the inside of a break. */
function breakOverlapping(vehicle: Vehicle, start: number, finish: number): { start: number; end: number } | null {
  for (const brk of vehicle.breaks) {
    const overlaps = finish > start ? start < brk.end && finish > brk.start : start > brk.start && start < brk.end;
    if (overlaps) return brk;
  }
  return null;
}

/** Lateness of a service in the best admissible window, or null when no window admits it. */
export function windowLateness(stop: Stop, start: number, finish: number): number | null {
  let best: number | null = null;
  for (const w of stop.windows) {
    if (start < w.start) continue;
    const late = Math.max(0, finish - w.end);
    if (late > stop.maxLateness) continue;
    if (best === null || late < best) best = late;
  }
  return best;
}

/** Earliest service start at or after `arrival` inside a window, clear of breaks; null if none. */
export function earliestServiceStart(vehicle: Vehicle, stop: Stop, arrival: number, duration: number): number | null {
  for (const w of stop.windows) {
    let start = Math.max(arrival, w.start);
    for (;;) {
      const brk = breakOverlapping(vehicle, start, start + duration);
      if (!brk) break;
      start = brk.end;
    }
    if (start + duration <= w.end + stop.maxLateness) return start;
  }
  return null;
}

function samePoint(problem: Problem, a: number, b: number): boolean {
  if (a === b) return true;
  const p = problem.locations[a];
  const q = problem.locations[b];
  return p !== undefined && q !== undefined && p.lat === q.lat && p.lng === q.lng;
}

/** Service duration of `stop` after `previous` (-1 = first on the route), with squashDuration. */
export function serviceDuration(problem: Problem, previous: number, stop: number): number {
  const own = problem.stops[stop]!.duration;
  const squash = problem.squashDuration;
  if (squash === null || squash <= 0 || previous < 0) return own;
  const prevLoc = problem.stops[previous]!.location;
  const loc = problem.stops[stop]!.location;
  return samePoint(problem, prevLoc, loc) ? Math.min(own, squash) : own;
}

// ---------------------------------------------------------------------------------------------
// Own route simulation (earliest schedule), used for hidden ETAs, reasons and insertions
// ---------------------------------------------------------------------------------------------

export interface SimulatedRoute {
  feasible: boolean;
  /** Why not, when infeasible. */
  reason: string;
  end: number;
}

/**
 * Simulates a route serving `stops` in order from the earliest departure, every service as
 * early as allowed. Earliest is optimal for feasibility: arrival is monotone in departure
 * (waiting is always allowed and breaks only pause), so no later choice can fit more.
 */
export function simulateEarliest(problem: Problem, vehicleIndex: number, stops: number[]): SimulatedRoute {
  const vehicle = problem.vehicles[vehicleIndex]!;
  const load = new Float64Array(problem.dimensions.length);
  let now = vehicle.earliestStart;
  let at = vehicle.startLocation;
  let previous = -1;
  const broken = lockBroken(problem, vehicle, stops);
  if (broken) return infeasible(broken);
  for (const s of stops) {
    const stop = problem.stops[s]!;
    if (stop.location < 0) return infeasible(`stop ${s} has no location`);
    if (problem.compatible[vehicleIndex * problem.stops.length + s] !== 1) return infeasible(`stop ${s} incompatible`);
    const travel = expectedLeg(problem, vehicle, at, stop.location).travel;
    if (travel >= NO_ROAD) return infeasible(`no road from location ${at} to stop ${s}`);
    const arrival = driveArrival(vehicle, now, travel);
    const duration = serviceDuration(problem, previous, s);
    const start = earliestServiceStart(vehicle, stop, arrival, duration);
    if (start === null) return infeasible(`stop ${s} cannot be served in a window after arriving at ${arrival}`);
    now = start + duration;
    at = stop.location;
    previous = s;
    for (let k = 0; k < load.length; k++) load[k]! += stop.load[k]!;
  }
  if (!problem.allowOverload) {
    for (let k = 0; k < load.length; k++) {
      if (load[k]! > vehicle.capacity[k]! + EPS) return infeasible(`load ${load[k]} > capacity ${vehicle.capacity[k]}`);
    }
  }
  const endTravel = vehicle.endLocation < 0 ? 0 : expectedLeg(problem, vehicle, at, vehicle.endLocation).travel;
  if (endTravel >= NO_ROAD) return infeasible(`no road from location ${at} to the vehicle's end`);
  const end = vehicle.endLocation < 0 ? now : driveArrival(vehicle, now, endTravel);
  if (end > vehicle.shiftEnd + vehicle.maxOvertime) {
    return { feasible: false, reason: `ends at ${end} past shift end ${vehicle.shiftEnd} + ${vehicle.maxOvertime}`, end };
  }
  return { feasible: true, reason: '', end };
}

/**
 * What the route `stops` of `vehicle` breaks of the stops' locks (decisions.md "Locks"), read from
 * each stop's own `lock` (not from `compatible`): a stop locked to another driver, or two stops
 * with a sequence out of increasing order (equal numbers may go either way). Null when none.
 */
export function lockBroken(problem: Problem, vehicle: Vehicle, stops: readonly number[]): string | null {
  let highest: { sequence: number; stop: number } | null = null;
  for (const s of stops) {
    const lock = problem.stops[s]?.lock;
    if (!lock) continue;
    if (lock.driver !== vehicle.name) return `stop ${s} is locked to driver "${lock.driver}", served by "${vehicle.name}"`;
    if (lock.sequence === null) continue;
    if (highest && lock.sequence < highest.sequence) {
      return `stop ${s} (sequence ${lock.sequence}) is served after stop ${highest.stop} (sequence ${highest.sequence})`;
    }
    highest = { sequence: lock.sequence, stop: s };
  }
  return null;
}

function infeasible(reason: string): SimulatedRoute {
  return { feasible: false, reason, end: NaN };
}

// ---------------------------------------------------------------------------------------------
// Plan value helpers
// ---------------------------------------------------------------------------------------------

/** `HH:mm` with hours running past 24 and seconds rounded down (decisions.md output format). */
export function clockText(seconds: number): string {
  const minutes = Math.floor(seconds / 60 + 1e-9);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${h < 10 ? '0' : ''}${h}:${m < 10 ? '0' : ''}${m}`;
}

function loadVector(problem: Problem, value: LoadValue | undefined): Float64Array | string {
  const vector = new Float64Array(problem.dimensions.length);
  if (typeof value === 'number') {
    if (value === 0) return vector;
    const k = problem.dimensions.indexOf('');
    if (k < 0) return `number load ${value} but the problem has no scalar dimension`;
    vector[k] = value;
    return vector;
  }
  if (value === null || typeof value !== 'object') return `load ${JSON.stringify(value)} is not a number or object`;
  for (const [name, amount] of Object.entries(value)) {
    const k = problem.dimensions.indexOf(name);
    if (k < 0) {
      if (amount !== 0) return `load dimension "${name}" is not a problem dimension`;
      continue;
    }
    vector[k] = amount;
  }
  return vector;
}

function sameVector(a: Float64Array, b: Float64Array): boolean {
  for (let k = 0; k < a.length; k++) if (Math.abs(a[k]! - b[k]!) > 1e-6 * Math.max(1, Math.abs(a[k]!))) return false;
  return true;
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function samePlanPoint(p: { lat: number; lng: number } | null | undefined, q: Point | undefined): boolean {
  return !!p && !!q && p.lat === q.lat && p.lng === q.lng;
}

// ---------------------------------------------------------------------------------------------
// The checker
// ---------------------------------------------------------------------------------------------

interface Ctx {
  problem: Problem;
  opts: Required<CheckOptions>;
  out: string[];
  /** Reported seconds → time units. */
  t: (seconds: number) => number;
  /** Reported distance → distance units. */
  d: (reported: number) => number;
  servedBy: Map<number, string>;
}

interface RouteTotals {
  distance: number;
  driving: number;
  service: number;
  breakTime: number;
  lateness: number;
  working: number;
  overtime: number;
}

/** All rule violations of `plan` for `problem`; empty when the plan is feasible and consistent. */
export function checkPlan(problem: Problem, plan: Plan, options: CheckOptions = {}): string[] {
  const ctx: Ctx = {
    problem,
    opts: { checkReasons: true, checkIdleStart: true, ...options },
    out: [],
    t: (s) => s * problem.units.timePerSecond,
    d: (r) => r * problem.units.distancePerReported,
    servedBy: new Map(),
  };
  if (plan.version !== 1) ctx.out.push(`plan.version is ${String(plan.version)}, expected 1`);
  checkNumbersFinite(ctx, plan);
  const usedVehicles = new Set<number>();
  plan.routes.forEach((route, r) => {
    const label = `route ${r} (${route.vehicle})`;
    if (usedVehicles.has(route.vehicle_index)) ctx.out.push(`${label}: vehicle_index ${route.vehicle_index} used by two routes`);
    usedVehicles.add(route.vehicle_index);
    checkRoute(ctx, route, label);
  });
  checkCoverage(ctx, plan.unserved);
  checkSummary(ctx, plan.summary, plan);
  return ctx.out;
}

const NUMERIC_ROUTE_FIELDS = [
  'distance_m',
  'driving_s',
  'service_s',
  'waiting_s',
  'break_s',
  'working_s',
  'overtime_s',
  'lateness_s',
] as const;
const NUMERIC_STOP_FIELDS = ['travel_s', 'distance_m', 'late_s'] as const;
const NULLABLE_STOP_FIELDS = ['arrival_s', 'start_s', 'finish_s'] as const;

/** Every number of the contract is a finite number (JSON turns NaN and Infinity into null). */
function checkNumbersFinite(ctx: Ctx, plan: Plan): void {
  const finite = (value: unknown, where: string, nullable = false): void => {
    if (nullable && value === null) return;
    if (typeof value !== 'number' || !Number.isFinite(value)) ctx.out.push(`${where} = ${String(value)} is not a finite number`);
  };
  for (const [field, value] of Object.entries(plan.summary)) if (field !== 'overload') finite(value, `summary.${field}`);
  plan.routes.forEach((route, r) => {
    for (const field of NUMERIC_ROUTE_FIELDS) finite(route[field], `routes[${r}].${field}`);
    finite(route.start.time_s, `routes[${r}].start.time_s`);
    finite(route.end.time_s, `routes[${r}].end.time_s`);
    finite(route.end.travel_s, `routes[${r}].end.travel_s`);
    finite(route.end.distance_m, `routes[${r}].end.distance_m`);
    route.visits.forEach((visit, i) => {
      const where = `routes[${r}].visits[${i}]`;
      if (visit.kind === 'break') {
        finite(visit.start_s, `${where}.start_s`);
        finite(visit.finish_s, `${where}.finish_s`);
        return;
      }
      for (const field of NUMERIC_STOP_FIELDS) finite(visit[field], `${where}.${field}`);
      for (const field of NULLABLE_STOP_FIELDS) finite(visit[field], `${where}.${field}`, true);
    });
  });
}

/** What the walk along a route's visits carries from one visit to the next. */
interface RouteWalk {
  vehicle: Vehicle;
  label: string;
  /** Route departure (time units). */
  start: number;
  /** When the previous service finished (or the route departed). */
  departure: number;
  /** False after a stop with hidden ETAs: later times are then only lower bounds. */
  exact: boolean;
  /** Latest end of a break listed since the last stop; the next service must start after it. */
  breakBarrier: number;
  at: number;
  previous: number;
  load: Float64Array;
  listedBreaks: Set<number>;
  firstStopWait: { arrival: number; start: number } | null;
  totals: RouteTotals;
}

function checkRoute(ctx: Ctx, route: PlanRoute, label: string): RouteTotals | null {
  const vehicle = ctx.problem.vehicles[route.vehicle_index];
  if (!vehicle) {
    ctx.out.push(`${label}: vehicle_index ${route.vehicle_index} does not exist`);
    return null;
  }
  const start = checkRouteStart(ctx, vehicle, route, label);
  if (!route.visits.some((v) => v.kind === 'stop')) ctx.out.push(`${label}: route serves no stop`);
  const walk: RouteWalk = {
    vehicle,
    label,
    start,
    departure: start,
    exact: true,
    breakBarrier: -Infinity,
    at: vehicle.startLocation,
    previous: -1,
    load: new Float64Array(ctx.problem.dimensions.length),
    listedBreaks: new Set(),
    firstStopWait: null,
    totals: { distance: 0, driving: 0, service: 0, breakTime: 0, lateness: 0, working: 0, overtime: 0 },
  };
  route.visits.forEach((visit, i) => {
    if (visit.kind === 'break') walkBreak(ctx, walk, visit, i);
    else walkStop(ctx, walk, visit, `${label} visit ${i} (stop ${visit.stop_index} "${visit.stop}")`);
  });
  const locks = lockBroken(
    ctx.problem,
    vehicle,
    route.visits.flatMap((v) => (v.kind === 'stop' ? [v.stop_index] : [])),
  );
  if (locks) ctx.out.push(`${label}: lock not kept: ${locks}`);
  checkRouteLoad(ctx, walk, route);
  const end = checkRouteEnd(ctx, vehicle, route, label, walk, walk.totals);
  checkIdleStart(ctx, walk);
  checkRouteBreaks(ctx, walk, end);
  walk.totals.working = end - start;
  compareRouteTotals(ctx, route, label, walk.totals);
  return walk.totals;
}

function checkRouteStart(ctx: Ctx, vehicle: Vehicle, route: PlanRoute, label: string): number {
  const { problem, out } = ctx;
  if (route.vehicle !== vehicle.name) out.push(`${label}: vehicle name "${route.vehicle}" != "${vehicle.name}"`);
  const start = ctx.t(route.start.time_s);
  checkEndpointClock(ctx, route.start, `${label} start`);
  if (!samePlanPoint(route.start.location, problem.locations[vehicle.startLocation])) {
    out.push(`${label}: start location ${JSON.stringify(route.start.location)} is not the vehicle's start`);
  }
  if (start < vehicle.earliestStart - EPS) out.push(`${label}: departs at ${start} before shift start ${vehicle.earliestStart}`);
  if (!vehicle.flexibleStart && !isStrictDeparture(vehicle, start)) {
    out.push(`${label}: strict start: departs at ${start}, must depart exactly at ${vehicle.earliestStart}`);
  }
  return start;
}

function walkBreak(ctx: Ctx, walk: RouteWalk, visit: PlanBreakVisit, i: number): void {
  const b = checkBreakVisit(ctx, walk.vehicle, visit, `${walk.label} visit ${i} (break)`, walk.listedBreaks);
  if (!b) return;
  if (b.start < walk.departure - EPS) {
    ctx.out.push(
      `${walk.label} visit ${i}: break at ${b.start} starts before the departure or previous finish ${walk.departure} (not in time order)`,
    );
  }
  walk.breakBarrier = Math.max(walk.breakBarrier, b.end);
}

function walkStop(ctx: Ctx, walk: RouteWalk, visit: PlanStopVisit, where: string): void {
  const stop = checkStopIdentity(ctx, walk, visit, where);
  if (!stop) return;
  const { problem, out } = ctx;
  const { vehicle, totals } = walk;
  const leg = { travel: ctx.t(visit.travel_s), distance: ctx.d(visit.distance_m) };
  if (expectedLeg(problem, vehicle, walk.at, stop.location).travel >= NO_ROAD) out.push(`${where}: drives a leg with no road`);
  if (!legMatches(problem, vehicle, walk.at, stop.location, leg)) {
    const e = expectedLeg(problem, vehicle, walk.at, stop.location);
    out.push(`${where}: leg travel ${leg.travel}/distance ${leg.distance}, expected travel ${e.travel}/distance ${e.distance}`);
  }
  totals.distance += leg.distance;
  totals.driving += leg.travel;
  const duration = serviceDuration(problem, walk.previous, visit.stop_index);
  const earliestArrival = driveArrival(vehicle, walk.departure, leg.travel);
  const service = hasHiddenTimes(ctx, stop, visit, where)
    ? hiddenService(ctx, walk, stop, earliestArrival, duration, where)
    : shownService(ctx, walk, visit, earliestArrival, leg.travel, duration, where);
  if (!service) return;
  const late = windowLateness(stop, service.start, service.finish);
  if (late === null) {
    out.push(
      `${where}: service [${service.start}, ${service.finish}] fits no window ${windowsText(stop)} (max lateness ${stop.maxLateness})`,
    );
  } else if (Math.abs(ctx.t(visit.late_s) - late) > EPS) {
    out.push(`${where}: late_s ${visit.late_s}, expected ${late / problem.units.timePerSecond}`);
  }
  totals.lateness += late ?? 0;
  totals.service += service.finish - service.start;
  for (let k = 0; k < walk.load.length; k++) walk.load[k]! += stop.load[k]!;
  const after = loadVector(problem, visit.load_after);
  if (typeof after === 'string') out.push(`${where}: load_after: ${after}`);
  else if (!sameVector(after, walk.load)) {
    out.push(`${where}: load_after ${JSON.stringify(visit.load_after)}, expected ${Array.from(walk.load).join('/')}`);
  }
  walk.departure = service.finish;
  walk.breakBarrier = -Infinity;
  walk.at = stop.location;
  walk.previous = visit.stop_index;
}

/** Index, name, duplicates, location, compatibility and carried fields; the stop when usable. */
function checkStopIdentity(ctx: Ctx, walk: RouteWalk, visit: PlanStopVisit, where: string): Stop | null {
  const { problem, out } = ctx;
  const s = visit.stop_index;
  const stop = problem.stops[s];
  if (!stop) {
    out.push(`${where}: stop_index ${s} does not exist`);
    return null;
  }
  if (visit.stop !== stop.name) out.push(`${where}: name "${visit.stop}" != "${stop.name}"`);
  const other = ctx.servedBy.get(s);
  if (other !== undefined) out.push(`${where}: stop served twice (also by ${other})`);
  ctx.servedBy.set(s, walk.label);
  if (stop.location < 0) {
    out.push(`${where}: served although it has no location`);
    return null;
  }
  if (!samePlanPoint(visit.location, problem.locations[stop.location])) {
    out.push(`${where}: location ${JSON.stringify(visit.location)} is not the stop's`);
  }
  const vi = walk.vehicle.index;
  if (problem.compatible[vi * problem.stops.length + s] !== 1) {
    out.push(`${where}: vehicle ${vi} "${walk.vehicle.name}" is not compatible with the stop (types/tags)`);
  }
  for (const [key, value] of Object.entries(stop.passthrough)) {
    if (value !== undefined && !deepEqual(visit[key], value)) out.push(`${where}: passthrough field "${key}" not carried unchanged`);
  }
  return stop;
}

/** Whether the visit's times are to be re-derived (null ETAs); reports wrong nulls either way. */
function hasHiddenTimes(ctx: Ctx, stop: Stop, visit: PlanStopVisit, where: string): boolean {
  const hidden = ctx.problem.surface === 'project' && !stop.durationGiven;
  const fields = [visit.arrival_s, visit.start_s, visit.finish_s, visit.arrival, visit.start, visit.finish];
  if (hidden && !fields.every((x) => x === null)) ctx.out.push(`${where}: project stop without duration must have null ETAs`);
  const missing = visit.arrival_s === null || visit.start_s === null || visit.finish_s === null;
  if (!hidden && missing) ctx.out.push(`${where}: null ETA for a stop with a duration`);
  return hidden || missing;
}

/** A service whose times the plan does not show: the earliest one the rules allow. */
function hiddenService(
  ctx: Ctx,
  walk: RouteWalk,
  stop: Stop,
  earliestArrival: number,
  duration: number,
  where: string,
): { start: number; finish: number } | null {
  const earliest = earliestServiceStart(walk.vehicle, stop, earliestArrival, duration);
  if (earliest === null) {
    ctx.out.push(`${where}: no window admits the service after the earliest arrival ${earliestArrival}`);
    return null;
  }
  walk.exact = false;
  const start = Math.max(earliest, walk.breakBarrier);
  return { start, finish: start + duration };
}

function shownService(
  ctx: Ctx,
  walk: RouteWalk,
  visit: PlanStopVisit,
  earliestArrival: number,
  travel: number,
  duration: number,
  where: string,
): { start: number; finish: number } {
  const { out } = ctx;
  const arrival = ctx.t(visit.arrival_s!);
  const start = ctx.t(visit.start_s!);
  const finish = ctx.t(visit.finish_s!);
  checkClock(ctx, visit.arrival, visit.arrival_s, `${where} arrival`);
  checkClock(ctx, visit.start, visit.start_s, `${where} start`);
  checkClock(ctx, visit.finish, visit.finish_s, `${where} finish`);
  if (walk.exact ? Math.abs(arrival - earliestArrival) > EPS : arrival < earliestArrival - EPS) {
    out.push(
      `${where}: arrival ${arrival}, expected ${walk.exact ? '' : '>= '}${earliestArrival} ` +
        `(departure ${walk.departure} + travel ${travel} + break pauses)`,
    );
  }
  if (start < arrival - EPS) out.push(`${where}: service starts at ${start} before arrival ${arrival}`);
  if (Math.abs(finish - start - duration) > EPS) out.push(`${where}: service lasts ${finish - start}, expected duration ${duration}`);
  if (start < walk.breakBarrier - EPS) out.push(`${where}: service starts at ${start} before a listed break ends at ${walk.breakBarrier}`);
  if (walk.previous < 0) walk.firstStopWait = { arrival, start };
  const brk = breakOverlapping(walk.vehicle, start, finish);
  if (brk) out.push(`${where}: service [${start}, ${finish}] overlaps break [${brk.start}, ${brk.end}]`);
  return { start, finish };
}

function checkRouteLoad(ctx: Ctx, walk: RouteWalk, route: PlanRoute): void {
  const { problem, out } = ctx;
  const { load, vehicle, label } = walk;
  if (!problem.allowOverload) {
    problem.dimensions.forEach((name, k) => {
      if (load[k]! > vehicle.capacity[k]! + EPS) {
        out.push(`${label}: load ${load[k]} on dimension "${name}" exceeds capacity ${vehicle.capacity[k]}`);
      }
    });
  }
  const routeLoad = loadVector(problem, route.load);
  if (typeof routeLoad === 'string') out.push(`${label}: load: ${routeLoad}`);
  else if (!sameVector(routeLoad, load)) out.push(`${label}: load ${JSON.stringify(route.load)}, expected ${Array.from(load).join('/')}`);
  checkRouteOverload(ctx, walk, route);
}

/** With overload allowed, each route reports its load above capacity per dimension (decisions.md). */
function checkRouteOverload(ctx: Ctx, walk: RouteWalk, route: PlanRoute): void {
  const { problem, out } = ctx;
  if (!problem.allowOverload) {
    if (route.overload !== undefined) out.push(`${walk.label}: overload is given but overload is not allowed`);
    return;
  }
  const expected = walk.load.map((amount, k) => Math.max(0, amount - walk.vehicle.capacity[k]!));
  const given = route.overload === undefined ? 'missing' : loadVector(problem, route.overload);
  if (typeof given === 'string' || !sameVector(given, expected)) {
    out.push(`${walk.label}: overload ${JSON.stringify(route.overload)}, expected ${Array.from(expected).join('/')}`);
  }
}

/** A flexible start never idles for nothing: departing later would remove a wait at the first stop. */
function checkIdleStart(ctx: Ctx, walk: RouteWalk): void {
  const wait = walk.firstStopWait;
  if (!ctx.opts.checkIdleStart || !walk.vehicle.flexibleStart || !wait) return;
  const breakInBetween = walk.vehicle.breaks.some((b) => b.start < wait.start && b.end > walk.start);
  if (wait.start > wait.arrival + EPS && !breakInBetween) {
    ctx.out.push(`${walk.label}: flexible start but waits ${wait.start - wait.arrival} at its first stop (could depart later)`);
  }
}

/** Every break inside [start, end] is listed, none outside; break time is the part inside. */
function checkRouteBreaks(ctx: Ctx, walk: RouteWalk, end: number): void {
  const { start, label } = walk;
  for (const [b, brk] of walk.vehicle.breaks.entries()) {
    const inside = brk.start < end && brk.end > start;
    if (inside && !walk.listedBreaks.has(b))
      ctx.out.push(`${label}: break [${brk.start}, ${brk.end}] falls inside the route but is not listed`);
    if (!inside && walk.listedBreaks.has(b)) {
      ctx.out.push(`${label}: break [${brk.start}, ${brk.end}] listed but outside the route [${start}, ${end}]`);
    }
    if (inside) walk.totals.breakTime += Math.min(brk.end, end) - Math.max(brk.start, start);
  }
}

/**
 * A strict start departs exactly at the shift start; when a break is under way then, no driving
 * may happen, so departing at that break's end (the break then lies before the route) is the
 * same departure. Both forms are accepted.
 */
function isStrictDeparture(vehicle: Vehicle, start: number): boolean {
  if (Math.abs(start - vehicle.earliestStart) <= EPS) return true;
  const during = vehicle.breaks.find((b) => b.start <= vehicle.earliestStart && vehicle.earliestStart < b.end);
  return during !== undefined && Math.abs(start - during.end) <= EPS;
}

function checkBreakVisit(
  ctx: Ctx,
  vehicle: Vehicle,
  visit: PlanBreakVisit,
  where: string,
  listed: Set<number>,
): { start: number; end: number } | null {
  const start = ctx.t(visit.start_s);
  const end = ctx.t(visit.finish_s);
  checkClock(ctx, visit.start, visit.start_s, `${where} start`);
  checkClock(ctx, visit.finish, visit.finish_s, `${where} finish`);
  const b = vehicle.breaks.findIndex((x) => Math.abs(x.start - start) <= EPS && Math.abs(x.end - end) <= EPS);
  if (b < 0) {
    ctx.out.push(`${where}: [${start}, ${end}] is not one of the vehicle's breaks`);
    return null;
  }
  if (listed.has(b)) ctx.out.push(`${where}: break [${start}, ${end}] listed twice`);
  listed.add(b);
  return vehicle.breaks[b]!;
}

function checkRouteEnd(
  ctx: Ctx,
  vehicle: Vehicle,
  route: PlanRoute,
  label: string,
  state: { departure: number; at: number; exact: boolean; breakBarrier: number },
  totals: RouteTotals,
): number {
  const { problem, out } = ctx;
  const end = ctx.t(route.end.time_s);
  checkEndpointClock(ctx, route.end, `${label} end`);
  let expected: number;
  const leg = { travel: ctx.t(route.end.travel_s), distance: ctx.d(route.end.distance_m) };
  if (vehicle.endLocation < 0) {
    if (route.end.location !== null) out.push(`${label}: open route must end with location null`);
    if (leg.travel !== 0 || leg.distance !== 0) out.push(`${label}: open route has an end leg ${leg.travel}/${leg.distance}`);
    expected = state.departure;
  } else {
    if (!samePlanPoint(route.end.location, problem.locations[vehicle.endLocation])) {
      out.push(`${label}: end location ${JSON.stringify(route.end.location)} is not the vehicle's end`);
    }
    if (expectedLeg(problem, vehicle, state.at, vehicle.endLocation).travel >= NO_ROAD)
      out.push(`${label}: drives a leg with no road to its end`);
    if (!legMatches(problem, vehicle, state.at, vehicle.endLocation, leg)) {
      const e = expectedLeg(problem, vehicle, state.at, vehicle.endLocation);
      out.push(`${label}: end leg travel ${leg.travel}/distance ${leg.distance}, expected ${e.travel}/${e.distance}`);
    }
    expected = Math.max(driveArrival(vehicle, state.departure, leg.travel), state.breakBarrier);
  }
  totals.distance += leg.distance;
  totals.driving += leg.travel;
  if (state.exact ? Math.abs(end - expected) > EPS : end < expected - EPS) {
    out.push(`${label}: end time ${end}, expected ${state.exact ? '' : '>= '}${expected}`);
  }
  const limit = vehicle.shiftEnd + vehicle.maxOvertime;
  if (end > limit + EPS) {
    out.push(`${label}: ends at ${end}, past shift end ${vehicle.shiftEnd} + allowed overtime ${vehicle.maxOvertime}`);
  }
  totals.overtime = Math.max(0, end - vehicle.shiftEnd);
  return end;
}

function compareRouteTotals(ctx: Ctx, route: PlanRoute, label: string, totals: RouteTotals): void {
  const waiting = totals.working - totals.driving - totals.service - totals.breakTime;
  if (waiting < -EPS) ctx.out.push(`${label}: working ${totals.working} < driving + service + break (negative waiting ${waiting})`);
  const pairs: [string, number, number][] = [
    ['distance_m', ctx.d(route.distance_m), totals.distance],
    ['driving_s', ctx.t(route.driving_s), totals.driving],
    ['service_s', ctx.t(route.service_s), totals.service],
    ['break_s', ctx.t(route.break_s), totals.breakTime],
    ['waiting_s', ctx.t(route.waiting_s), waiting],
    ['working_s', ctx.t(route.working_s), totals.working],
    ['overtime_s', ctx.t(route.overtime_s), totals.overtime],
    ['lateness_s', ctx.t(route.lateness_s), totals.lateness],
  ];
  for (const [field, reported, expected] of pairs) {
    if (Math.abs(reported - expected) > EPS) ctx.out.push(`${label}: ${field} = ${reported} (units), recomputed ${expected}`);
  }
}

function checkClock(ctx: Ctx, text: string | null, seconds: number | null, where: string): void {
  if (seconds === null) return;
  const expected = clockText(seconds);
  if (text !== expected) ctx.out.push(`${where}: clock "${String(text)}" does not match ${seconds} s (expected "${expected}")`);
}

function checkEndpointClock(ctx: Ctx, endpoint: PlanEndpoint, where: string): void {
  checkClock(ctx, endpoint.time, endpoint.time_s, where);
}

function windowsText(stop: Stop): string {
  return stop.windows.map((w) => `[${w.start}, ${w.end}]`).join(' ');
}

function checkCoverage(ctx: Ctx, unserved: PlanUnserved[]): void {
  const { problem, out } = ctx;
  const seen = new Set<number>();
  let previousIndex = -1;
  for (const entry of unserved) {
    const where = `unserved stop ${entry.stop_index} "${entry.stop}"`;
    const stop = problem.stops[entry.stop_index];
    if (!stop) {
      out.push(`${where}: stop_index does not exist`);
      continue;
    }
    if (entry.stop_index <= previousIndex) out.push(`${where}: unserved list not in stop order`);
    previousIndex = entry.stop_index;
    if (entry.stop !== stop.name) out.push(`${where}: name != "${stop.name}"`);
    if (seen.has(entry.stop_index)) out.push(`${where}: listed twice as unserved`);
    seen.add(entry.stop_index);
    if (ctx.servedBy.has(entry.stop_index)) out.push(`${where}: both served (${ctx.servedBy.get(entry.stop_index)}) and unserved`);
    if (typeof entry.message !== 'string' || entry.message.trim() === '') out.push(`${where}: empty message`);
    if (!(UNSERVED_REASONS as readonly string[]).includes(entry.reason)) {
      out.push(`${where}: unknown reason code "${entry.reason}"`);
    } else if (ctx.opts.checkReasons) {
      const wrong = reasonMismatch(problem, entry.stop_index, entry.reason);
      if (wrong) out.push(`${where}: reason "${entry.reason}" is wrong: ${wrong}`);
    }
  }
  problem.stops.forEach((stop, s) => {
    if (!seen.has(s) && !ctx.servedBy.has(s)) out.push(`stop ${s} "${stop.name}" is neither served nor unserved`);
  });
}

/** Why the claimed reason does not fit the stop, or null when it does. */
export function reasonMismatch(problem: Problem, s: number, reason: string): string | null {
  const stop = problem.stops[s]!;
  const aloneFeasible = problem.vehicles.some((_, v) => simulateEarliest(problem, v, [s]).feasible);
  const locked = lockedReasonMismatch(stop, reason);
  if (locked !== undefined) return locked;
  if (reason === 'dropped_for_capacity_or_time') {
    return aloneFeasible ? null : 'the stop cannot be served even alone, so a static reason applies';
  }
  if (!STATIC_REASONS.has(reason)) return `unknown reason`;
  if (aloneFeasible) return 'the stop is feasible alone on some vehicle';
  const compatibleVehicles = problem.vehicles.filter((_, v) => problem.compatible[v * problem.stops.length + s] === 1);
  switch (reason) {
    case 'missing_location':
      return stop.location < 0 ? null : 'the stop has a location';
    case 'no_compatible_vehicle':
      return compatibleVehicles.length === 0 ? null : `${compatibleVehicles.length} vehicle(s) are compatible`;
    case 'duration_exceeds_window':
      return stop.windows.some((w) => stop.duration <= w.end - w.start + stop.maxLateness) ? 'the duration fits one of its windows' : null;
    case 'load_exceeds_capacity': {
      if (problem.allowOverload) return 'capacity overload is allowed';
      const exceeds = compatibleVehicles.some((v) => problem.dimensions.some((_, k) => stop.load[k]! > v.capacity[k]! + EPS));
      return exceeds ? null : 'the load fits every compatible vehicle';
    }
    default:
      return null;
  }
}

/**
 * A locked stop left out is `locked_driver_cannot_serve`, unless no driver at all could serve it
 * (no location, a service longer than its windows); no other stop has that reason. Undefined when
 * the other rules decide.
 */
function lockedReasonMismatch(stop: Stop, reason: string): string | null | undefined {
  const noDriverCould = stop.location < 0 || !stop.windows.some((w) => stop.duration <= w.end - w.start + stop.maxLateness);
  if (reason === 'locked_driver_cannot_serve') {
    if (!stop.lock) return 'the stop is not locked';
    return noDriverCould ? 'no driver could serve it, so a static reason applies' : null;
  }
  if (stop.lock && !noDriverCould) return `the stop is locked to "${stop.lock.driver}": locked_driver_cannot_serve applies`;
  return undefined;
}

function checkSummary(ctx: Ctx, summary: PlanSummary, plan: Plan): void {
  const { problem } = ctx;
  const sum = (pick: (r: PlanRoute) => number): number => plan.routes.reduce((acc, r) => acc + pick(r), 0);
  const served = plan.routes.flatMap((r) => r.visits.filter((v): v is PlanStopVisit => v.kind === 'stop'));
  const priority = served.reduce((acc, v) => acc + (problem.stops[v.stop_index]?.priority ?? 0), 0);
  const pairs: [Exclude<keyof PlanSummary, 'overload'>, number][] = [
    ['routes_used', plan.routes.length],
    ['served', served.length],
    ['unserved', plan.unserved.length],
    ['priority_served', priority],
    ['distance_m', sum((r) => r.distance_m)],
    ['driving_s', sum((r) => r.driving_s)],
    ['service_s', sum((r) => r.service_s)],
    ['waiting_s', sum((r) => r.waiting_s)],
    ['break_s', sum((r) => r.break_s)],
    ['working_s', sum((r) => r.working_s)],
    ['lateness_s', sum((r) => r.lateness_s)],
    ['overtime_s', sum((r) => r.overtime_s)],
  ];
  for (const [field, expected] of pairs) {
    if (Math.abs(summary[field] - expected) > EPS * Math.max(1, Math.abs(expected))) {
      ctx.out.push(`summary.${field} = ${summary[field]}, expected ${expected}`);
    }
  }
  checkSummaryOverload(ctx, summary, plan);
}

/** With overload allowed the summary adds up the routes' overloads per dimension; without, it has none. */
function checkSummaryOverload(ctx: Ctx, summary: PlanSummary, plan: Plan): void {
  const { problem } = ctx;
  if (!problem.allowOverload) {
    if (summary.overload !== undefined) ctx.out.push('summary.overload is given but overload is not allowed');
    return;
  }
  const expected = new Float64Array(problem.dimensions.length);
  for (const route of plan.routes) {
    const overload = route.overload === undefined ? null : loadVector(problem, route.overload);
    if (overload !== null && typeof overload !== 'string') overload.forEach((value, k) => (expected[k]! += value));
  }
  const given = summary.overload === undefined ? 'missing' : loadVector(problem, summary.overload);
  if (typeof given === 'string' || !sameVector(given, expected)) {
    ctx.out.push(`summary.overload ${JSON.stringify(summary.overload)}, expected ${Array.from(expected).join('/')}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Missed insertions
// ---------------------------------------------------------------------------------------------

/**
 * For each unserved stop, every insertion into every position of every route and into every
 * unused vehicle, simulated independently. Reports each stop that fits somewhere as is — the
 * plan should have served it (objective level 1 dominates everything else).
 */
export function findInsertableUnserved(problem: Problem, plan: Plan): string[] {
  const out: string[] = [];
  const used = new Set(plan.routes.map((r) => r.vehicle_index));
  const sequences = plan.routes.map((r) => ({
    vehicle: r.vehicle_index,
    stops: r.visits.filter((v): v is PlanStopVisit => v.kind === 'stop').map((v) => v.stop_index),
  }));
  for (const entry of plan.unserved) {
    const s = entry.stop_index;
    const stop = problem.stops[s];
    if (!stop || stop.location < 0) continue;
    const found = findInsertion(problem, s, sequences, used);
    if (found) out.push(`unserved stop ${s} "${stop.name}" (${entry.reason}) fits ${found}`);
  }
  return out;
}

function findInsertion(problem: Problem, s: number, sequences: { vehicle: number; stops: number[] }[], used: Set<number>): string | null {
  const compatible = (v: number): boolean => problem.compatible[v * problem.stops.length + s] === 1;
  for (const route of sequences) {
    if (!compatible(route.vehicle)) continue;
    for (let pos = 0; pos <= route.stops.length; pos++) {
      const candidate = [...route.stops.slice(0, pos), s, ...route.stops.slice(pos)];
      if (simulateEarliest(problem, route.vehicle, candidate).feasible) {
        return `into the route of vehicle ${route.vehicle} at position ${pos}`;
      }
    }
  }
  for (let v = 0; v < problem.vehicles.length; v++) {
    if (used.has(v) || !compatible(v)) continue;
    if (simulateEarliest(problem, v, [s]).feasible) return `alone on unused vehicle ${v}`;
  }
  return null;
}

/** Whether the plan's own stop sequences are feasible by the checker's simulation (diagnostics). */
export function simulatePlanSequences(problem: Problem, plan: Plan): string[] {
  return plan.routes.flatMap((r) => {
    const sim = simulateEarliest(
      problem,
      r.vehicle_index,
      r.visits.filter((v): v is PlanStopVisit => v.kind === 'stop').map((v) => v.stop_index),
    );
    return sim.feasible ? [] : [`route of vehicle ${r.vehicle_index}: ${sim.reason}`];
  });
}

/**
 * Objective level 1 by a one-for-one exchange: an unserved stop that fits in place of a served
 * stop of lower priority (same route, any position) means the plan's total priority served can
 * be raised. Reports each such exchange (one per unserved stop).
 */
export function findPriorityExchanges(problem: Problem, plan: Plan): string[] {
  const out: string[] = [];
  const routes = plan.routes.map((r) => ({
    vehicle: r.vehicle_index,
    stops: r.visits.filter((v): v is PlanStopVisit => v.kind === 'stop').map((v) => v.stop_index),
  }));
  for (const entry of plan.unserved) {
    const u = entry.stop_index;
    const stop = problem.stops[u];
    if (!stop || stop.location < 0) continue;
    const found = findExchange(problem, u, routes);
    if (found) out.push(`unserved stop ${u} "${stop.name}" (priority ${stop.priority}) ${found}`);
  }
  return out;
}

function findExchange(problem: Problem, u: number, routes: { vehicle: number; stops: number[] }[]): string | null {
  const priority = problem.stops[u]!.priority;
  for (const route of routes) {
    if (problem.compatible[route.vehicle * problem.stops.length + u] !== 1) continue;
    for (let out = 0; out < route.stops.length; out++) {
      const removed = route.stops[out]!;
      if (problem.stops[removed]!.priority >= priority) continue;
      const rest = [...route.stops.slice(0, out), ...route.stops.slice(out + 1)];
      for (let pos = 0; pos <= rest.length; pos++) {
        const candidate = [...rest.slice(0, pos), u, ...rest.slice(pos)];
        if (simulateEarliest(problem, route.vehicle, candidate).feasible) {
          const gain = priority - problem.stops[removed]!.priority;
          return `can replace stop ${removed} (priority ${problem.stops[removed]!.priority}) on vehicle ${route.vehicle}: +${gain} priority served`;
        }
      }
    }
  }
  return null;
}

/**
 * Objective level 3 (`minimizeRoutes`) by route elimination: a route whose stops can all be
 * re-inserted, one after another, into the other routes keeps every stop served with one route
 * fewer. Only meaningful when no violation is permitted (then level 2 is 0 either way), so it
 * reports nothing for problems with lateness, overtime or overload allowances.
 */
export function findRemovableRoutes(problem: Problem, plan: Plan): string[] {
  if (!problem.objective.minimizeRoutes || problem.allowOverload) return [];
  if (problem.stops.some((s) => s.maxLateness > 0) || problem.vehicles.some((v) => v.maxOvertime > 0)) return [];
  const sequences = plan.routes.map((r) => ({
    vehicle: r.vehicle_index,
    stops: r.visits.filter((v): v is PlanStopVisit => v.kind === 'stop').map((v) => v.stop_index),
  }));
  const out: string[] = [];
  sequences.forEach((victim, r) => {
    const others = sequences.filter((_, k) => k !== r).map((x) => ({ vehicle: x.vehicle, stops: [...x.stops] }));
    const placed = victim.stops.every((s) => placeGreedily(problem, s, others));
    if (placed) {
      const result = others.map((x) => `vehicle ${x.vehicle}: [${x.stops.join(', ')}]`).join('; ');
      out.push(`route of vehicle ${victim.vehicle} (${victim.stops.length} stops) can be dissolved into the other routes: ${result}`);
    }
  });
  return out;
}

function placeGreedily(problem: Problem, s: number, routes: { vehicle: number; stops: number[] }[]): boolean {
  for (const route of routes) {
    if (problem.compatible[route.vehicle * problem.stops.length + s] !== 1) continue;
    for (let pos = 0; pos <= route.stops.length; pos++) {
      const candidate = [...route.stops.slice(0, pos), s, ...route.stops.slice(pos)];
      if (simulateEarliest(problem, route.vehicle, candidate).feasible) {
        route.stops = candidate;
        return true;
      }
    }
  }
  return false;
}

/**
 * Stops served away from the vehicle they prefer (Stop.prefer) that could go back to it as the
 * plan stands: taken out of their route and put anywhere in the preferred vehicle's route, every
 * rule still kept (the checker's own simulation, permitted lateness and overtime allowed). The
 * stability rule forbids such a plan: going back serves the same priority, and stability ranks
 * above every other level.
 */
export function findReturnableMoved(problem: Problem, plan: Plan): string[] {
  const out: string[] = [];
  const sequences = new Map(
    plan.routes.map((r) => [r.vehicle_index, r.visits.filter((v): v is PlanStopVisit => v.kind === 'stop').map((v) => v.stop_index)]),
  );
  for (const [w, stops] of sequences) {
    for (const s of stops) {
      const preferred = problem.vehicles.findIndex((vehicle) => vehicle.name === problem.stops[s]!.prefer);
      if (preferred < 0 || preferred === w) continue;
      if (problem.compatible[preferred * problem.stops.length + s] !== 1) continue;
      const target = sequences.get(preferred) ?? [];
      for (let pos = 0; pos <= target.length; pos++) {
        const candidate = [...target.slice(0, pos), s, ...target.slice(pos)];
        if (simulateEarliest(problem, preferred, candidate).feasible) {
          out.push(`stop ${s} served by vehicle ${w} fits its preferred vehicle ${preferred} at position ${pos}`);
          break;
        }
      }
    }
  }
  return out;
}
