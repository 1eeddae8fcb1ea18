/**
 * The three plans of the search: the accepted one (`current`), the one being changed
 * (`candidate`) and the best so far, kept in step route by route through the touched lists.
 */
import { copyObjective, type CostEvaluator, type ObjectiveValue } from '../cost.js';
import type { Solution } from '../solution.js';

export class Plans {
  readonly current: Solution;
  readonly candidate: Solution;
  readonly best: Solution;
  currentObj: ObjectiveValue;
  bestObj: ObjectiveValue;
  /** Iterations in a row that did not improve the best plan. */
  sinceImprovement = 0;

  /** Starts from `initial`, which becomes the current plan (it is changed in place). */
  constructor(
    initial: Solution,
    private readonly costs: CostEvaluator,
  ) {
    this.current = initial;
    this.candidate = initial.clone();
    this.best = initial.clone();
    this.current.clearTouched();
    this.candidate.clearTouched();
    this.currentObj = costs.objective(this.current);
    this.bestObj = copyObjective(this.currentObj);
  }

  /** Moves on to the candidate when `accepted` (keeping it as the best when it beats it), else rolls it back. */
  settle(candidateObj: ObjectiveValue, accepted: boolean): void {
    const { current, candidate } = this;
    const changed = candidate.touchedList.slice();
    if (accepted) {
      current.copyRoutesFrom(candidate, changed);
      this.currentObj = candidateObj;
      if (this.costs.compare(this.currentObj, this.bestObj) < 0) {
        this.best.copyFrom(current);
        this.bestObj = copyObjective(this.currentObj);
        this.sinceImprovement = 0;
      } else {
        this.sinceImprovement++;
      }
    } else {
      candidate.copyRoutesFrom(current, changed);
      this.sinceImprovement++;
    }
    candidate.clearTouched();
    current.clearTouched();
  }

  /**
   * Whether the candidate's changed routes hold the same stops in the same order as the current
   * plan's: the ruin and recreate gave the current plan back (a third of the iterations on
   * Solomon's RC105 at 1,000 iterations), which the local search has already left at its local
   * optimum, so polishing it again would only walk its routes once more and find nothing.
   */
  candidateIsCurrent(): boolean {
    const { current, candidate } = this;
    for (const v of candidate.touchedList) {
      const n = candidate.len[v]!;
      if (current.len[v] !== n) return false;
      const a = candidate.seq[v]!;
      const b = current.seq[v]!;
      for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
    }
    return true;
  }

  /**
   * Moves the search on to `plan` (population restarts, restarts.ts): it becomes the current and
   * the candidate plan, and the best one when it beats it. Route by route, for fresh stamps: the
   * local search must see every route as changed (Solution.copyRoutesFrom).
   */
  restartFrom(plan: Solution, planObj: ObjectiveValue): void {
    const every = Array.from({ length: plan.inst.nVehicles }, (_, v) => v);
    this.current.copyRoutesFrom(plan, every);
    this.candidate.copyRoutesFrom(plan, every);
    this.currentObj = copyObjective(planObj);
    if (this.costs.compare(planObj, this.bestObj) < 0) {
      this.best.copyFrom(plan);
      this.bestObj = copyObjective(planObj);
      this.sinceImprovement = 0;
    }
    this.current.clearTouched();
    this.candidate.clearTouched();
  }
}
