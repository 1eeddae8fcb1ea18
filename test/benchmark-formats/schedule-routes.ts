/**
 * Turns fixed routes (customer numbers, as in .sol files) into a SolveResult with earliest
 * schedules, departing as late as removes waiting at the first stop (flexible start). Used to push
 * the best-known solutions, and VROOM's routes in the --vs vroom bench, through buildPlan and the
 * checker, independently of the solver. Route r runs on vehicle `vehicles[r]` (default r); routes
 * must not be empty.
 */
import type { Problem } from '../../src/model/problem.js';
import type { RouteSchedule, SolveResult, StopVisit } from '../../src/solver/types.js';

export function scheduleRoutes(problem: Problem, routes: number[][], vehicles: number[] = routes.map((_, r) => r)): SolveResult {
  return {
    routes: routes.map((route, r) =>
      scheduleOne(
        problem,
        vehicles[r]!,
        route.map((customer) => customer - 1),
      ),
    ),
    unserved: [],
    stats: { elapsedMs: 0, iterations: 0, firstPlanMs: 0, bestFoundMs: 0, seed: 0, threads: 1, stoppedBy: 'complete' },
  };
}

function scheduleOne(problem: Problem, v: number, stops: number[]): RouteSchedule {
  const vehicle = problem.vehicles[v]!;
  const n = problem.travel.size;
  const durations = problem.travel.durations[vehicle.profile]!;
  const first = problem.stops[stops[0]!]!;
  const firstTravel = durations[vehicle.startLocation * n + first.location]!;
  const departure = Math.max(vehicle.earliestStart, first.windows[0]!.start - firstTravel);
  let time = departure;
  let at = vehicle.startLocation;
  let distance = 0;
  let waiting = 0;
  let service = 0;
  const load = new Float64Array(problem.dimensions.length);
  const visits: StopVisit[] = stops.map((s) => {
    const stop = problem.stops[s]!;
    const travel = durations[at * n + stop.location]!;
    const legDistance = problem.travel.distance[at * n + stop.location]!;
    const arrival = time + travel;
    const start = Math.max(arrival, stop.windows[0]!.start);
    waiting += start - arrival;
    service += stop.duration;
    time = start + stop.duration;
    distance += legDistance;
    stop.load.forEach((amount, d) => (load[d] = load[d]! + amount));
    at = stop.location;
    return {
      kind: 'stop',
      stop: s,
      travel,
      distance: legDistance,
      arrival,
      start,
      finish: time,
      late: 0,
      loadAfter: Float64Array.from(load),
    };
  });
  const endTravel = durations[at * n + vehicle.endLocation]!;
  const endDistance = problem.travel.distance[at * n + vehicle.endLocation]!;
  const end = time + endTravel;
  return {
    vehicle: v,
    start: departure,
    end,
    endTravel,
    endDistance,
    visits,
    distance: distance + endDistance,
    driving: distance + endDistance,
    service,
    waiting,
    breakTime: 0,
    working: end - departure,
    overtime: 0,
    lateness: 0,
    overload: 0,
    load,
  };
}
