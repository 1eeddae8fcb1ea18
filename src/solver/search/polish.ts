/**
 * Local search on recreated plans. With segment summaries every candidate is polished; with
 * exact pricing (O(route) a move) only those that already beat the best plan, each within a
 * share of the search time.
 */
import type { LocalSearch } from '../ls/local-search.js';
import type { CostEvaluator, ObjectiveValue } from '../cost.js';
import { EXACT_POLISH_SHARE } from '../params.js';
import type { Solution } from '../solution.js';

export class Polisher {
  private readonly timeBudget: number;

  constructor(
    private readonly localSearch: LocalSearch | null,
    private readonly limits: { started: number; deadline: number },
    private readonly costs: CostEvaluator,
  ) {
    this.timeBudget = limits.deadline - limits.started;
  }

  /** Polishes `candidate` when worth it; answers its objective afterwards. */
  polish(candidate: Solution, bestObj: ObjectiveValue): ObjectiveValue {
    const localSearch = this.localSearch;
    const deadline = this.limits.deadline;
    const candidateObj = this.costs.objective(candidate);
    if (!localSearch || !(localSearch.fast || this.costs.compare(candidateObj, bestObj) < 0)) return candidateObj;
    const budget = localSearch.fast ? deadline : Math.min(deadline, performance.now() + EXACT_POLISH_SHARE * this.timeBudget);
    return localSearch.run(candidate, budget) > 0 ? this.costs.objective(candidate) : candidateObj;
  }
}
