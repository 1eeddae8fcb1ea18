/**
 * Local search on recreated plans: first the prize moves (ls/prize.ts), when given (prizeInSearch),
 * on plans that leave stops unserved and serve as much priority as the best plan; then the
 * granular local search. With segment summaries every candidate is polished; with
 * exact pricing (O(route) a move) only those that already beat the best plan, each within a
 * share of the search time — except under an iteration limit, where a clock budget would make the
 * plan depend on the machine's load (decisions.md: a seed and an iteration limit reproduce a plan);
 * the time limit still bounds it there.
 */
import type { LocalSearch } from '../ls/local-search.js';
import type { PrizeMoves } from '../ls/prize.js';
import type { CostEvaluator, ObjectiveValue } from '../cost.js';
import { EXACT_POLISH_SHARE } from '../params.js';
import type { Solution } from '../solution.js';

export class Polisher {
  /** How long one exact polish may run. */
  private readonly budgetMs: number;

  constructor(
    private readonly localSearch: LocalSearch | null,
    private readonly limits: { started: number; deadline: number; maxIterations?: number | undefined },
    private readonly costs: CostEvaluator,
    private readonly prize: PrizeMoves | null = null,
  ) {
    this.budgetMs = limits.maxIterations === undefined ? EXACT_POLISH_SHARE * (limits.deadline - limits.started) : Infinity;
  }

  /** Polishes `candidate` when worth it; answers its objective afterwards. */
  polish(candidate: Solution, bestObj: ObjectiveValue): ObjectiveValue {
    const localSearch = this.localSearch;
    const deadline = this.limits.deadline;
    // Prize moves raise the priority served, which decides acceptance before any cost: they go
    // first, on candidates still in the running (as much priority as the best plan, which the
    // current one always matches): on all candidates they cost up to a third more time and
    // claimed less in measurements.
    if (this.prize && this.prize.worthTrying(candidate, bestObj.priority)) this.prize.run(candidate, deadline);
    const candidateObj = this.costs.objective(candidate);
    if (!localSearch || !(localSearch.fast || this.costs.compare(candidateObj, bestObj) < 0)) return candidateObj;
    const budget = localSearch.fast ? deadline : Math.min(deadline, performance.now() + this.budgetMs);
    return localSearch.run(candidate, budget) > 0 ? this.costs.objective(candidate) : candidateObj;
  }
}
