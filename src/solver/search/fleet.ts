/**
 * Fleet minimisation after SISR (Christiaens & Vanden Berghe 2020, "fleet minimisation"): a route
 * is taken out and its stops are left unserved; ruin and recreate, with the recreate limited to
 * the routes in use, then tries to fit them in. Each stop counts how often it was left out (its
 * absence); the stops left out most go back first, and a plan is accepted when it leaves fewer
 * stops out, or as many with a sum of absences that does not grow, so that the stops that stay out
 * take turns until the routes around them make room. A plan that serves every stop with one route
 * fewer is kept, and the next route is taken out of it.
 *
 * On Gehring–Homberger 1000 the plans of a 10 s search used 102–107 routes where the best-known
 * use 90–95: every route costs the trip out from the depot and back (R1_10_1: 106 routes, 28,348
 * in depot legs and 26,460 within the routes, against 95, 25,213 and 27,814 for the best-known).
 * Three departures from the paper, each measured on R1_10_1 and RC1_10_1 at 10 s (params.ts,
 * FLEET_MINIMISATION_BY_DEFAULT): each ruin is cut around one of the unserved stops (with a
 * thousand stops a ruin at a random place rarely touches the routes a left-out stop could join);
 * SISR's acceptance (fewer left out, or a smaller sum of absences, however many are left out) let
 * 80–130 stops drift out; and a route whose stops find no room within FLEET_TRIES_PER_ROUTE
 * iterations is given back for the next smallest (on R1_10_1 the phase otherwise stuck on one stop).
 *
 * The phase never loses a stop: it starts only from a plan serving every stop some vehicle could
 * serve alone, and it hands on only such plans. Its budget is work (work.ts) or, under an
 * iteration limit, iterations, never time (decisions.md, `--seed`); the deadline bounds it too.
 */
import type { NearStops, SolverInstance } from '../instance.js';
import type { Inserter } from '../insertion.js';
import { windowsBind } from '../ls/windows-bind.js';
import {
  BLINK_RATE,
  FLEET_ITERATION_SHARE,
  FLEET_MIN_STOPS,
  FLEET_MINIMISATION_BY_DEFAULT,
  FLEET_START_SHARE,
  FLEET_TRIES_PER_ROUTE,
  FLEET_WORK_SHARE,
  GRANULAR_NEIGHBOURS,
  WORK_UNITS_PER_MS,
} from '../params.js';
import type { Rng } from '../rng.js';
import type { RouteEvaluator } from '../route/evaluator.js';
import type { Solution } from '../solution.js';
import type { LocalSearch } from '../ls/local-search.js';
import { workSpanOf, type ScheduleLimits } from './accept.js';
import type { Plans } from './plans.js';
import type { Ruiner } from './ruin.js';
import type { WorkMeter } from './work.js';

/** How long the phase may run: work (work.ts) and iterations, whichever ends first, and the deadline. */
export interface FleetBudget {
  work: number;
  iterations: number;
  deadline: number;
  clock: () => number;
}

/**
 * The phase's plans: the last one serving every stop (`full`), the one it walks from (`current`)
 * and the one being changed (`candidate`); the routes tried since the last success, and the
 * iterations since the last route was taken out.
 */
interface Walk {
  full: Solution;
  current: Solution;
  candidate: Solution;
  tried: Uint8Array;
  since: number;
}

/** What the phase did (the bench's and the tests' view). */
export interface FleetOutcome {
  /** The plan serving every stop with the fewest routes found, or null when it found none fewer. */
  plan: Solution | null;
  iterations: number;
  /** Times a plan serving every stop was found with the route taken out (a ruin may empty one more). */
  routesRemoved: number;
}

export class FleetMinimiser {
  private readonly absence: Int32Array;
  private readonly candidateList: Int32Array;
  private readonly mark: Uint8Array;

  /** `eligible`: the stops some vehicle could serve alone (search.ts, insertableStops). */
  constructor(
    private readonly inst: SolverInstance,
    private readonly inserter: Inserter,
    private readonly evaluator: RouteEvaluator,
    private readonly near: NearStops,
    private readonly eligible: readonly number[],
    private readonly ruiner: Ruiner,
    private readonly rng: Rng,
  ) {
    this.absence = new Int32Array(inst.nStops);
    this.candidateList = new Int32Array(inst.nVehicles);
    this.mark = new Uint8Array(inst.nVehicles);
  }

