/**
 * Route minimisation by an ejection pool, after Nagata & Bräysy (2009, "A powerful route
 * minimization heuristic for the vehicle routing problem with time windows"): one route is taken
 * out and its stops go to a pool. Each pooled stop goes where it fits; where it fits nowhere, it is
 * put in anyway and up to EJECTION_MAX_EJECTED other stops of that route are ejected to the pool so
 * that the route keeps every rule, choosing the insertion and ejection whose ejected stops have the
 * smallest sum of failure counters (a stop's counter grows each time it fitted nowhere, so the stops
 * that are hard to place stay in and the easy ones move). Random feasible moves between tries
 * (relocate and swap between routes) shake the routes so that the next try meets other gaps.
 * Departures from the paper: no squeeze (a penalised insertion repaired by local search), ejection
 * sets from one route, and a budget of work (work.ts) rather than seconds, so that a seed keeps its
 * plan (decisions.md, `--seed`).
 *
 * Every plan it holds keeps every hard rule: a stop is only ever put where the exact evaluator
 * accepts its route, or put with its ejections checked the same way.
 */
import type { NearStops, SolverInstance } from '../instance.js';
import type { Inserter } from '../insertion.js';
import { EJECTION_MAX_EJECTED, EJECTION_PERTURB_MOVES } from '../params.js';
import type { Rng } from '../rng.js';
import { sequenceLoad } from '../route/capacity.js';
import type { RouteEvaluator } from '../route/evaluator.js';
import type { Solution } from '../solution.js';
import type { WorkMeter } from './work.js';

/** How long one route's removal may run: work (work.ts) and the deadline, whichever ends first. */
export interface EjectionBudget {
  work: number;
  deadline: number;
  clock: () => number;
}

/** The cheapest ejection found for one pooled stop: where it goes and which stops leave. */
interface Ejection {
  vehicle: number;
  /** The position of the stop in the route with it inserted and before the ejections. */
  pos: number;
  /** The positions ejected, in that same route (-1 for an unused slot). */
  out: Int32Array;
  /** Their sum of failure counters (Infinity: none found). */
  failures: number;
}

export class EjectionPool {
  /** Per stop: how often it fitted nowhere (Nagata & Bräysy's p[v]), from 1. */
  private readonly failures: Int32Array;
  private readonly routesInUse: Int32Array;
  /** The route with the pooled stop inserted, and the same with ejections left out. */
  private readonly withStop: Int32Array;
  private readonly trial: Int32Array;
  private readonly trialB: Int32Array;
  private readonly load: Float64Array;
  private readonly best: Ejection;
  private readonly chosen: Int32Array;

  constructor(
    private readonly inst: SolverInstance,
    private readonly inserter: Inserter,
    private readonly evaluator: RouteEvaluator,
    private readonly near: NearStops,
    private readonly eligible: readonly number[],
    private readonly rng: Rng,
  ) {
    this.failures = new Int32Array(inst.nStops);
    this.routesInUse = new Int32Array(inst.nVehicles);
    this.withStop = new Int32Array(inst.nStops + 1);
    this.trial = new Int32Array(inst.nStops + 1);
    this.trialB = new Int32Array(inst.nStops + 1);
    this.load = new Float64Array(Math.max(1, inst.dims));
    this.best = { vehicle: -1, pos: -1, out: new Int32Array(EJECTION_MAX_EJECTED), failures: Infinity };
    this.chosen = new Int32Array(EJECTION_MAX_EJECTED);
  }

  /**
   * A plan serving every eligible stop with one route fewer than `start` (left unchanged), or null
   * when `start` leaves one out, has one route, or the budget ends with stops still in the pool.
   */
  withOneRouteFewer(start: Solution, budget: EjectionBudget, meter: WorkMeter): Solution | null {
    if (start.routesUsed() < 2 || this.eligible.some((s) => start.routeOf[s] === -1)) return null;
    const sol = start.clone();
    this.failures.fill(1);
    const pool = sol.clearRoute(this.routeToClose(sol), this.evaluator);
    this.rng.shuffle(pool);
    const fromWork = meter.done();
    while (pool.length > 0) {
      if (meter.done() - fromWork >= budget.work || budget.clock() >= budget.deadline) return null;
      const u = pool.pop()!;
      if (this.insertWhereItFits(sol, u)) continue;
      this.failures[u]!++;
      if (!this.insertEjecting(sol, u, pool)) return null;
      this.perturb(sol, EJECTION_PERTURB_MOVES);
    }
    sol.clearTouched();
    return sol;
  }

