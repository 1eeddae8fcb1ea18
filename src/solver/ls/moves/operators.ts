/** The local search's operators in the order it tries them, and the distance filter they share. */
import type { Operator } from './operator.js';
import { PairArcs } from './pair-arcs.js';
import { RelocateString } from './relocate.js';
import { Swap } from './swap.js';
import { SwapStrings } from './swap-strings.js';
import { TwoOpt, TwoOptStar } from './two-opt.js';

/**
 * The moves the local search tries on each stop and neighbour, in order (`stringSwaps` adds SWAP(2,1)
 * and SWAP(2,2) last), and the distance filter they all read, asked once a pair (PairArcs.refusesAll):
 * null where the string swaps keep a filter of their own, or the counters (`counting`) count each operator's refusals.
 */
export function operatorsOf(stringSwaps: boolean, counting: boolean): { list: Operator[]; filter: PairArcs | null } {
  // One distance filter per pair: the moves after relocate read the arcs it read (pair-arcs.ts).
  const arcs = new PairArcs();
  const operators: Operator[] = [
    new RelocateString(1, arcs),
    new Swap(arcs),
    new TwoOptStar(arcs),
    new TwoOpt(),
    new RelocateString(2, arcs),
    new RelocateString(3, arcs),
  ];
  if (stringSwaps) operators.push(new SwapStrings(2, 1), new SwapStrings(2, 2));
  return { list: operators, filter: stringSwaps || counting ? null : arcs };
}
