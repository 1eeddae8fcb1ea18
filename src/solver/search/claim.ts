/**
 * The prize moves' share of every run (issue 26: "priority claimed at every limit"): the best
 * plan may still leave priority that one prize move claims (ls/prize.ts; recreate only inserts
 * where a stop fits as the routes are), and a plan cut by its limit most of all. Thorough passes
 * over the neighbour lists, each followed by the local search on what it changed (which may open
 * room for another claim), until one claims nothing.
 *
 * With a share of work (SearchLimits.claimShare) the passes are bounded by work, in proportion to
 * what they cost (claimSize), so the plan does not depend on the machine's load (decisions.md,
 * `--seed`); its time is kept back from the search (index.ts). On a problem whose first plan is made
 * whatever the clock (below FLOOR_FIRST_MIN_STOPS, construct.ts) the clock cannot take that share
 * either; above, `finishBy` still bounds it, since `--time-limit` bounds the command (multi-1000 at
 * `--time-limit 1` ran to 2.0–3.6 s of process wall with an untimed claim). The prize passes and the
 * local search between them have a budget each, so that the local search, which costs far more on
 * a plan the limit cut before its polish, cannot leave the passes without work. Without a share,
 * the clock (`finishBy`) alone bounds the passes.
 */
import { firstPlanIgnoresClock } from '../construct.js';
import type { LocalSearch } from '../ls/local-search.js';
import type { PrizeMoves } from '../ls/prize.js';
import { WORK_PER_PRICED_MOVE } from '../params.js';
import type { Solution } from '../solution.js';
import type { WorkMeter } from './work.js';

export interface ClaimShare {
  /** Work (work.ts) the prize passes may do per unit of `claimSize`. */
  prizePerUnit: number;
  /** Work the local search between the passes may do per unit of `claimSize`… */
  polishPerUnit: number;
  /** …or, on a plan the clock cut (the search stopped by time or an abort, or never began), this. */
  cutPolishPerUnit: number;
}

/**
 * What a claim on `sol` costs, in proportion: its `unserved` stops times the square of its mean
 * route length, since each move tried walks a route for each position it tries there.
 */
export function claimSize(sol: Solution, unserved: number): number {
  const routes = sol.routesUsed();
  let served = 0;
  for (let v = 0; v < sol.inst.nVehicles; v++) served += sol.len[v]!;
  const length = Math.max(1, routes === 0 ? 1 : served / routes);
  return unserved * length * length;
}

/**
 * Claims on `best` what priority the prize moves can: within `share` when given, and until
 * `finishBy` where the clock bounds it (above). `cut`: the clock cut the search, so the time left is short.
 */
export function claimPriority(
  best: Solution,
  prize: PrizeMoves,
  localSearch: LocalSearch | null,
  meter: WorkMeter,
  share: ClaimShare | undefined,
  finishBy: number,
  cut: boolean,
): void {
  if (!prize.worthTrying(best)) return;
  const size = claimSize(best, prize.unservedEligible(best));
  const done = (): number => meter.done() + WORK_PER_PRICED_MOVE * prize.priced;
  const passes = new Budget(done, share ? share.prizePerUnit * size : Infinity);
  const polish = new Budget(done, share ? (cut ? share.cutPolishPerUnit : share.polishPerUnit) * size : Infinity);
  const deadline = share && firstPlanIgnoresClock(best.inst) ? Infinity : finishBy;
  for (;;) {
    passes.begin();
    const claimed = prize.run(best, deadline, true, passes.out);
    passes.end();
    if (claimed === 0 || passes.out()) return;
    polish.begin();
    localSearch?.run(best, deadline, polish.out);
    polish.end();
  }
}

/** Work spent in one phase of the claim (counted only between `begin` and `end`) against its budget. */
class Budget {
  private spent = 0;
  private from = 0;
  private active = false;
  readonly out = (): boolean => this.spent + (this.active ? this.done() - this.from : 0) >= this.limit;

  constructor(
    private readonly done: () => number,
    private readonly limit: number,
  ) {}

  begin(): void {
    this.from = this.done();
    this.active = true;
  }

  end(): void {
    this.spent += this.done() - this.from;
    this.active = false;
  }
}
