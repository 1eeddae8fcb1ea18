/** Builds the JSON plan (contract version 1) from a problem and a solve result. */
import { SCALAR_DIMENSION } from '../model/problem.js';
import type { Problem, Stop } from '../model/problem.js';
import { formatClock } from '../model/time.js';
import type { BreakVisit, RouteSchedule, SolveResult, StopVisit, UnservedStop } from '../solver/types.js';
import type {
  LoadValue,
  Plan,
  PlanBreakVisit,
  PlanEndpoint,
  PlanLocation,
  PlanRoute,
  PlanStopVisit,
  PlanSolver,
  PlanSummary,
  PlanTravel,
  PlanUnserved,
  PlanVisit,
} from './plan-types.js';
import { planHint } from './plan-hints.js';

/** Converts problem units (time units, distance units) into the plan's reported units. */
interface UnitScale {
  seconds(timeUnits: number): number;
  distance(distanceUnits: number): number;
}

export function buildPlan(problem: Problem, result: SolveResult): Plan {
  const scale = unitScale(problem);
  const routes = result.routes.map((route) => buildRoute(problem, route, scale));
  return {
    version: 1,
    summary: buildSummary(problem, result, scale),
    routes,
    unserved: result.unserved.map((entry) => buildUnserved(problem, entry)),
    ...travelOf(problem),
    solver: solverOf(result),
  };
}

/** How the search ran, in seconds rounded to the millisecond. */
function solverOf(result: SolveResult): PlanSolver {
  const { stats } = result;
  const seconds = (ms: number): number => Math.round(ms) / 1000;
  return {
    iterations: stats.iterations,
    first_plan_s: seconds(stats.firstPlanMs),
    best_found_s: seconds(stats.bestFoundMs),
    elapsed_s: seconds(stats.elapsedMs),
    stop_reason: stats.stoppedBy,
    threads: stats.threads,
    seed: stats.seed,
    ...(stats.command && {
      time_limit_s: stats.command.limitMs / 1000,
      solve_started_s: seconds(stats.command.solveStartMs),
      output_reserve_s: seconds(stats.command.outputReserveMs),
    }),
  };
}

/** The plan's travel source: every leg keeps its own travel_s and distance_m, this says where they came from. */
function travelOf(problem: Problem): { travel?: PlanTravel } {
  const source = problem.travelSource;
  if (source.kind === 'geo') return { travel: { source: 'haversine' } };
  if (source.kind !== 'road') return {};
  return {
    travel: { source: source.source, ...(source.profile ? { profile: source.profile } : {}), ...(source.url ? { url: source.url } : {}) },
  };
}

function unitScale(problem: Problem): UnitScale {
  const { timePerSecond, distancePerReported } = problem.units;
  return {
    seconds: (value) => value / timePerSecond,
    distance: (value) => value / distancePerReported,
  };
}

function buildSummary(problem: Problem, result: SolveResult, scale: UnitScale): PlanSummary {
  const total = (pick: (route: RouteSchedule) => number): number => result.routes.reduce((sum, route) => sum + pick(route), 0);
  const servedStops = result.routes.flatMap((route) =>
    route.visits.filter((visit): visit is StopVisit => visit.kind === 'stop').map((visit) => visit.stop),
  );
  return {
    routes_used: result.routes.length,
    served: servedStops.length,
    unserved: result.unserved.length,
    priority_served: servedStops.reduce((sum, stop) => sum + stopAt(problem, stop).priority, 0),
    distance_m: scale.distance(total((route) => route.distance)),
    driving_s: scale.seconds(total((route) => route.driving)),
    service_s: scale.seconds(total((route) => route.service)),
    waiting_s: scale.seconds(total((route) => route.waiting)),
    break_s: scale.seconds(total((route) => route.breakTime)),
    working_s: scale.seconds(total((route) => route.working)),
    lateness_s: scale.seconds(total((route) => route.lateness)),
    overtime_s: scale.seconds(total((route) => route.overtime)),
    ...(problem.allowOverload ? { overload: loadValue(problem, totalOverload(problem, result.routes)) } : {}),
  };
}

/**
 * Load above the vehicle's capacity per dimension (decisions.md: with `allowCapacityOverload`, each
 * route and the summary report it). Float noise below the solver's own tolerance is no overload.
 */
function overloadOf(problem: Problem, route: RouteSchedule): Float64Array {
  const capacity = problem.vehicles[route.vehicle]!.capacity;
  return route.load.map((amount, k) => {
    const excess = amount - capacity[k]!;
    return excess > 1e-9 * Math.max(1, Math.abs(capacity[k]!)) ? excess : 0;
  });
}

function totalOverload(problem: Problem, routes: readonly RouteSchedule[]): Float64Array {
  const sum = new Float64Array(problem.dimensions.length);
  for (const route of routes) overloadOf(problem, route).forEach((excess, k) => (sum[k]! += excess));
  return sum;
}

