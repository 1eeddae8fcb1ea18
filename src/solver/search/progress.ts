import type { CostEvaluator } from '../cost.js';
import type { SolverInstance } from '../instance.js';
import type { Solution } from '../solution.js';
import type { SolveProgress } from '../types.js';

/** Reports the best plan so far to the caller's `onProgress`, if any. */
export class ProgressReport {
  constructor(
    private readonly inst: SolverInstance,
    private readonly costs: CostEvaluator,
    private readonly started: number,
    private readonly onProgress: ((progress: SolveProgress) => void) | undefined,
  ) {}

  report(best: Solution, iterations: number): void {
    if (!this.onProgress) return;
    const inst = this.inst;
    let served = 0;
    for (let s = 0; s < inst.nStops; s++) if (best.routeOf[s] !== -1) served++;
    this.onProgress({
      elapsedMs: performance.now() - this.started,
      iterations,
      served,
      unserved: inst.nStops - served,
      routesUsed: best.routesUsed(),
      cost: this.costs.objective(best).cost,
    });
  }
}
