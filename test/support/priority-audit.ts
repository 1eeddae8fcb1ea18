/**
 * An independent priority audit of a JSON plan: the priority one move would still claim.
 *
 * Like the checker it shares no code with the solver (type imports only): every route it tries is
 * simulated by the checker's own `simulateEarliest` (windows with their permitted lateness,
 * breaks, shifts with their permitted overtime, capacities, compatibility, locks), so a chance it
 * counts is proved by a feasible route, never estimated. For each unserved stop u it asks:
 *
 * - (a) insert: u fits as the plan stands, at any position of any route or alone on an unused
 *   vehicle (every position tried: a route is short beside the plan);
 * - (b) swap: a served stop w of lower priority leaves its route and u fits in that route without
 *   w (at w's place or any other), raising the priority served by priority(u) − priority(w);
 * - (c) relocate then insert: a served stop w moves to another route (any position) or alone to an
 *   unused vehicle, and u fits in w's old route without it, raising it by priority(u).
 *
 * Bounded work on a thousand stops, neighbour-limited: w is one of u's `neighbours` nearest stops
 * (by the problem's travel distance, there and back; unserved ones skipped), and w's new route is
 * one holding one of w's `neighbours` nearest stops. A chance farther away is not looked for, so
 * the counts are a lower bound of what one move could claim; each one counted is real.
 */
import type { Problem } from '../../src/model/problem.js';
import type { Plan, PlanStopVisit } from '../../src/output/plan-types.js';
import { expectedLeg, simulateEarliest } from './checker.js';

/** Stops looked at around an unserved stop and around a stop to relocate. */
export const AUDIT_NEIGHBOURS = 20;

export interface PriorityChance {
  /** The unserved stop's index. */
  stop: number;
  /** Priority served more after the move. */
  gain: number;
  /** The move, in words (stop indexes and vehicle indexes). */
  move: string;
}

export interface PriorityAudit {
  unserved: number;
  /** (a): one entry per unserved stop that fits as the plan stands. */
  inserts: PriorityChance[];
  /** (b): one entry per unserved stop that can replace a lower-priority stop (the best gain found). */
  swaps: PriorityChance[];
  /** (c): one entry per unserved stop, not in (a), that fits once one served stop moves to another route. */
  relocations: PriorityChance[];
  /** Routes simulated: the audit's work. */
  simulations: number;
}

interface AuditRoute {
  vehicle: number;
  stops: number[];
}

/** Counts (a), (b) and (c) for every unserved stop of `plan`; see the file's comment. */
export function auditPriority(problem: Problem, plan: Plan, neighbours = AUDIT_NEIGHBOURS): PriorityAudit {
  const audit = new Audit(problem, plan, neighbours);
  const result: PriorityAudit = { unserved: plan.unserved.length, inserts: [], swaps: [], relocations: [], simulations: 0 };
  for (const entry of plan.unserved) {
    const u = entry.stop_index;
    if (problem.stops[u]!.location < 0) continue;
    const insert = audit.insertion(u);
    if (insert) result.inserts.push(insert);
    const swap = audit.swap(u);
    if (swap) result.swaps.push(swap);
    // A stop that fits as it is needs no relocation: (c) counts the ones that need one.
    const relocation = insert ? null : audit.relocation(u);
    if (relocation) result.relocations.push(relocation);
  }
  result.simulations = audit.simulations;
  return result;
}

/** The audit's counts in one line, for reports. */
export function auditLine(audit: PriorityAudit): string {
  const swapGain = audit.swaps.reduce((sum, c) => sum + c.gain, 0);
  return (
    `unserved ${audit.unserved}; insertable ${audit.inserts.length}; ` +
    `replaceable by higher priority ${audit.swaps.length} (+${swapGain}); ` +
    `relocate-then-insert ${audit.relocations.length}; ${audit.simulations} routes simulated`
  );
}

class Audit {
  simulations = 0;
  private readonly routes: AuditRoute[];
  /** Index into `routes` of each stop's route, -1 when unserved. */
  private readonly routeOf: Int32Array;
  private readonly unusedVehicles: number[];

  constructor(
    private readonly problem: Problem,
    plan: Plan,
    private readonly neighbours: number,
  ) {
    this.routes = plan.routes.map((r) => ({
      vehicle: r.vehicle_index,
      stops: r.visits.filter((v): v is PlanStopVisit => v.kind === 'stop').map((v) => v.stop_index),
    }));
    this.routeOf = new Int32Array(problem.stops.length).fill(-1);
    this.routes.forEach((route, i) => route.stops.forEach((s) => (this.routeOf[s] = i)));
    const used = new Set(this.routes.map((r) => r.vehicle));
    this.unusedVehicles = problem.vehicles.map((_, v) => v).filter((v) => !used.has(v));
  }

