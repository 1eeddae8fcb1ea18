/**
 * Local search on recreated plans: first the prize moves (ls/prize.ts), when given (prizeInSearch),
 * on plans that leave stops unserved and serve as much priority as the best plan; then the
 * granular local search. With segment summaries every candidate is polished; with
 * exact pricing (O(route) a move) only those that already beat the best plan, each within the
 * work (work.ts) this machine does in a share of the search time — work, not time, since a clock
 * budget would make the plan depend on the machine's load (decisions.md: a seed reproduces a plan
 * when the search stops by itself); unbounded under an iteration limit. The deadline bounds it too.
 */
import type { LocalSearch } from '../ls/local-search.js';
import type { PrizeMoves } from '../ls/prize.js';
import type { CostEvaluator, ObjectiveValue } from '../cost.js';
import { workSpanOf, type ScheduleLimits } from './accept.js';
import { EXACT_POLISH_SHARE, SWAP_STAR_NEAR_BEST, WORK_UNITS_PER_MS } from '../params.js';
import type { Solution } from '../solution.js';
import type { WorkMeter } from './work.js';
import type { PenalisedPolish } from './penalised-polish.js';

export class Polisher {
  /** How much work one exact polish may do. */
  private readonly budget: number;
  /** The work done by which the running exact polish must stop. */
  private until = Infinity;
  private readonly outOfWork = (): boolean => this.meter.done() >= this.until;

  constructor(
    private readonly localSearch: LocalSearch | null,
    private readonly limits: Pick<ScheduleLimits, 'started' | 'deadline' | 'workSpanMs' | 'maxIterations'>,
    private readonly costs: CostEvaluator,
    private readonly meter: WorkMeter,
    private readonly prize: PrizeMoves | null = null,
    /** The local search with penalised capacity, tried first where it applies (penalised-polish.ts); null: none. */
    private readonly penalised: PenalisedPolish | null = null,
  ) {
    this.budget = limits.maxIterations === undefined ? EXACT_POLISH_SHARE * WORK_UNITS_PER_MS * workSpanOf(limits) : Infinity;
  }

  /** The first plan is made: the local search narrows to the search's neighbours (LocalSearch.narrow). */
  leaveFirstPlan(): void {
    this.localSearch?.narrow();
    this.penalised?.narrow();
  }

  /** Polishes `candidate` when worth it, until `deadline` at the latest; answers its objective afterwards. */
  polish(candidate: Solution, bestObj: ObjectiveValue, deadline = this.limits.deadline): ObjectiveValue {
    const localSearch = this.localSearch;
    // Prize moves raise the priority served, which decides acceptance before any cost: they go
    // first, on candidates still in the running (as much priority as the best plan, which the
    // current one always matches): on all candidates they cost up to a third more time and
    // claimed less in measurements.
    if (this.prize && this.prize.worthTrying(candidate, bestObj.priority)) this.prize.run(candidate, deadline);
    const candidateObj = this.costs.objective(candidate);
    if (!localSearch || !(localSearch.fast || this.costs.compare(candidateObj, bestObj) < 0)) return candidateObj;
    // A polish priced by summaries is cheap enough to run to its local optimum.
    if (!localSearch.fast) this.until = this.meter.done() + this.budget;
    const swapStarWhen = (sol: Solution): boolean => nearBest(this.costs, this.costs.objective(sol), bestObj);
    // A plan it could not bring back within every capacity comes back as it was, for the feasible search.
    if (this.penalised?.run(candidate, deadline, swapStarWhen) === true) return this.costs.objective(candidate);
    return localSearch.run(candidate, deadline, localSearch.fast ? null : this.outOfWork, swapStarWhen) > 0
      ? this.costs.objective(candidate)
      : candidateObj;
  }
}

/**
 * Whether a candidate is close enough to the best plan for SWAP* (ls/moves/swap-star.ts): as good
 * on the levels above cost, and at most SWAP_STAR_NEAR_BEST above its cost. SWAP* prices every
 * pair of stops of two routes, which on every candidate halved the iterations; the candidates it
 * could turn into a new best are the ones near it.
 */
function nearBest(costs: CostEvaluator, candidate: ObjectiveValue, best: ObjectiveValue): boolean {
  const upper = costs.compareUpperLevels(candidate, best);
  return upper < 0 || (upper === 0 && candidate.cost <= best.cost * (1 + SWAP_STAR_NEAR_BEST));
}
