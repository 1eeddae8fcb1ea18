/** Small helpers shared by the solver tests. */
import type { Problem } from '../../src/model/problem.js';
import type { RouteSchedule, SolveResult, StopVisit } from '../../src/solver/types.js';
import type { LatLng } from '../support/problem-builder.js';

export const DEPOT: LatLng = [0, 0];

/** A point `km` kilometres (great-circle) east of the depot on the equator. */
export function east(km: number): LatLng {
  return [0, (km / 6371.0088) * (180 / Math.PI)];
}

export function west(km: number): LatLng {
  return [0, -(km / 6371.0088) * (180 / Math.PI)];
}

/** Travel time from location `a` to location `b` for vehicle `v`'s profile. */
export function leg(problem: Problem, a: number, b: number, v = 0): number {
  const size = problem.travel.size;
  return problem.travel.durations[problem.vehicles[v]!.profile]![a * size + b]!;
}

export function stopVisits(route: RouteSchedule): StopVisit[] {
  return route.visits.filter((x): x is StopVisit => x.kind === 'stop');
}

export function servedStops(result: SolveResult): number[] {
  return result.routes.flatMap((r) => stopVisits(r).map((x) => x.stop)).sort((a, b) => a - b);
}

export function reasonOf(result: SolveResult, stop: number): string | undefined {
  return result.unserved.find((u) => u.stop === stop)?.reason;
}

export const H = 3600;
export const MIN = 60;

/** A Solomon-format instance of `n` customers with tight windows (moves priced by summaries, as on Gehring–Homberger). */
export function tightWindowsSolomonText(n: number, seed: number): string {
  let state = seed;
  const next = (m: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % m;
  };
  const rows = [`    0     250        250          0          0       2000          0`];
  for (let c = 1; c <= n; c++) {
    const ready = next(1700);
    rows.push(`${c} ${next(500)} ${next(500)} ${1 + next(30)} ${ready} ${ready + 60 + next(120)} 10`);
  }
  return ['GENERATED', '', 'VEHICLE', 'NUMBER     CAPACITY', ` ${n / 4}          200`, '', 'CUSTOMER', 'CUST NO. …', '', ...rows, ''].join(
    '\n',
  );
}
