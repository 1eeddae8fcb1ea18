/**
 * Hand-written invariant checks of a solve result, independent of the solver's evaluator
 * (only the "no unserved stop fits" check uses `scheduleRoute`, which defines "fits").
 * Returns a list of human-readable violations; empty means the result is valid.
 */
import type { Problem } from '../../src/model/problem.js';
import { scheduleRoute } from '../../src/solver/route/schedule.js';
import type { SolveResult, StopVisit } from '../../src/solver/types.js';
import { mayServe } from '../support/problem-builder.js';

const EPS = 1e-6;

function driveWithBreaks(breaks: Array<{ start: number; end: number }>, from: number, duration: number): number {
  if (duration === 0) return from;
  let t = from;
  let left = duration;
  for (const b of breaks) {
    if (b.end <= t) continue;
    if (t >= b.start) {
      t = b.end;
      continue;
    }
    if (t + left <= b.start) return t + left;
    left -= b.start - t;
    t = b.end;
  }
  return t + left;
}

export function checkInvariants(problem: Problem, result: SolveResult, options: { insertable?: boolean } = {}): string[] {
  const errors: string[] = [];
  const seen = new Map<number, string>();
  const nStops = problem.stops.length;
  const usedVehicles = new Set<number>();
  for (const route of result.routes) {
    const v = route.vehicle;
    const tag = `vehicle ${v}`;
    if (usedVehicles.has(v)) errors.push(`${tag}: appears twice`);
    usedVehicles.add(v);
    const vehicle = problem.vehicles[v]!;
    const N = problem.travel.size;
    const dur = problem.travel.durations[vehicle.profile]!;
    const stopsVisited = route.visits.filter((x): x is StopVisit => x.kind === 'stop');
    if (stopsVisited.length === 0) errors.push(`${tag}: route without stops`);
    if (route.start < vehicle.earliestStart) errors.push(`${tag}: departs before the shift start`);
    if (!vehicle.flexibleStart) {
      const inBreak = vehicle.breaks.find((b) => vehicle.earliestStart >= b.start && vehicle.earliestStart < b.end);
      const expected = inBreak ? inBreak.end : vehicle.earliestStart;
      if (route.start !== expected) errors.push(`${tag}: strict start departs at ${route.start}, not ${expected}`);
    }
    for (const b of vehicle.breaks) {
      if (route.start > b.start && route.start < b.end) errors.push(`${tag}: departs inside a break`);
    }
    let ready = route.start;
    let prevLoc = vehicle.startLocation;
    let prevStopLoc = -1;
    let driving = 0;
    let distance = 0;
    let service = 0;
    let lateness = 0;
    const load = new Float64Array(problem.dimensions.length);
    for (const visit of stopsVisited) {
      const s = visit.stop;
      const stop = problem.stops[s]!;
      if (seen.has(s)) errors.push(`stop ${s}: served twice`);
      seen.set(s, tag);
      if (stop.location < 0) errors.push(`stop ${s}: served without a location`);
      if (!mayServe(problem, v, s)) errors.push(`stop ${s}: served by incompatible ${tag}`);
      const leg = dur[prevLoc * N + stop.location]!;
      if (visit.travel !== leg) errors.push(`stop ${s}: travel ${visit.travel} ≠ matrix ${leg}`);
      if (visit.distance !== problem.travel.distance[prevLoc * N + stop.location]) errors.push(`stop ${s}: distance mismatch`);
      const arrival = driveWithBreaks(vehicle.breaks, ready, leg);
      if (visit.arrival !== arrival) errors.push(`stop ${s}: arrival ${visit.arrival} ≠ ${arrival}`);
      if (visit.start < visit.arrival) errors.push(`stop ${s}: service starts before arrival`);
      let d = stop.duration;
      const squash = problem.squashDuration;
      if (squash !== null && squash > 0 && prevStopLoc === stop.location) d = Math.min(d, squash);
      if (Math.abs(visit.finish - visit.start - d) > EPS) errors.push(`stop ${s}: service length ${visit.finish - visit.start} ≠ ${d}`);
      const windows = stop.windows.filter((w) => visit.start >= w.start && visit.finish <= w.end + stop.maxLateness + EPS);
      if (windows.length === 0) errors.push(`stop ${s}: service [${visit.start}, ${visit.finish}] outside every window`);
      else {
        const late = Math.min(...windows.map((w) => Math.max(0, visit.finish - w.end)));
        if (Math.abs(late - visit.late) > EPS) errors.push(`stop ${s}: late ${visit.late} ≠ ${late}`);
      }
      for (const b of vehicle.breaks) {
        if (visit.start < b.end && visit.finish > b.start) errors.push(`stop ${s}: service overlaps a break`);
      }
      problem.stops[s]!.load.forEach((x, k) => (load[k]! += x));
      for (let k = 0; k < load.length; k++) {
        if (Math.abs(visit.loadAfter[k]! - load[k]!) > EPS) errors.push(`stop ${s}: loadAfter mismatch`);
      }
      driving += leg;
      distance += visit.distance;
      service += d;
      lateness += visit.late;
      ready = visit.finish;
      prevLoc = stop.location;
      prevStopLoc = stop.location;
    }
    let end = ready;
    if (vehicle.endLocation >= 0) {
      const leg = dur[prevLoc * N + vehicle.endLocation]!;
      if (route.endTravel !== leg) errors.push(`${tag}: end travel mismatch`);
      end = driveWithBreaks(vehicle.breaks, ready, leg);
      driving += leg;
      distance += problem.travel.distance[prevLoc * N + vehicle.endLocation]!;
    }
    if (route.end !== end) errors.push(`${tag}: end ${route.end} ≠ ${end}`);
    if (end > vehicle.shiftEnd + vehicle.maxOvertime) errors.push(`${tag}: ends past shift end + overtime`);
    if (Math.abs(route.overtime - Math.max(0, end - vehicle.shiftEnd)) > EPS) errors.push(`${tag}: overtime mismatch`);
    if (route.driving !== driving) errors.push(`${tag}: driving ${route.driving} ≠ ${driving}`);
    if (route.distance !== distance) errors.push(`${tag}: distance ${route.distance} ≠ ${distance}`);
    if (Math.abs(route.service - service) > EPS) errors.push(`${tag}: service total mismatch`);
    if (Math.abs(route.lateness - lateness) > EPS) errors.push(`${tag}: lateness total mismatch`);
    let breakTime = 0;
    for (const b of vehicle.breaks) if (b.start >= route.start && b.end <= route.end) breakTime += b.end - b.start;
    if (route.breakTime !== breakTime) errors.push(`${tag}: breakTime ${route.breakTime} ≠ ${breakTime}`);
    const breakVisits = route.visits.filter((x) => x.kind === 'break');
    if (breakVisits.length !== vehicle.breaks.filter((b) => b.start >= route.start && b.end <= route.end).length) {
      errors.push(`${tag}: break visits do not match the breaks inside the route`);
    }
    let last = -Infinity;
    for (const visit of route.visits) {
      if (visit.start < last - EPS) errors.push(`${tag}: visits out of time order`);
      last = visit.kind === 'stop' ? visit.finish : visit.finish;
    }
    if (route.working !== route.end - route.start) errors.push(`${tag}: working ≠ end − start`);
    if (Math.abs(route.driving + route.service + route.waiting + route.breakTime - route.working) > EPS) {
      errors.push(`${tag}: working ≠ driving + service + waiting + breaks`);
    }
    if (route.waiting < -EPS) errors.push(`${tag}: negative waiting`);
    let overload = 0;
    problem.dimensions.forEach((_, k) => {
      const cap = vehicle.capacity[k]!;
      if (load[k]! > cap + 1e-9) {
        if (!problem.allowOverload) errors.push(`${tag}: over capacity in dimension ${k}`);
        overload += load[k]! - cap;
      }
    });
    if (Math.abs(overload - route.overload) > 1e-6) errors.push(`${tag}: overload mismatch`);
  }
  const unservedSet = new Set<number>();
  for (const entry of result.unserved) {
    if (seen.has(entry.stop)) errors.push(`stop ${entry.stop}: both served and unserved`);
    if (unservedSet.has(entry.stop)) errors.push(`stop ${entry.stop}: unserved twice`);
    unservedSet.add(entry.stop);
    if (!entry.message) errors.push(`stop ${entry.stop}: unserved without a message`);
  }
  if (seen.size + unservedSet.size !== nStops) errors.push(`served ${seen.size} + unserved ${unservedSet.size} ≠ ${nStops}`);
  if (options.insertable !== false) {
    for (const s of unservedSet) {
      for (let v = 0; v < problem.vehicles.length; v++) {
        const route = result.routes.find((r) => r.vehicle === v);
        const seq = route ? route.visits.filter((x): x is StopVisit => x.kind === 'stop').map((x) => x.stop) : [];
        for (let p = 0; p <= seq.length; p++) {
          const candidate = [...seq.slice(0, p), s, ...seq.slice(p)];
          if (scheduleRoute(problem, v, candidate)) {
            errors.push(`stop ${s}: unserved but fits vehicle ${v} at position ${p}`);
            p = seq.length + 1;
            v = problem.vehicles.length;
          }
        }
      }
    }
  }
  return errors;
}
