/** The search's stopping criteria (and the decomposition's, StalledEpochs), and the one a solve's limits ask for. */
import { Aborted } from './aborted.js';
import { AnyOf, type StopCriterion } from './criterion.js';
import { Deadline } from './deadline.js';
import { MaxIterations } from './max-iterations.js';
import { NoImprovement } from './no-improvement.js';
import { Plateau } from './plateau.js';
import { StalledEpochs } from './stalled-epochs.js';
import { PLATEAU_TIME_SHARE } from '../params.js';

export { Aborted, AnyOf, Deadline, MaxIterations, NoImprovement, Plateau, StalledEpochs };
export type { StopCriterion, StopReason } from './criterion.js';

export interface StopLimits {
  deadline: number;
  maxIterations?: number | undefined;
  maxNoImprove?: number | undefined;
  /** Stop once the search stalls (Plateau), at least this many iterations without improvement; absent: never. */
  plateauIterations?: number | undefined;
  /** When the search started (performance.now()), for the plateau's time condition. */
  started?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** Any of the limits given; when several hold at once, iterations win over no-improvement, abort and time. */
export function stopCriterionOf(limits: StopLimits): StopCriterion {
  const criteria: StopCriterion[] = [];
  if (limits.maxIterations !== undefined) criteria.push(new MaxIterations(limits.maxIterations));
  if (limits.maxNoImprove !== undefined) criteria.push(new NoImprovement(limits.maxNoImprove));
  if (limits.plateauIterations !== undefined)
    criteria.push(new Plateau(limits.plateauIterations, limits.started ?? performance.now(), PLATEAU_TIME_SHARE));
  if (limits.signal) criteria.push(new Aborted(limits.signal));
  criteria.push(new Deadline(limits.deadline));
  return new AnyOf(criteria);
}