function buildRoute(problem: Problem, route: RouteSchedule, scale: UnitScale): PlanRoute {
  const vehicle = problem.vehicles[route.vehicle];
  if (vehicle === undefined) {
    throw new Error(`solve result refers to vehicle ${route.vehicle}, which the problem does not have`);
  }
  const endLocation = vehicle.endLocation < 0 ? null : locationAt(problem, vehicle.endLocation);
  const planRoute: PlanRoute = {
    vehicle: vehicle.name,
    vehicle_index: vehicle.index,
    start: endpoint(route.start, locationAt(problem, vehicle.startLocation), scale),
    visits: route.visits.map((visit) => buildVisit(problem, visit, scale)),
    end: {
      ...endpoint(route.end, endLocation, scale),
      travel_s: scale.seconds(route.endTravel),
      distance_m: scale.distance(route.endDistance),
    },
    distance_m: scale.distance(route.distance),
    driving_s: scale.seconds(route.driving),
    service_s: scale.seconds(route.service),
    waiting_s: scale.seconds(route.waiting),
    break_s: scale.seconds(route.breakTime),
    working_s: scale.seconds(route.working),
    overtime_s: scale.seconds(route.overtime),
    lateness_s: scale.seconds(route.lateness),
    load: loadValue(problem, route.load),
    ...(problem.allowOverload ? { overload: loadValue(problem, overloadOf(problem, route)) } : {}),
  };
  return withPassthrough(planRoute, vehicle.passthrough);
}

function endpoint(time: number, location: PlanLocation | null, scale: UnitScale): PlanEndpoint {
  const seconds = scale.seconds(time);
  return { time_s: seconds, time: formatClock(seconds), location };
}

function buildVisit(problem: Problem, visit: StopVisit | BreakVisit, scale: UnitScale): PlanVisit {
  return visit.kind === 'stop' ? buildStopVisit(problem, visit, scale) : buildBreakVisit(visit, scale);
}

function buildStopVisit(problem: Problem, visit: StopVisit, scale: UnitScale): PlanStopVisit {
  const stop = stopAt(problem, visit.stop);
  // The interface returns no ETAs for a project stop without a duration (decisions.md).
  const showTimes = !(problem.surface === 'project' && !stop.durationGiven);
  const time = (value: number): number | null => (showTimes ? scale.seconds(value) : null);
  const clock = (value: number): string | null => (showTimes ? formatClock(scale.seconds(value)) : null);
  const planVisit: PlanStopVisit = {
    kind: 'stop',
    stop: stop.name,
    stop_index: stop.index,
    location: stopLocation(problem, stop),
    travel_s: scale.seconds(visit.travel),
    distance_m: scale.distance(visit.distance),
    arrival_s: time(visit.arrival),
    start_s: time(visit.start),
    finish_s: time(visit.finish),
    arrival: clock(visit.arrival),
    start: clock(visit.start),
    finish: clock(visit.finish),
    late_s: scale.seconds(visit.late),
    load_after: loadValue(problem, visit.loadAfter),
  };
  return withPassthrough(planVisit, stop.passthrough);
}

/** Carried-through fields follow the contract fields; they never overwrite one. */
function withPassthrough<T extends Record<string, unknown>>(entry: T, passthrough: Record<string, unknown>): T {
  for (const [key, value] of Object.entries(passthrough)) {
    if (!(key in entry) && value !== undefined) (entry as Record<string, unknown>)[key] = value;
  }
  return entry;
}

function buildBreakVisit(visit: BreakVisit, scale: UnitScale): PlanBreakVisit {
  const start = scale.seconds(visit.start);
  const finish = scale.seconds(visit.finish);
  return { kind: 'break', start_s: start, finish_s: finish, start: formatClock(start), finish: formatClock(finish) };
}

function buildUnserved(problem: Problem, entry: UnservedStop): PlanUnserved {
  const stop = stopAt(problem, entry.stop);
  const location = stop.location < 0 ? null : locationAt(problem, stop.location);
  const hints = entry.hints && { hints: entry.hints.map((hint) => planHint(problem, hint)) };
  const unserved: PlanUnserved = {
    stop: stop.name,
    stop_index: stop.index,
    reason: entry.reason,
    message: entry.message,
    location,
    ...hints,
  };
  return withPassthrough(unserved, stop.passthrough);
}

/** A number when the only dimension is the scalar one (0 when loads are ignored), else an object by name. */
export function loadValue(problem: Problem, load: Float64Array): LoadValue {
  const { dimensions } = problem;
  if (dimensions.length === 0) return 0;
  if (dimensions.length === 1 && dimensions[0] === SCALAR_DIMENSION) return load[0] ?? 0;
  const byName: Record<string, number> = {};
  dimensions.forEach((name, index) => {
    byName[name] = load[index] ?? 0;
  });
  return byName;
}

function stopAt(problem: Problem, index: number): Stop {
  const stop = problem.stops[index];
  if (stop === undefined) {
    throw new Error(`solve result refers to stop ${index}, which the problem does not have`);
  }
  return stop;
}

function stopLocation(problem: Problem, stop: Stop): PlanLocation {
  if (stop.location < 0) {
    throw new Error(`solve result serves stop "${stop.name}", which has no location`);
  }
  return locationAt(problem, stop.location);
}

function locationAt(problem: Problem, index: number): PlanLocation {
  const point = problem.locations[index];
  if (point === undefined) {
    throw new Error(`location ${index} is not in the problem`);
  }
  return { lat: point.lat, lng: point.lng };
}
