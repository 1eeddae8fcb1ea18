/**
 * A deliberately small, independent evaluation of fixed routes against a Problem: the test-side
 * check that a benchmark's best-known routes are feasible and cost exactly the published value
 * under our normalization. Routes are lists of customer numbers (Stop.index + 1), depot omitted.
 */
import type { Problem } from '../../src/model/problem.js';

export interface RouteEvaluation {
  /** Total distance in problem units (tenths for DIMACS). */
  distance: number;
  violations: string[];
  servedCount: number;
}

export function evaluateRoutes(problem: Problem, routes: number[][]): RouteEvaluation {
  const violations: string[] = [];
  const seen = new Set<number>();
  let distance = 0;
  routes.forEach((route, r) => {
    const vehicle = problem.vehicles[r];
    if (vehicle === undefined) {
      violations.push(`route ${r + 1}: no vehicle left (fleet is ${problem.vehicles.length})`);
      return;
    }
    const result = evaluateOne(
      problem,
      vehicle.index,
      route.map((customer) => customer - 1),
      violations,
      `route ${r + 1}`,
    );
    distance += result;
    for (const customer of route) {
      if (seen.has(customer)) violations.push(`customer ${customer} is served twice`);
      seen.add(customer);
    }
  });
  for (let s = 0; s < problem.stops.length; s++) {
    if (!seen.has(s + 1)) violations.push(`customer ${s + 1} is not served`);
  }
  return { distance, violations, servedCount: seen.size };
}

function evaluateOne(problem: Problem, v: number, stops: number[], violations: string[], label: string): number {
  const vehicle = problem.vehicles[v]!;
  const n = problem.travel.size;
  const durations = problem.travel.durations[vehicle.profile]!;
  let at = vehicle.startLocation;
  let time = vehicle.earliestStart;
  let distance = 0;
  const load = new Float64Array(problem.dimensions.length);
  for (const s of stops) {
    const stop = problem.stops[s];
    if (stop === undefined) {
      violations.push(`${label}: unknown customer ${s + 1}`);
      continue;
    }
    distance += problem.travel.distance[at * n + stop.location]!;
    const arrival = time + durations[at * n + stop.location]!;
    const window = stop.windows.find((w) => Math.max(arrival, w.start) + stop.duration <= w.end);
    if (window === undefined) {
      violations.push(`${label}: customer ${s + 1} cannot finish inside its window (arrival ${arrival})`);
      time = arrival + stop.duration;
    } else {
      time = Math.max(arrival, window.start) + stop.duration;
    }
    stop.load.forEach((amount, d) => (load[d] = load[d]! + amount));
    at = stop.location;
  }
  load.forEach((amount, d) => {
    if (amount > vehicle.capacity[d]!) violations.push(`${label}: load ${amount} exceeds capacity ${vehicle.capacity[d]}`);
  });
  distance += problem.travel.distance[at * n + vehicle.endLocation]!;
  const returnTime = time + durations[at * n + vehicle.endLocation]!;
  if (returnTime > vehicle.shiftEnd) violations.push(`${label}: returns at ${returnTime}, after ${vehicle.shiftEnd}`);
  return distance;
}
