/**
 * Granular local search (first improvement). Each served stop u is paired with its nearest
 * neighbours x (by `granularNeighbours`), and every operator tries a move that brings u next
 * to x; the first move that lowers the objective is applied. A pair is skipped when neither
 * route changed since u was last examined, so after a small ruin-and-recreate only the
 * neighbourhood of the changed routes is searched again. Ends when a whole pass finds nothing
 * (a local optimum) or at the deadline.
 *
 * Moves are priced with the segment summaries (`MoveEvaluator`) and applied through the exact
 * evaluator, so the solution stays feasible whatever the fast path says.
 */
import type { SolverInstance } from '../instance.js';
import type { Rng } from '../rng.js';
import type { RouteEvaluator } from '../route-eval.js';
import { nextStamp, type Solution } from '../solution.js';
import { IMPROVEMENT_EPS, MoveEvaluator } from './move.js';
import type { Operator } from './moves/operator.js';
import { RelocateString } from './moves/relocate.js';
import { Swap } from './moves/swap.js';
import { TwoOpt, TwoOptStar } from './moves/two-opt.js';
import { granularNeighbours } from './neighbours.js';
import { segmentsApply } from './segments.js';

/** Size of the granular neighbourhood. */
export const LS_NEIGHBOURS = 30;
const DEADLINE_CHECK_EVERY = 64;

export interface LocalSearchStats {
  moves: number;
  rejectedByExact: number;
}

export class LocalSearch {
  readonly inst: SolverInstance;
  readonly moves: MoveEvaluator;
  private readonly operators: Operator[];
  private readonly neighbours: Int32Array;
  private readonly k: number;
  /** Stamp counter value when each stop was last examined against its neighbours. */
  private readonly lastTested: Float64Array;
  private readonly order: Int32Array;
  private readonly emptyOfClass: Int32Array;
  private readonly classCount: number;
  readonly stats: LocalSearchStats = { moves: 0, rejectedByExact: 0 };

  /** Null when the instance is not one the segment summaries describe exactly. */
  static create(inst: SolverInstance, evaluator: RouteEvaluator, rng: Rng, k = LS_NEIGHBOURS): LocalSearch | null {
    if (!segmentsApply(inst) || inst.nStops < 2) return null;
    return new LocalSearch(inst, evaluator, rng, k);
  }

  private constructor(
    inst: SolverInstance,
    private readonly evaluator: RouteEvaluator,
    private readonly rng: Rng,
    k: number,
  ) {
    this.inst = inst;
    this.moves = new MoveEvaluator(inst);
    this.operators = [new RelocateString(1), new Swap(), new TwoOptStar(), new TwoOpt(), new RelocateString(2), new RelocateString(3)];
    this.neighbours = granularNeighbours(inst, k);
    this.k = Math.min(k, Math.max(0, inst.nStops - 1));
    this.lastTested = new Float64Array(inst.nStops).fill(-1);
    this.order = new Int32Array(inst.nStops);
    for (let s = 0; s < inst.nStops; s++) this.order[s] = s;
    let classes = 0;
    for (let v = 0; v < inst.nVehicles; v++) classes = Math.max(classes, inst.vClass[v]! + 1);
    this.classCount = classes;
    this.emptyOfClass = new Int32Array(classes);
  }

  /** Improves `sol` to a local optimum (or until `deadline`); returns the number of moves applied. */
  run(sol: Solution, deadline = Infinity): number {
    const rng = this.rng;
    rng.shuffle(this.order);
    let applied = 0;
    let examined = 0;
    let emptyStale = true;
    for (let improved = true; improved; ) {
      improved = false;
      for (let i = 0; i < this.order.length; i++) {
        const u = this.order[i]!;
        if (sol.routeOf[u]! < 0) continue;
        if (++examined % DEADLINE_CHECK_EVERY === 0 && performance.now() > deadline) return applied;
        const tested = this.lastTested[u]!;
        this.lastTested[u] = nextStamp();
        for (let j = 0; j < this.k; j++) {
          const x = this.neighbours[u * this.k + j]!;
          if (x < 0) break;
          const rx = sol.routeOf[x]!;
          if (rx < 0) continue;
          const ru = sol.routeOf[u]!;
          if (sol.stamp[ru]! < tested && sol.stamp[rx]! < tested) continue;
          if (this.tryPair(sol, u, x, ru, rx)) {
            applied++;
            improved = true;
            emptyStale = true;
          }
        }
        if (sol.stamp[sol.routeOf[u]!]! > tested) {
          if (emptyStale) this.findEmptyVehicles(sol);
          emptyStale = false;
          if (this.tryEmptyRoute(sol, u)) {
            applied++;
            improved = true;
            emptyStale = true;
          }
        }
      }
    }
    return applied;
  }

  private tryPair(sol: Solution, u: number, x: number, ru: number, rx: number): boolean {
    const moves = this.moves;
    moves.prepare(sol, ru);
    if (rx !== ru) moves.prepare(sol, rx);
    for (const op of this.operators) {
      const count = op.find(sol, moves, u, x);
      if (count > 0 && this.commit(sol, count)) return true;
    }
    return false;
  }

  /** Moves u alone into an unused vehicle (one per class: unused vehicles of a class are alike). */
  private tryEmptyRoute(sol: Solution, u: number): boolean {
    const ru = sol.routeOf[u]!;
    if (sol.len[ru]! <= 1) return false;
    const moves = this.moves;
    moves.prepare(sol, ru);
    const pu = sol.posOf[u]!;
    for (let c = 0; c < this.classCount; c++) {
      const v = this.emptyOfClass[c]!;
      if (v < 0 || v === ru) continue;
      moves.prepare(sol, v);
      moves.plans[0].reset(ru).range(ru, 0, pu).range(ru, pu + 1, sol.len[ru]!);
      moves.plans[1].reset(v).stop(u);
      if (moves.delta(sol, 2) < -IMPROVEMENT_EPS && this.commit(sol, 2)) return true;
    }
    return false;
  }

  private commit(sol: Solution, count: number): boolean {
    if (this.moves.apply(sol, count, this.evaluator)) {
      this.stats.moves++;
      return true;
    }
    this.stats.rejectedByExact++;
    return false;
  }

  private findEmptyVehicles(sol: Solution): void {
    this.emptyOfClass.fill(-1);
    const inst = this.inst;
    for (let v = 0; v < inst.nVehicles; v++) {
      if (sol.len[v] !== 0) continue;
      const c = inst.vClass[v]!;
      if (this.emptyOfClass[c] === -1) this.emptyOfClass[c] = v;
    }
  }
}
