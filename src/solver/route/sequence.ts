/**
 * The sequence rule of locks (decisions.md "Locks"): the stops locked to one driver with a
 * `sequence` are served in increasing sequence order, others may go between them (equal numbers in
 * either order). A route only ever holds stops its vehicle may serve, so every sequenced stop on
 * a route is locked to that route's driver and the rule reads the route alone. `stopSeq[s]` is 0 for
 * a stop without a sequence.
 */

/** Whether `seq[0..len)` keeps the sequence order. */
export function keepsSequence(stopSeq: Float64Array, seq: Int32Array, len: number): boolean {
  let highest = 0;
  for (let i = 0; i < len; i++) {
    const q = stopSeq[seq[i]!]!;
    if (q === 0) continue;
    if (q < highest) return false;
    highest = q;
  }
  return true;
}

/**
 * Whether `seq[0..len)` with stop `u` inserted before position `p` keeps the sequence order, for a
 * route that keeps it (an insertion continues a route the evaluator accepted, from its cache): a
 * stop without a sequence is then always in order, and one with a sequence needs no lower one before
 * it and no higher one after it.
 */
export function keepsSequenceWithInsertion(stopSeq: Float64Array, seq: Int32Array, len: number, p: number, u: number): boolean {
  const q = stopSeq[u]!;
  if (q === 0) return true;
  for (let i = 0; i < p; i++) if (stopSeq[seq[i]!]! > q) return false;
  for (let i = p; i < len; i++) {
    const after = stopSeq[seq[i]!]!;
    if (after !== 0 && after < q) return false;
  }
  return true;
}