  /** Runs the phase from `start` (left unchanged) within `budget`, `meter` counting its work. */
  run(start: Solution, budget: FleetBudget, meter: WorkMeter): FleetOutcome {
    const outcome: FleetOutcome = { plan: null, iterations: 0, routesRemoved: 0 };
    if (this.unservedOf(start).length > 0) return outcome;
    const walk: Walk = {
      full: start.clone(),
      current: start.clone(),
      candidate: start.clone(),
      tried: new Uint8Array(this.inst.nVehicles),
      since: 0,
    };
    if (!this.takeOutRoute(walk)) return outcome;
    let out = this.unservedOf(walk.current);
    const fromWork = meter.done();
    while (outcome.iterations < budget.iterations && meter.done() - fromWork < budget.work && budget.clock() < budget.deadline) {
      outcome.iterations++;
      out = this.step(walk, out);
      if (out.length === 0) {
        walk.full.copyFrom(walk.current);
        outcome.plan = walk.full;
        outcome.routesRemoved++;
        walk.tried.fill(0);
      } else if (++walk.since < FLEET_TRIES_PER_ROUTE) {
        continue;
      } else {
        // This route's stops found no room: back to the last plan serving all, to try the next route.
        walk.current.copyFrom(walk.full);
        walk.candidate.copyFrom(walk.full);
      }
      if (!this.takeOutRoute(walk)) break;
      out = this.unservedOf(walk.current);
    }
    return outcome;
  }

  /**
   * One ruin and recreate of the candidate around a random stop of `out` (the current plan's
   * unserved stops), accepted by SISR's rule; answers the current plan's unserved stops after it.
   * Every stop left out counts one more absence.
   */
  private step(walk: Walk, out: number[]): number[] {
    const { current, candidate } = walk;
    const seedStop = out[this.rng.int(out.length)]!;
    this.recreate(candidate, this.ruiner.ruin(candidate, this.evaluator, seedStop));
    const candidateOut = this.unservedOf(candidate);
    const accepted =
      candidateOut.length < out.length || (candidateOut.length === out.length && this.absenceOf(candidateOut) <= this.absenceOf(out));
    for (const s of candidateOut) this.absence[s]!++;
    settle(current, candidate, accepted);
    return accepted ? candidateOut : out;
  }

  /**
   * Empties the route with the fewest stops (the first such) not tried since the last success, in
   * `current` and `candidate` alike: the fewest stops to fit elsewhere. False when none is left
   * (or only one route).
   */
  private takeOutRoute(walk: Walk): boolean {
    const { current, candidate, tried } = walk;
    walk.since = 0;
    if (current.routesUsed() < 2) return false;
    let smallest = -1;
    for (let v = 0; v < this.inst.nVehicles; v++) {
      const n = current.len[v]!;
      if (n > 0 && tried[v] === 0 && (smallest < 0 || n < current.len[smallest]!)) smallest = v;
    }
    if (smallest < 0) return false;
    tried[smallest] = 1;
    current.clearRoute(smallest, this.evaluator);
    candidate.copyRoutesFrom(current, [smallest]);
    current.clearTouched();
    candidate.clearTouched();
    return true;
  }

  /**
   * Puts `removed` and the unserved stops back, most often left out first (ties in random order),
   * each at its cheapest place in a route in use near it: an empty vehicle would undo the phase.
   */
  private recreate(sol: Solution, removed: number[]): void {
    const pool = removed.slice();
    for (const s of this.unservedOf(sol)) if (!pool.includes(s)) pool.push(s);
    this.rng.shuffle(pool);
    const { absence, inserter, candidateList } = this;
    const priority = this.inst.stopPriority;
    pool.sort((a, b) => priority[b]! - priority[a]! || absence[b]! - absence[a]!);
    const { neighbours, k } = this.near;
    const use = Math.min(GRANULAR_NEIGHBOURS, k);
    for (const u of pool) {
      if (sol.routeOf[u] !== -1) continue;
      const gathered = inserter.collectNear(sol, u, neighbours, k, sol.touchedList, candidateList, this.mark, use);
      const count = keepRoutesInUse(sol, candidateList, gathered);
      if (
        inserter.bestAmong(sol, u, candidateList, count, this.rng, BLINK_RATE) &&
        !sol.insert(inserter.vehicle, inserter.pos, u, this.evaluator)
      ) {
        throw new Error('internal error: insertion accepted by the evaluator failed on commit');
      }
    }
  }

  /** The eligible stops `sol` leaves unserved. */
  private unservedOf(sol: Solution): number[] {
    const out: number[] = [];
    for (const s of this.eligible) if (sol.routeOf[s] === -1) out.push(s);
    return out;
  }

