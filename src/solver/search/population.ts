/**
 * An elite pool of feasible plans with diversity management in the style of Vidal's HGS: plans are
 * told apart by the broken-pairs distance (the share of stops whose successor in one plan is neither
 * their successor nor their predecessor in the other), a plan's biased fitness adds its rank by
 * cost to its rank by diversity (its mean distance to its closest members), and when the pool is
 * full the plan with the worst biased fitness leaves — never the cheapest. A plan at distance 0
 * from a member is a clone: only the better of the two stays.
 */
import type { CostEvaluator, ObjectiveValue } from '../cost.js';
import { copyObjective } from '../cost.js';
import type { SolverInstance } from '../instance.js';
import { POPULATION_CLOSEST, POPULATION_ELITES, POPULATION_SIZE } from '../params.js';
import type { Rng } from '../rng.js';
import type { Solution } from '../solution.js';

/** Successor and predecessor of a stop at either end of a route. */
const ROUTE_END = -1;
/** …and of an unserved stop. */
const UNSERVED = -2;

interface Member {
  plan: Solution;
  objective: ObjectiveValue;
  succ: Int32Array;
  pred: Int32Array;
}

export class ElitePool {
  private readonly members: Member[] = [];
  /** Biased fitness per member, lower is better (recomputed on every change). */
  private fitness: number[] = [];

  constructor(
    private readonly inst: SolverInstance,
    private readonly costs: CostEvaluator,
    private readonly capacity = POPULATION_SIZE,
  ) {}

  get size(): number {
    return this.members.length;
  }

  /** The members' plans (copies held by the pool: read them, do not change them). */
  plans(): readonly Solution[] {
    return this.members.map((m) => m.plan);
  }

  /** Offers a copy of `plan`; answers whether the pool kept it. */
  admit(plan: Solution, objective: ObjectiveValue): boolean {
    const candidate = this.memberOf(plan, objective);
    const twin = this.members.findIndex((m) => brokenPairs(m, candidate) === 0);
    if (twin >= 0) {
      if (this.costs.compare(objective, this.members[twin]!.objective) >= 0) return false;
      this.members[twin] = candidate;
    } else {
      this.members.push(candidate);
    }
    this.fitness = this.biasedFitness();
    if (this.members.length > this.capacity) this.removeWorst();
    return this.members.includes(candidate);
  }

  /** Two distinct members, each the fitter of two drawn at random (binary tournament); needs two members. */
  pickParents(rng: Rng): [Solution, Solution] {
    const first = this.tournament(rng, -1);
    const second = this.tournament(rng, first);
    return [this.members[first]!.plan, this.members[second]!.plan];
  }

  /** The broken-pairs distance between members i and j, 0..1. */
  distance(i: number, j: number): number {
    return brokenPairs(this.members[i]!, this.members[j]!) / Math.max(1, this.inst.nStops);
  }

  private tournament(rng: Rng, not: number): number {
    const n = this.members.length;
    const draw = (): number => {
      const i = rng.int(n - (not >= 0 ? 1 : 0));
      return not >= 0 && i >= not ? i + 1 : i;
    };
    const x = draw();
    const y = draw();
    return this.fitness[y]! < this.fitness[x]! ? y : x;
  }

  private memberOf(plan: Solution, objective: ObjectiveValue): Member {
    const n = this.inst.nStops;
    const succ = new Int32Array(n).fill(UNSERVED);
    const pred = new Int32Array(n).fill(UNSERVED);
    for (let v = 0; v < this.inst.nVehicles; v++) {
      const len = plan.len[v]!;
      const seq = plan.seq[v]!;
      for (let i = 0; i < len; i++) {
        succ[seq[i]!] = i + 1 < len ? seq[i + 1]! : ROUTE_END;
        pred[seq[i]!] = i > 0 ? seq[i - 1]! : ROUTE_END;
      }
    }
    return { plan: plan.clone(), objective: copyObjective(objective), succ, pred };
  }

  /** Removes the member of worst biased fitness, the cheapest excepted. */
  private removeWorst(): void {
    const cheapest = this.rankByCost()[0]!;
    let worst = -1;
    for (let i = 0; i < this.members.length; i++) {
      if (i !== cheapest && (worst === -1 || this.fitness[i]! > this.fitness[worst]!)) worst = i;
    }
    this.members.splice(worst, 1);
    this.fitness = this.biasedFitness();
  }

  /** Members' indices from the cheapest (by the objective) to the dearest; ties keep the pool's order. */
  private rankByCost(): number[] {
    const order = this.members.map((_, i) => i);
    return order.sort((i, j) => this.costs.compare(this.members[i]!.objective, this.members[j]!.objective) || i - j);
  }

  /**
   * HGS's biased fitness: rank by cost / (n − 1) + (1 − elites / n) × rank by diversity / (n − 1),
   * where the most diverse member (the largest mean distance to its POPULATION_CLOSEST closest) ranks 0.
   */
  private biasedFitness(): number[] {
    const n = this.members.length;
    if (n <= 1) return new Array<number>(n).fill(0);
    const byCost = this.rankByCost();
    const contribution = this.members.map((_, i) => this.diversityOf(i));
    const byDiversity = this.members.map((_, i) => i).sort((i, j) => contribution[j]! - contribution[i]! || i - j);
    const fitness = new Array<number>(n).fill(0);
    const diversityWeight = 1 - Math.min(POPULATION_ELITES, n) / n;
    for (let r = 0; r < n; r++) {
      fitness[byCost[r]!]! += r / (n - 1);
      fitness[byDiversity[r]!]! += (diversityWeight * r) / (n - 1);
    }
    return fitness;
  }

  /** Mean distance from member i to its POPULATION_CLOSEST closest members. */
  private diversityOf(i: number): number {
    const distances: number[] = [];
    for (let j = 0; j < this.members.length; j++) if (j !== i) distances.push(this.distance(i, j));
    distances.sort((x, y) => x - y);
    const closest = distances.slice(0, POPULATION_CLOSEST);
    return closest.reduce((sum, d) => sum + d, 0) / Math.max(1, closest.length);
  }
}

/** Stops whose successor in `a` is neither their successor nor their predecessor in `b` (routes read either way). */
function brokenPairs(a: Pick<Member, 'succ' | 'pred'>, b: Pick<Member, 'succ' | 'pred'>): number {
  let broken = 0;
  for (let s = 0; s < a.succ.length; s++) {
    const next = a.succ[s]!;
    // A stop served in one plan and unserved in the other differs here too (UNSERVED ≠ ROUTE_END).
    if (next !== b.succ[s] && next !== b.pred[s]) broken++;
  }
  return broken;
}
