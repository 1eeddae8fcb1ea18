/**
 * Bounded insertion positions: where in a route a stop is worth pricing when its cost is only
 * estimated (the regret construction, the greedy floor). Next to the stop's nearest stops that
 * are in the route, and at the route's two ends; the stop taken is then priced exactly over
 * every position of its route.
 */
import type { Solution } from './solution.js';

/**
 * Fills `out` with the positions of route v next to u's first `use` near stops (`neighbours`,
 * `k` per stop) and with its two ends, each once; answers their count, 0 when none of those
 * stops is in v. `out` holds at least 2 × use + 2 positions.
 */
export function nearPositions(
  sol: Solution,
  u: number,
  v: number,
  neighbours: Int32Array,
  k: number,
  use: number,
  out: Int32Array,
): number {
  let count = 0;
  for (let i = 0; i < use; i++) {
    const t = neighbours[u * k + i]!;
    if (t < 0) break;
    if (sol.routeOf[t] !== v) continue;
    count = addPosition(out, count, sol.posOf[t]!);
    count = addPosition(out, count, sol.posOf[t]! + 1);
  }
  if (count === 0) return 0;
  count = addPosition(out, count, 0);
  return addPosition(out, count, sol.len[v]!);
}

/** Appends position p to the `count` in `out` unless it is there already; answers the new count. */
function addPosition(out: Int32Array, count: number, p: number): number {
  for (let i = 0; i < count; i++) if (out[i] === p) return count;
  out[count] = p;
  return count + 1;
}
