/**
 * SREX, selective route exchange (Nagata & Kobayashi), as the population's crossover
 * (population.ts): a child starts as a copy of parent B; a set of neighbouring routes of parent A
 * replaces as many routes of B (those sharing most stops with them, on vehicles of the same class,
 * so that shifts, capacities, types and depots stay the vehicle's own); A's stops are taken out of
 * B's other routes, and what the replaced routes served besides is left for the recreate
 * (recreate.ts) to put back. Every route changes through the exact evaluator: a route that breaks a
 * rule once changed (an A route on another vehicle of its class with other preferences, a shortened
 * route whose rounded times are not triangular) is emptied and its stops reinserted, so the child is
 * as feasible as every plan of the search.
 */
import type { SolverInstance } from '../instance.js';
import { SREX_MAX_ROUTE_SHARE } from '../params.js';
import type { Rng } from '../rng.js';
import type { RouteEvaluator } from '../route/evaluator.js';
import type { Solution } from '../solution.js';

export class RouteExchange {
  /** Per vehicle of A: 1 when its route is among those handed to the child. */
  private readonly chosen: Uint8Array;
  /** Per vehicle of the child: 1 when it takes one of A's routes. */
  private readonly target: Uint8Array;
  /** Per vehicle of the child: how many stops of the A route being placed it serves. */
  private readonly overlap: Int32Array;
  /** Per stop: 1 when it rides in one of the chosen A routes. */
  private readonly fromA: Uint8Array;
  private readonly everyVehicle: number[];

  /** `neighbours` holds `k` nearest stops per stop: the chosen routes of A are near one another through them. */
  constructor(
    private readonly inst: SolverInstance,
    private readonly evaluator: RouteEvaluator,
    private readonly neighbours: Int32Array,
    private readonly k: number,
    private readonly rng: Rng,
  ) {
    this.chosen = new Uint8Array(inst.nVehicles);
    this.target = new Uint8Array(inst.nVehicles);
    this.overlap = new Int32Array(inst.nVehicles);
    this.fromA = new Uint8Array(inst.nStops);
    this.everyVehicle = Array.from({ length: inst.nVehicles }, (_, v) => v);
  }

  /**
   * Makes `child` B with some of A's routes in place of B's; answers the stops the child no
   * longer serves that B served (the recreate's pool).
   */
  cross(child: Solution, a: Solution, b: Solution): number[] {
    // Route by route, for fresh stamps: the polish must see every route as changed (Solution.copyRoutesFrom).
    child.copyRoutesFrom(b, this.everyVehicle);
    child.clearTouched();
    const routes = this.chooseRoutes(a);
    if (routes.length === 0) return [];
    const displaced: number[] = [];
    const placements = this.placeOnVehicles(child, a, routes, displaced);
    this.takeOutOfOtherRoutes(child, displaced);
    for (const [from, to] of placements) this.assign(child, a, from, to, displaced);
    this.chosen.fill(0);
    this.target.fill(0);
    this.fromA.fill(0);
    return displaced.filter((s) => child.routeOf[s] === -1);
  }

  /**
   * Up to a random share (SREX_MAX_ROUTE_SHARE) of A's routes, grown from a random stop's route
   * through each chosen route's stops' nearest neighbours: routes that lie together.
   */
  private chooseRoutes(a: Solution): number[] {
    const { inst, rng, neighbours, k } = this;
    const used = a.routesUsed();
    if (used === 0) return [];
    const wanted = rng.between(1, Math.max(1, Math.floor(used * SREX_MAX_ROUTE_SHARE)));
    let seed = rng.int(inst.nStops);
    while (a.routeOf[seed] === -1) seed = (seed + 1) % inst.nStops;
    const routes = [a.routeOf[seed]!];
    this.chosen[routes[0]!] = 1;
    for (let r = 0; r < routes.length && routes.length < wanted; r++) {
      const v = routes[r]!;
      for (let i = 0; i < a.len[v]! && routes.length < wanted; i++) {
        const s = a.seq[v]![i]!;
        for (let j = 0; j < k && routes.length < wanted; j++) {
          const t = neighbours[s * k + j]!;
          const w = t < 0 ? -1 : a.routeOf[t]!;
          if (w < 0 || this.chosen[w] === 1) continue;
          this.chosen[w] = 1;
          routes.push(w);
        }
      }
    }
    for (const v of routes) for (let i = 0; i < a.len[v]!; i++) this.fromA[a.seq[v]![i]!] = 1;
    return routes;
  }

  /**
   * For each chosen A route, the child's vehicle of the same class that shares most of its stops
   * (its own vehicle on a tie, then the lowest), emptied; its stops join `displaced`. A route with
   * no vehicle of its class left stays out (its stops keep their places in B).
   */
  private placeOnVehicles(child: Solution, a: Solution, routes: number[], displaced: number[]): [number, number][] {
    const { inst, overlap, target } = this;
    const placements: [number, number][] = [];
    for (const from of routes) {
      for (let i = 0; i < a.len[from]!; i++) {
        const w = child.routeOf[a.seq[from]![i]!]!;
        if (w >= 0) overlap[w]!++;
      }
      let to = -1;
      for (let w = 0; w < inst.nVehicles; w++) {
        if (target[w] === 1 || inst.vClass[w] !== inst.vClass[from]) continue;
        if (to === -1 || overlap[w]! > overlap[to]! || (overlap[w] === overlap[to] && w === from)) to = w;
      }
      overlap.fill(0);
      if (to === -1) {
        for (let i = 0; i < a.len[from]!; i++) this.fromA[a.seq[from]![i]!] = 0;
        continue;
      }
      target[to] = 1;
      for (const s of child.clearRoute(to, this.evaluator)) displaced.push(s);
      placements.push([from, to]);
    }
    return placements;
  }

  /** Takes A's stops out of the child's routes that keep B's sequence; a route that then breaks a rule is emptied. */
  private takeOutOfOtherRoutes(child: Solution, displaced: number[]): void {
    const inst = this.inst;
    const shortened: number[] = [];
    for (let s = 0; s < inst.nStops; s++) {
      if (this.fromA[s] === 0 || child.routeOf[s] === -1) continue;
      const v = child.detach(s);
      if (!shortened.includes(v)) shortened.push(v);
    }
    for (const v of shortened) {
      if (!child.refreshRoute(v, this.evaluator)) for (const s of child.clearRoute(v, this.evaluator)) displaced.push(s);
    }
  }

  /** Gives vehicle `to` of the child A's route of vehicle `from`; emptied again if it breaks a rule there. */
  private assign(child: Solution, a: Solution, from: number, to: number, displaced: number[]): void {
    const n = a.len[from]!;
    const seq = a.seq[from]!;
    child.assignRoute(to, seq, n);
    for (let i = 0; i < n; i++) child.servedPriority += this.inst.stopPriority[seq[i]!]!;
    if (!child.refreshRoute(to, this.evaluator)) for (const s of child.clearRoute(to, this.evaluator)) displaced.push(s);
  }
}