  /** A route in use at random (the paper's choice): the smallest is not always the one that can go. */
  private routeToClose(sol: Solution): number {
    const count = this.collectRoutesInUse(sol);
    return this.routesInUse[this.rng.int(count)]!;
  }

  /** Fills `routesInUse` with the vehicles driving a route; answers how many. */
  private collectRoutesInUse(sol: Solution): number {
    let count = 0;
    for (let v = 0; v < this.inst.nVehicles; v++) if (sol.len[v]! > 0) this.routesInUse[count++] = v;
    return count;
  }

  /** Puts `u` at its cheapest feasible place in a route in use; false when it fits in none. */
  private insertWhereItFits(sol: Solution, u: number): boolean {
    const count = this.collectRoutesInUse(sol);
    if (!this.inserter.bestAmong(sol, u, this.routesInUse, count)) return false;
    if (!sol.insert(this.inserter.vehicle, this.inserter.pos, u, this.evaluator)) {
      throw new Error('internal error: insertion accepted by the evaluator failed on commit');
    }
    return true;
  }

  /**
   * Puts `u` into the route and position where ejecting up to EJECTION_MAX_EJECTED of the route's
   * other stops makes it keep every rule with the smallest sum of their failure counters (routes in
   * random order, so that ties fall at random); the ejected go to `pool`. False when none does.
   */
  private insertEjecting(sol: Solution, u: number, pool: number[]): boolean {
    const best = this.best;
    best.vehicle = -1;
    best.failures = Infinity;
    const count = this.collectRoutesInUse(sol);
    const routes = this.routesInUse.subarray(0, count);
    this.rng.shuffle(routes);
    for (const v of routes) {
      if (this.inst.compatible[v * this.inst.nStops + u] !== 1) continue;
      for (let p = 0; p <= sol.len[v]!; p++) this.bestEjectionAt(sol, v, p, u);
    }
    if (best.vehicle < 0) return false;
    this.applyEjection(sol, u, pool);
    return true;
  }

  /** Tries the ejections from route `v` with `u` at position `p`, keeping the cheapest in `best`. */
  private bestEjectionAt(sol: Solution, v: number, p: number, u: number): void {
    const n = copyWith(sol.seq[v]!, sol.len[v]!, p, u, this.withStop);
    this.chosen.fill(-1);
    this.tryEjections(v, n, p, 0, 0, 0);
  }

  /**
   * Depth-first over the ejection sets in increasing position order: `depth` positions chosen so
   * far (in `chosen`), the next from `from` on, `sum` their failure counters. A set whose sum
   * cannot beat the best found is cut off, so growing counters make the search cheaper.
   */
  private tryEjections(v: number, n: number, p: number, from: number, depth: number, sum: number): void {
    const best = this.best;
    for (let i = from; i < n; i++) {
      if (i === p) continue;
      const total = sum + this.failures[this.withStop[i]!]!;
      if (total >= best.failures) continue;
      this.chosen[depth] = i;
      if (this.feasibleWithout(v, n, depth + 1)) {
        best.vehicle = v;
        best.pos = p;
        best.failures = total;
        best.out.fill(-1);
        best.out.set(this.chosen.subarray(0, depth + 1));
      } else if (depth + 1 < EJECTION_MAX_EJECTED) {
        this.tryEjections(v, n, p, i + 1, depth + 1, total);
      }
      this.chosen[depth] = -1;
    }
  }

  /** Whether vehicle `v` keeps every rule serving `withStop[0..n)` without the `ejected` positions in `chosen`. */
  private feasibleWithout(v: number, n: number, ejected: number): boolean {
    const trial = this.trial;
    let len = 0;
    for (let i = 0; i < n; i++) {
      if (!this.isChosen(i, ejected)) trial[len++] = this.withStop[i]!;
    }
    return this.fits(v, trial, len);
  }

  private isChosen(i: number, ejected: number): boolean {
    for (let d = 0; d < ejected; d++) if (this.chosen[d] === i) return true;
    return false;
  }