  private absenceOf(stops: readonly number[]): number {
    let sum = 0;
    for (const s of stops) sum += this.absence[s]!;
    return sum;
  }
}

/** Moves `current` on to `candidate` when `accepted`, else rolls `candidate` back (as Plans.settle does). */
function settle(current: Solution, candidate: Solution, accepted: boolean): void {
  const changed = candidate.touchedList.slice();
  if (accepted) current.copyRoutesFrom(candidate, changed);
  else candidate.copyRoutesFrom(current, changed);
  candidate.clearTouched();
  current.clearTouched();
}

/** What the phase needs from the search. */
export interface FleetParts {
  inst: SolverInstance;
  inserter: Inserter;
  evaluator: RouteEvaluator;
  near: NearStops;
  eligible: readonly number[];
  ruiner: Ruiner;
  rng: Rng;
  meter: WorkMeter;
  localSearch: LocalSearch | null;
}

export type FleetLimits = Pick<ScheduleLimits, 'started' | 'deadline' | 'workSpanMs' | 'maxIterations'> & {
  /** SolveOptions.fleetMinimisation. */
  fleetMinimisation?: boolean | undefined;
};

/**
 * The fleet minimisation once during the search (search.ts), when it has done FLEET_START_SHARE of
 * its iterations or of the work of its time: by then the annealing has packed the first plan's
 * routes (GH1000 R1_10_1: 161 routes in the first plan, 105 at the end), so the phase starts from
 * few routes, and the annealing still has the rest of the run to shorten the plan it hands back.
 */
export class FleetPhase {
  private done = false;

  private constructor(
    private readonly parts: FleetParts,
    private readonly at: { iterations: number; work: number },
    private readonly budget: FleetBudget,
  ) {}

  /** The phase for a search within `limits`, or null where it does not apply (fleetMinimisationApplies) or has no budget. */
  static when(limits: FleetLimits, parts: FleetParts, clock: () => number): FleetPhase | null {
    if (!fleetMinimisationApplies(parts.inst, limits.fleetMinimisation)) return null;
    const { maxIterations, deadline } = limits;
    if (maxIterations !== undefined) {
      const at = { iterations: Math.floor(FLEET_START_SHARE * maxIterations), work: Infinity };
      return new FleetPhase(parts, at, { work: Infinity, iterations: Math.ceil(FLEET_ITERATION_SHARE * maxIterations), deadline, clock });
    }
    const workOfSpan = WORK_UNITS_PER_MS * workSpanOf(limits);
    if (!Number.isFinite(workOfSpan)) return null;
    const at = { iterations: Infinity, work: FLEET_START_SHARE * workOfSpan };
    return new FleetPhase(parts, at, { work: FLEET_WORK_SHARE * workOfSpan, iterations: Infinity, deadline, clock });
  }

  /**
   * Once due (after `iterations` search iterations with `work` done), runs the phase on the best
   * plan; a plan with fewer routes it finds is polished and becomes the search's current plan
   * (Plans.restartFrom), and the stall's count starts afresh.
   */
  runWhenDue(iterations: number, work: number, plans: Plans): void {
    if (this.done || (iterations < this.at.iterations && work < this.at.work)) return;
    this.done = true;
    const { inst, inserter, evaluator, near, eligible, ruiner, rng, meter, localSearch } = this.parts;
    const outcome = new FleetMinimiser(inst, inserter, evaluator, near, eligible, ruiner, rng).run(plans.best, this.budget, meter);
    const plan = outcome.plan;
    if (plan === null) return;
    if (localSearch?.fast) localSearch.run(plan, this.budget.deadline);
    plans.restartFrom(plan, plan.costs.objective(plan));
    plans.sinceImprovement = 0;
  }
}

/**
 * Whether the phase runs on `inst`: with `on` (SolveOptions.fleetMinimisation,
 * FLEET_MINIMISATION_BY_DEFAULT when absent), where windows bind, from FLEET_MIN_STOPS stops on.
 */
export function fleetMinimisationApplies(inst: SolverInstance, on: boolean | undefined): boolean {
  return (on ?? FLEET_MINIMISATION_BY_DEFAULT) && inst.nStops >= FLEET_MIN_STOPS && windowsBind(inst);
}

/** Keeps the vehicles of `list[0..count)` that drive a route; answers how many. */
function keepRoutesInUse(sol: Solution, list: Int32Array, count: number): number {
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const v = list[i]!;
    if (sol.len[v]! > 0) list[kept++] = v;
  }
  return kept;
}
