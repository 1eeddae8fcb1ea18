/**
 * A plan made by hand (decisions.md, "Editing a project and re-planning the day"): routes a user
 * gave, timed by the exact route evaluator, the one the solver uses, whatever rules they break.
 *
 * The evaluator refuses a route that breaks a hard rule, since the search must never keep one; a
 * route moved by hand may break several, and the user must see its times to judge it. So the
 * routes are timed on the same problem with those rules lifted (lateness, overtime and overload
 * without bound, no types, no locks): travel, waiting, breaks, windows, squashing and the
 * departure follow the same code, and every rule the lifted problem no longer holds shows as a
 * figure of the schedule (late_s, overtime, a load above capacity), which plan-violations.ts
 * measures against the real problem.
 */
import type { Problem } from '../model/problem.js';
import { instanceOf } from './instance.js';
import { RouteEvaluator } from './route/evaluator.js';
import { scheduleRoute } from './route/schedule.js';
import type { RouteSchedule, SolveResult, UnservedStop } from './types.js';
import { aloneReason } from './unserved.js';

/** One route as given by hand: a vehicle and the stops it serves, in order. */
export interface HandRoute {
  vehicle: number;
  stops: readonly number[];
}

/** The message of a stop that could be served and was left out by hand. */
export const LEFT_OUT_BY_HAND = 'left out of this plan by hand';

/**
 * The schedules of `routes` (each vehicle at most once, each stop at most once, every stop with a
 * location: the caller checks these) and the reasons of the stops they leave out.
 */
export function retimeRoutes(problem: Problem, routes: readonly HandRoute[]): SolveResult {
  const lifted = withoutHardLimits(problem);
  const schedules: RouteSchedule[] = [...routes]
    .filter((route) => route.stops.length > 0)
    .sort((a, b) => a.vehicle - b.vehicle)
    .map((route) => {
      const schedule = scheduleRoute(lifted, route.vehicle, route.stops);
      if (!schedule) throw new RangeError(`the route of vehicle ${route.vehicle} cannot be timed (a stop repeated or without a location)`);
      return schedule;
    });
  const served = new Set(routes.flatMap((route) => route.stops));
  return {
    routes: schedules,
    unserved: unservedOf(problem, served),
    stats: { elapsedMs: 0, iterations: 0, firstPlanMs: 0, bestFoundMs: 0, seed: 0, threads: 0, stoppedBy: 'complete' },
  };
}

/**
 * The problem with its bounds lifted: a stop may be any amount late, a route any amount over
 * its shift, a vehicle loaded above its capacity, and every vehicle may serve every stop in any
 * order (no types, no locks). Everything that times a route is the problem's own.
 */
function withoutHardLimits(problem: Problem): Problem {
  return {
    ...problem,
    stops: problem.stops.map(({ lock: _lock, ...stop }) => ({ ...stop, maxLateness: Infinity })),
    vehicles: problem.vehicles.map((vehicle) => ({ ...vehicle, maxOvertime: Infinity })),
    compatible: new Uint8Array(problem.compatible.length).fill(1),
    allowOverload: true,
  };
}

/** A stop that could be served, left out by hand: a locked one's lock is not kept (as the solver says of one it leaves out). */
function leftOutByHand(problem: Problem, s: number): Pick<UnservedStop, 'reason' | 'message'> {
  const driver = problem.stops[s]!.lock?.driver;
  if (driver === undefined) return { reason: 'dropped_for_capacity_or_time', message: LEFT_OUT_BY_HAND };
  return { reason: 'locked_driver_cannot_serve', message: `locked to ${driver}, ${LEFT_OUT_BY_HAND}` };
}

/** The stops not served, with the reason a stop gets checked alone, or else that it was left out by hand. */
function unservedOf(problem: Problem, served: ReadonlySet<number>): UnservedStop[] {
  const inst = instanceOf(problem);
  const evaluator = new RouteEvaluator(inst);
  const unserved: UnservedStop[] = [];
  for (let s = 0; s < problem.stops.length; s++) {
    if (served.has(s)) continue;
    // No hints: the routes given by hand may break rules, so a trial insertion into them checks nothing.
    unserved.push({ stop: s, ...(aloneReason(inst, evaluator, s) ?? leftOutByHand(problem, s)), hints: [] });
  }
  return unserved;
}
