/**
 * Decomposition of a large plan into parts that separate searches can improve apart (the cutting
 * and merging of search.ts's epochs). The routes are sorted by the polar angle of their centroid around the
 * depot and cut into sectors of about equal stop counts; an unserved stop joins the sector of the
 * route whose angle is nearest its own (a stop locked to a driver joins that driver's part, the
 * only one where it can be served); empty vehicles are dealt out in turn. Each part is a
 * sub-problem of the same problem — its vehicles, its stops, the same travel matrices — so any
 * search runs on it unchanged, and since parts share no vehicle and no stop their improved routes
 * merge into a feasible whole. The objective is a sum over routes (without balancing, which is a
 * global term: no decomposition then), so parts never worse than their start merge into a whole
 * never worse than its start.
 */
import type { Point, Problem } from '../../model/problem.js';

export interface Part {
  /** Vehicles of the whole problem, increasing. */
  vehicles: number[];
  /** Stops of the whole problem (those on the part's routes and the unserved ones it was given), increasing. */
  stops: number[];
}

/** Whether a plan of this problem may be decomposed at all: no balancing (a global term of the cost). */
export function decomposable(problem: Problem): boolean {
  return problem.objective.balance === 'none';
}

/**
 * `count` parts of the plan `routes` (one stop sequence per vehicle) by the angle of each route's
 * centroid; `rotation` in [0, 1) turns where the first sector starts (a fraction of a full turn),
 * so that the borders move from one call to the next.
 */
export function splitByAngle(problem: Problem, routes: readonly Int32Array[], count: number, rotation: number): Part[] {
  const centre = depotCentre(problem);
  const angleOf = (p: Point): number => {
    const a = Math.atan2(p.lat - centre.lat, p.lng - centre.lng) / (2 * Math.PI) - rotation;
    return a - Math.floor(a);
  };
  const parts: Part[] = Array.from({ length: count }, () => ({ vehicles: [], stops: [] }));
  const used: Array<{ v: number; angle: number; len: number }> = [];
  let served = 0;
  let empty = 0;
  routes.forEach((route, v) => {
    if (route.length === 0) {
      parts[empty++ % count]!.vehicles.push(v);
      return;
    }
    let lat = 0;
    let lng = 0;
    let located = 0;
    for (const s of route) {
      const loc = problem.stops[s]!.location;
      if (loc < 0) continue;
      lat += problem.locations[loc]!.lat;
      lng += problem.locations[loc]!.lng;
      located++;
    }
    used.push({ v, angle: located > 0 ? angleOf({ lat: lat / located, lng: lng / located }) : 0, len: route.length });
    served += route.length;
  });
  used.sort((a, b) => a.angle - b.angle || a.v - b.v);
  const partOfRoute = new Int32Array(used.length);
  let before = 0;
  used.forEach((route, i) => {
    // The part whose share of the stops holds this route's middle stop: contiguous sectors.
    const g = Math.min(count - 1, Math.floor((count * (before + route.len / 2)) / Math.max(1, served)));
    partOfRoute[i] = g;
    parts[g]!.vehicles.push(route.v);
    for (const s of routes[route.v]!) parts[g]!.stops.push(s);
    before += route.len;
  });
  const onRoute = new Uint8Array(problem.stops.length);
  for (const route of routes) for (const s of route) onRoute[s] = 1;
  const partOfLock = lockedParts(problem, parts);
  for (let s = 0; s < problem.stops.length; s++) {
    if (onRoute[s] === 1) continue;
    const stop = problem.stops[s]!;
    const loc = stop.location;
    const locked = stop.lock ? partOfLock.get(stop.lock.driver) : undefined;
    const g = locked ?? (loc < 0 || used.length === 0 ? s % count : partOfRoute[nearestAngle(used, angleOf(problem.locations[loc]!))]!);
    parts[g]!.stops.push(s);
  }
  for (const part of parts) {
    part.vehicles.sort((a, b) => a - b);
    part.stops.sort((a, b) => a - b);
  }
  return parts;
}

/** The part of each driver (by name, as locks name them) once every vehicle has its part. */
function lockedParts(problem: Problem, parts: readonly Part[]): Map<string, number> {
  const partOf = new Map<string, number>();
  if (!problem.stops.some((stop) => stop.lock)) return partOf;
  parts.forEach((part, g) => {
    for (const v of part.vehicles) partOf.set(problem.vehicles[v]!.name, g);
  });
  return partOf;
}

/** Index in `sorted` (by angle) of the entry nearest `angle` around the circle. */
function nearestAngle(sorted: ReadonlyArray<{ angle: number }>, angle: number): number {
  let best = 0;
  let bestGap = Infinity;
  sorted.forEach((entry, i) => {
    const d = Math.abs(entry.angle - angle);
    const gap = Math.min(d, 1 - d);
    if (gap < bestGap) {
      bestGap = gap;
      best = i;
    }
  });
  return best;
}

/** Mean of the vehicles' start locations (the depot when they share one). */
function depotCentre(problem: Problem): Point {
  let lat = 0;
  let lng = 0;
  let n = 0;
  for (const vehicle of problem.vehicles) {
    const p = problem.locations[vehicle.startLocation];
    if (!p) continue;
    lat += p.lat;
    lng += p.lng;
    n++;
  }
  return n > 0 ? { lat: lat / n, lng: lng / n } : { lat: 0, lng: 0 };
}

/** The part as a problem of its own: its stops and vehicles (renumbered in order), everything else shared. */
export function subProblem(problem: Problem, part: Part): Problem {
  const nStops = problem.stops.length;
  const m = part.stops.length;
  const compatible = new Uint8Array(part.vehicles.length * m);
  part.vehicles.forEach((v, i) => {
    const row = v * nStops;
    for (let j = 0; j < m; j++) compatible[i * m + j] = problem.compatible[row + part.stops[j]!]!;
  });
  return {
    ...problem,
    stops: part.stops.map((s) => problem.stops[s]!),
    vehicles: part.vehicles.map((v) => problem.vehicles[v]!),
    compatible,
  };
}

/** The part's routes in its sub-problem's numbering: one per part vehicle, stops renumbered. */
export function routesInPart(part: Part, routes: readonly Int32Array[], nStops: number): Int32Array[] {
  const local = new Int32Array(nStops).fill(-1);
  part.stops.forEach((s, j) => (local[s] = j));
  return part.vehicles.map((v) =>
    routes[v]!.map((s) => {
      const j = local[s]!;
      if (j < 0) throw new Error(`internal error: stop ${s} on route ${v} is not in its part`);
      return j;
    }),
  );
}

/** The whole plan from the parts' routes (in their own numbering); vehicles in no part stay empty. */
export function mergeParts(nVehicles: number, parts: readonly Part[], partRoutes: ReadonlyArray<readonly Int32Array[]>): Int32Array[] {
  const routes: Int32Array[] = Array.from({ length: nVehicles }, () => new Int32Array(0));
  parts.forEach((part, p) => {
    part.vehicles.forEach((v, i) => {
      routes[v] = partRoutes[p]![i]!.map((j) => part.stops[j]!);
    });
  });
  return routes;
}
