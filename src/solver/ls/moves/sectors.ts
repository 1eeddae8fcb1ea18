/**
 * Polar sectors of the routes around the depot, as HGS-CVRP (Vidal 2022) prunes SWAP*: two
 * routes are worth a SWAP* only if the angular ranges their stops span, seen from the depot,
 * overlap. Angles are those of the locations' coordinates (longitude as x, latitude as y) around
 * the first vehicle's start, on a circle of ANGLE_UNITS, as integers so that ties do not depend on
 * round-off. A route's sector is grown stop by stop (the shorter way round each time) and kept
 * per route stamp (solution.ts: equal stamps, equal routes).
 */
import type { SolverInstance } from '../../instance.js';
import { problemLocation } from '../../local-order.js';
import type { Solution } from '../../solution.js';

/** Units of a full turn (HGS's 65,536). */
const ANGLE_UNITS = 65536;

/** The angle from a to b going counter-clockwise, in [0, ANGLE_UNITS). */
function turn(a: number, b: number): number {
  return (((b - a) % ANGLE_UNITS) + ANGLE_UNITS) % ANGLE_UNITS;
}

export class RouteSectors {
  /** Per stop: its angle around the depot (0 for a stop at the depot). */
  private readonly angle: Int32Array;
  /** Per route: the sector's start and end (counter-clockwise from start) and the stamp they hold for. */
  private readonly start: Int32Array;
  private readonly end: Int32Array;
  private readonly stampOf: Float64Array;

  constructor(inst: SolverInstance) {
    this.angle = stopAngles(inst);
    this.start = new Int32Array(inst.nVehicles);
    this.end = new Int32Array(inst.nVehicles);
    this.stampOf = new Float64Array(inst.nVehicles).fill(-1);
  }

  /** Whether the sectors of routes r1 and r2 (both non-empty) overlap. */
  overlap(sol: Solution, r1: number, r2: number): boolean {
    this.refresh(sol, r1);
    this.refresh(sol, r2);
    const { start, end } = this;
    return turn(start[r1]!, start[r2]!) <= turn(start[r1]!, end[r1]!) || turn(start[r2]!, start[r1]!) <= turn(start[r2]!, end[r2]!);
  }

  /** Grows route r's sector from its stops, unless it holds for the route's stamp already. */
  private refresh(sol: Solution, r: number): void {
    if (this.stampOf[r] === sol.stamp[r]) return;
    this.stampOf[r] = sol.stamp[r]!;
    const seq = sol.seq[r]!;
    let start = this.angle[seq[0]!]!;
    let end = start;
    for (let i = 1, n = sol.len[r]!; i < n; i++) {
      const a = this.angle[seq[i]!]!;
      // Inside already: nothing to grow. Else the sector grows on the side nearer to a.
      if (turn(start, a) <= turn(start, end)) continue;
      if (turn(end, a) <= turn(a, start)) end = a;
      else start = a;
    }
    this.start[r] = start;
    this.end[r] = end;
  }
}

/** Each stop's angle around the first vehicle's start location, in ANGLE_UNITS. */
export function stopAngles(inst: SolverInstance): Int32Array {
  const angle = new Int32Array(inst.nStops);
  const points = inst.problem.locations;
  const depot = inst.nVehicles > 0 ? points[problemLocation(inst, inst.vStartLoc[0]!)] : undefined;
  if (!depot) return angle;
  for (let s = 0; s < inst.nStops; s++) {
    const p = points[problemLocation(inst, inst.stopLoc[s]!)];
    if (!p) continue;
    const radians = Math.atan2(p.lat - depot.lat, p.lng - depot.lng);
    angle[s] = turn(0, Math.round((ANGLE_UNITS / 2) * (radians / Math.PI)));
  }
  return angle;
}
