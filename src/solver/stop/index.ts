/** The search's stopping criteria (and the decomposition's, StalledEpochs), and the one a solve's limits ask for. */
import { Aborted } from './aborted.js';
import { CooledDown } from './cooled-down.js';
import { AnyOf, type StopCriterion } from './criterion.js';
import { belongsToFirstPlan, Deadline } from './deadline.js';
import { MaxIterations } from './max-iterations.js';
import { NoImprovement } from './no-improvement.js';
import { Plateau } from './plateau.js';
import { StalledEpochs } from './stalled-epochs.js';
import { PLATEAU_MIN_ITERATIONS, PLATEAU_MIN_WORK, PLATEAU_SCALE_STOPS, PLATEAU_WORK_PER_STOP, PLATEAU_WORK_SHARE } from '../params.js';

export { Aborted, AnyOf, belongsToFirstPlan, CooledDown, Deadline, MaxIterations, NoImprovement, Plateau, StalledEpochs };
export type { StopCriterion, StopReason } from './criterion.js';

export interface StopLimits {
  deadline: number;
  maxIterations?: number | undefined;
  maxNoImprove?: number | undefined;
  /** Stop once the search stalls (Plateau), at least this many iterations without improvement; absent: never. */
  plateauIterations?: number | undefined;
  /** …and at least this much work (search/work.ts) without improvement. */
  plateauWork?: number | undefined;
  /** Whether a stall, or the end of the cooling, may stop the search now; always when absent. */
  mayStall?: (() => boolean) | undefined;
  /** Whether the cooling is done and its end temperature held long enough, after `work` (CooledDown); absent: never. */
  cooledDown?: ((work: number) => boolean) | undefined;
  signal?: AbortSignal | undefined;
  /** Iterations the deadline does not cut, within FIRST_PLAN_WORK (construct.ts, untimedIterationsOf); none when absent. */
  untimedIterations?: number | undefined;
}

/** Any of the limits given; when several hold at once, iterations win over no-improvement, abort and time. */
export function stopCriterionOf(limits: StopLimits): StopCriterion {
  const criteria: StopCriterion[] = [];
  if (limits.maxIterations !== undefined) criteria.push(new MaxIterations(limits.maxIterations));
  if (limits.maxNoImprove !== undefined) criteria.push(new NoImprovement(limits.maxNoImprove));
  if (limits.plateauIterations !== undefined)
    criteria.push(new Plateau(limits.plateauIterations, limits.plateauWork ?? 0, PLATEAU_WORK_SHARE, limits.mayStall));
  if (limits.cooledDown) criteria.push(new CooledDown(limits.cooledDown, limits.mayStall));
  if (limits.signal) criteria.push(new Aborted(limits.signal));
  criteria.push(new Deadline(limits.deadline, limits.untimedIterations ?? 0));
  return new AnyOf(criteria);
}

/**
 * The iterations and the work without a better plan that make a stall (Plateau) on `nStops` stops:
 * the work per stop grows with the square root of the problem's size beyond PLATEAU_SCALE_STOPS.
 */
export function stallLimitsOf(nStops: number): Required<Pick<StopLimits, 'plateauIterations' | 'plateauWork'>> {
  const perStop = PLATEAU_WORK_PER_STOP * Math.sqrt(Math.max(1, nStops / PLATEAU_SCALE_STOPS));
  return { plateauIterations: PLATEAU_MIN_ITERATIONS, plateauWork: Math.max(PLATEAU_MIN_WORK, perStop * nStops) };
}