  insertion(u: number): PriorityChance | null {
    const gain = this.problem.stops[u]!.priority;
    for (const route of this.routes) {
      const at = this.fitsAnywhere(route.vehicle, route.stops, u);
      if (at >= 0) return { stop: u, gain, move: `insert into vehicle ${route.vehicle} at ${at}` };
    }
    const alone = this.unusedFor(u);
    return alone >= 0 ? { stop: u, gain, move: `insert alone on unused vehicle ${alone}` } : null;
  }

  /** The best-gain swap of u with a nearby served stop of lower priority. */
  swap(u: number): PriorityChance | null {
    const priority = this.problem.stops[u]!.priority;
    let best: PriorityChance | null = null;
    for (const w of this.nearestServed(u)) {
      const gain = priority - this.problem.stops[w]!.priority;
      if (gain <= 0 || (best && gain <= best.gain)) continue;
      const route = this.routes[this.routeOf[w]!]!;
      const at = this.fitsAnywhere(route.vehicle, without(route.stops, w), u);
      if (at >= 0) best = { stop: u, gain, move: `replace stop ${w} on vehicle ${route.vehicle} (u at ${at})` };
    }
    return best;
  }

  relocation(u: number): PriorityChance | null {
    const gain = this.problem.stops[u]!.priority;
    for (const w of this.nearestServed(u)) {
      const route = this.routes[this.routeOf[w]!]!;
      const at = this.fitsAnywhere(route.vehicle, without(route.stops, w), u);
      if (at < 0) continue;
      const where = this.newPlaceOf(w, this.routeOf[w]!);
      if (where) return { stop: u, gain, move: `move stop ${w} ${where}, then insert into vehicle ${route.vehicle} at ${at}` };
    }
    return null;
  }

  /** Where w fits in another route than `from` (one near it) or alone on an unused vehicle. */
  private newPlaceOf(w: number, from: number): string | null {
    const tried = new Set<number>([from]);
    for (const y of this.nearestServed(w)) {
      const r = this.routeOf[y]!;
      if (tried.has(r)) continue;
      tried.add(r);
      const route = this.routes[r]!;
      const at = this.fitsAnywhere(route.vehicle, route.stops, w);
      if (at >= 0) return `to vehicle ${route.vehicle} at ${at}`;
    }
    const alone = this.unusedFor(w);
    return alone >= 0 ? `alone to unused vehicle ${alone}` : null;
  }

  /** First position at which `s` makes `stops` a feasible route of `vehicle`, -1 when none. */
  private fitsAnywhere(vehicle: number, stops: readonly number[], s: number): number {
    if (this.problem.compatible[vehicle * this.problem.stops.length + s] !== 1) return -1;
    for (let at = 0; at <= stops.length; at++) {
      this.simulations++;
      if (simulateEarliest(this.problem, vehicle, [...stops.slice(0, at), s, ...stops.slice(at)]).feasible) return at;
    }
    return -1;
  }

  /** An unused vehicle that can serve `s` alone, -1 when none. */
  private unusedFor(s: number): number {
    for (const v of this.unusedVehicles) {
      if (this.problem.compatible[v * this.problem.stops.length + s] !== 1) continue;
      this.simulations++;
      if (simulateEarliest(this.problem, v, [s]).feasible) return v;
    }
    return -1;
  }

  /** The served ones among the `neighbours` stops nearest `s` (travel distance there and back). */
  private nearestServed(s: number): number[] {
    const problem = this.problem;
    const vehicle = problem.vehicles[0]!;
    const from = problem.stops[s]!.location;
    const keyed: { t: number; key: number }[] = [];
    problem.stops.forEach((stop, t) => {
      if (t === s || stop.location < 0) return;
      const there = expectedLeg(problem, vehicle, from, stop.location).distance;
      const back = expectedLeg(problem, vehicle, stop.location, from).distance;
      keyed.push({ t, key: there + back });
    });
    keyed.sort((a, b) => a.key - b.key || a.t - b.t);
    return keyed
      .slice(0, this.neighbours)
      .map((k) => k.t)
      .filter((t) => this.routeOf[t]! >= 0);
  }
}

function without(stops: readonly number[], w: number): number[] {
  return stops.filter((s) => s !== w);
}
