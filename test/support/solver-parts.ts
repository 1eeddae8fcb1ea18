/**
 * The solver's pieces for one problem, built as the construction tests need them: the instance,
 * its evaluators and inserter, the 40 nearest neighbours of each stop, and the work the evaluator
 * and the inserter have done so far (what the construction's budget counts).
 */
import type { Problem } from '../../src/model/problem.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { instanceOf, nearestNeighbours } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';

export function solverParts(problem: Problem) {
  const inst = instanceOf(problem);
  const evaluator = new RouteEvaluator(inst);
  const costs = new CostEvaluator(inst);
  const inserter = new Inserter(inst, evaluator);
  const k = Math.min(40, inst.nStops - 1);
  const work = (): number => evaluator.walked + inserter.positions;
  return { inst, costs, inserter, evaluator, near: { neighbours: nearestNeighbours(inst, k), k }, work };
}
