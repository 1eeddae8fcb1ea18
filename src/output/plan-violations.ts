/**
 * Every rule a plan made by hand breaks (decisions.md, "Editing a project and re-planning the
 * day"), per stop and per route, in words and numbers: a stop late past its window, a route past
 * its shift end, a vehicle loaded above its capacity, a stop on a vehicle without its types, a
 * lock broken. Read from the schedules solver/retime.ts timed (the exact evaluator's figures)
 * against the real problem's rules. A break is never crossed: the evaluator pauses travel for it
 * and starts no service inside it, so what a break costs shows as lateness or overtime.
 */
import type { Problem, Stop, Vehicle } from '../model/problem.js';
import type { RouteSchedule, SolveResult, StopVisit } from '../solver/types.js';
import { formatDuration, formatNumber } from './format.js';
import type { z } from 'zod';
import type { planViolationSchema, violationKindSchema } from './plan-schema.js';

export type ViolationKind = z.infer<typeof violationKindSchema>;

/** The shape is plan-schema.ts's planViolationSchema (the OpenAPI document's too). */
export type PlanViolation = z.infer<typeof planViolationSchema>;

/** The violations of `result`'s routes, route by route and, in each, visit by visit. */
export function planViolations(problem: Problem, result: SolveResult): PlanViolation[] {
  return result.routes.flatMap((route) => routeViolations(problem, route));
}

function routeViolations(problem: Problem, route: RouteSchedule): PlanViolation[] {
  const vehicle = problem.vehicles[route.vehicle]!;
  const seconds = (units: number): number => units / problem.units.timePerSecond;
  const onRoute = { driver: vehicle.name, vehicle_index: vehicle.index };
  const stops = route.visits.filter((visit): visit is StopVisit => visit.kind === 'stop');
  const out: PlanViolation[] = [];
  stops.forEach((visit, position) => {
    const stop = problem.stops[visit.stop]!;
    const atStop = { ...onRoute, stop: stop.name, stop_index: stop.index };
    const lock = lockBroken(problem, vehicle, stop, stops.slice(0, position));
    if (lock) out.push({ kind: 'lock_broken', ...atStop, permitted: false, message: lock });
    else if (problem.compatible[route.vehicle * problem.stops.length + visit.stop] !== 1) {
      out.push({ kind: 'incompatible_types', ...atStop, permitted: false, message: typesMessage(problem, vehicle, stop) });
    }
    if (visit.late > 0) {
      const late = seconds(visit.late);
      const permitted = visit.late <= stop.maxLateness;
      out.push({ kind: 'late', ...atStop, amount: late, permitted, message: `late by ${formatDuration(late)} (past its window's end)` });
    }
  });
  if (route.overtime > 0) {
    const over = seconds(route.overtime);
    const permitted = route.overtime <= vehicle.maxOvertime;
    out.push({
      kind: 'overtime',
      ...onRoute,
      amount: over,
      permitted,
      message: `overtime: the shift end is passed by ${formatDuration(over)}`,
    });
  }
  return [...out, ...overloads(problem, vehicle, route, onRoute)];
}

/** A lock the stop's place breaks: another driver's stop, or served before a stop of a higher sequence. */
function lockBroken(problem: Problem, vehicle: Vehicle, stop: Stop, before: readonly StopVisit[]): string | null {
  const lock = stop.lock;
  if (!lock) return null;
  if (lock.driver !== vehicle.name) return `locked to ${lock.driver}, on ${vehicle.name}'s route`;
  if (lock.sequence === null) return null;
  const later = before.map((visit) => problem.stops[visit.stop]!).find((earlier) => (earlier.lock?.sequence ?? 0) > lock.sequence!);
  return later ? `locked as number ${lock.sequence} of ${vehicle.name}, served after ${later.name} (number ${later.lock!.sequence})` : null;
}

function typesMessage(problem: Problem, vehicle: Vehicle, stop: Stop): string {
  const what = problem.surface === 'oneoff' ? 'tags' : 'types';
  const has = vehicle.labels.length > 0 ? vehicle.labels.join(', ') : 'none';
  return `needs ${what} ${stop.labels.join(', ')}; ${vehicle.name} has ${has}`;
}

/** One violation per dimension whose load is above the vehicle's capacity. */
function overloads(
  problem: Problem,
  vehicle: Vehicle,
  route: RouteSchedule,
  onRoute: { driver: string; vehicle_index: number },
): PlanViolation[] {
  const out: PlanViolation[] = [];
  problem.dimensions.forEach((dimension, k) => {
    const excess = route.load[k]! - vehicle.capacity[k]!;
    // Float noise below the solver's own tolerance is no overload (as plan.ts reports it).
    if (!(excess > 1e-9 * Math.max(1, Math.abs(vehicle.capacity[k]!)))) return;
    const name = dimension === '' ? 'load' : dimension;
    const message = `overload: ${name} ${formatNumber(route.load[k]!)} of a capacity of ${formatNumber(vehicle.capacity[k]!)} (${formatNumber(excess)} over)`;
    out.push({ kind: 'overload', ...onRoute, amount: excess, dimension, permitted: problem.allowOverload, message });
  });
  return out;
}