  /** Inserts the pooled stop and ejects the chosen stops of `best` into `pool`. */
  private applyEjection(sol: Solution, u: number, pool: number[]): void {
    const { vehicle, pos, out } = this.best;
    const seq = sol.seq[vehicle]!;
    let at = pos;
    const leaving: number[] = [];
    for (const i of out) {
      if (i < 0) continue;
      // Positions count the route with u at `pos`: those after it are one further in the route as it stands.
      leaving.push(seq[i < pos ? i : i - 1]!);
      if (i < pos) at--;
    }
    for (const s of leaving) sol.detach(s);
    if (!sol.insert(vehicle, at, u, this.evaluator)) throw new Error('internal error: ejection accepted by the evaluator failed on commit');
    for (const s of leaving) pool.push(s);
  }

  /**
   * Up to `tries` random moves between routes in use, each kept only when both routes keep every
   * rule: a stop moved next to one of its near stops in another route, or the two swapped.
   */
  private perturb(sol: Solution, tries: number): void {
    const { neighbours, k } = this.near;
    if (k === 0) return;
    for (let t = 0; t < tries; t++) {
      const u = this.eligible[this.rng.int(this.eligible.length)]!;
      const w = neighbours[u * k + this.rng.int(k)]!;
      if (w < 0 || sol.routeOf[u]! < 0 || sol.routeOf[w]! < 0 || sol.routeOf[u] === sol.routeOf[w]) continue;
      if (this.rng.next() < 0.5) this.relocate(sol, u, w);
      else this.swap(sol, u, w);
    }
  }

  /** Moves `u` just before `w` (in w's route) when both routes keep every rule. */
  private relocate(sol: Solution, u: number, w: number): void {
    const a = sol.routeOf[u]!;
    const b = sol.routeOf[w]!;
    if (this.inst.compatible[b * this.inst.nStops + u] !== 1) return;
    const lenA = copyWithout(sol.seq[a]!, sol.len[a]!, sol.posOf[u]!, this.trial);
    if (!this.fits(a, this.trial, lenA)) return;
    const lenB = copyWith(sol.seq[b]!, sol.len[b]!, sol.posOf[w]!, u, this.trialB);
    if (!this.fits(b, this.trialB, lenB)) return;
    this.commit(sol, a, lenA, b, lenB);
  }

  /** Swaps `u` and `w` between their routes when both keep every rule. */
  private swap(sol: Solution, u: number, w: number): void {
    const a = sol.routeOf[u]!;
    const b = sol.routeOf[w]!;
    const nStops = this.inst.nStops;
    if (this.inst.compatible[b * nStops + u] !== 1 || this.inst.compatible[a * nStops + w] !== 1) return;
    const lenA = sol.len[a]!;
    this.trial.set(sol.seq[a]!.subarray(0, lenA));
    this.trial[sol.posOf[u]!] = w;
    if (!this.fits(a, this.trial, lenA)) return;
    const lenB = sol.len[b]!;
    this.trialB.set(sol.seq[b]!.subarray(0, lenB));
    this.trialB[sol.posOf[w]!] = u;
    if (!this.fits(b, this.trialB, lenB)) return;
    this.commit(sol, a, lenA, b, lenB);
  }

  /** Routes `a` and `b` become `trial[0..lenA)` and `trialB[0..lenB)`, both already checked. */
  private commit(sol: Solution, a: number, lenA: number, b: number, lenB: number): void {
    sol.assignRoute(a, this.trial, lenA);
    sol.assignRoute(b, this.trialB, lenB);
    if (!sol.refreshRoute(a, this.evaluator) || !sol.refreshRoute(b, this.evaluator)) {
      throw new Error('internal error: a move accepted by the evaluator failed on commit');
    }
  }

  /** Whether vehicle `v` keeps every rule serving `seq[0..len)`. */
  private fits(v: number, seq: Int32Array, len: number): boolean {
    return this.evaluator.evaluate(v, seq, len, sequenceLoad(this.inst, seq, len, this.load), 0, null) !== null;
  }
}

/** Copies `seq[0..len)` without position `p` into `out`; answers the new length. */
function copyWithout(seq: Int32Array, len: number, p: number, out: Int32Array): number {
  out.set(seq.subarray(0, p), 0);
  out.set(seq.subarray(p + 1, len), p);
  return len - 1;
}

/** Copies `seq[0..len)` with `u` inserted before position `p` into `out`; answers the new length. */
function copyWith(seq: Int32Array, len: number, p: number, u: number, out: Int32Array): number {
  out.set(seq.subarray(0, p), 0);
  out[p] = u;
  out.set(seq.subarray(p, len), p + 1);
  return len + 1;
}
