/**
 * SWAP*'s cache of insertion positions, as in Vidal's HGS-CVRP (2022): the three best insertion
 * positions of each customer in each route, priced again only for the routes that changed. Per
 * route and stop: the KEPT cheapest places to insert the stop in the route as it
 * is, priced on arcs, and the route's stamp (solution.ts) they were computed for. Equal stamps
 * mean equal routes, in any copy of the solution, so an entry holds as long as its stamp is the
 * route's; a changed route simply misses. Without it SWAP* priced every stop of both routes in
 * the other for each route pair it looked at: on X-n1001 at 10 s that was 30% of the run.
 *
 * A route's arrays are made the first time it is asked about: a plan uses a few dozen of a
 * thousand vehicles, and nStops × KEPT entries for each would be tens of megabytes.
 */

/** Insertion positions kept per stop and route (Vidal's three). */
export const KEPT = 3;

/** Computes the KEPT cheapest insertions of stop s into route r at `out`, `outPos` (offset o); answers the positions priced. */
export type PriceInsertions = (r: number, s: number, outCost: Float64Array, outPos: Int32Array, o: number) => number;

export class InsertionCache {
  private readonly stampOf: (Float64Array | null)[];
  private readonly cost: (Float64Array | null)[];
  private readonly pos: (Int32Array | null)[];
  /** Positions priced to fill entries so far (the search's measure of work counts them). */
  priced = 0;

  constructor(
    nVehicles: number,
    private readonly nStops: number,
  ) {
    this.stampOf = new Array<Float64Array | null>(nVehicles).fill(null);
    this.cost = new Array<Float64Array | null>(nVehicles).fill(null);
    this.pos = new Array<Int32Array | null>(nVehicles).fill(null);
  }

  /**
   * Copies the KEPT cheapest insertions of stop s into route r (whose stamp is `stamp`) to
   * `toCost`/`toPos` at offset `o`, pricing them with `price` only when the cached ones are stale.
   */
  read(r: number, stamp: number, s: number, price: PriceInsertions, toCost: Float64Array, toPos: Int32Array, o: number): void {
    const stamps = this.stampOf[r] ?? this.allocate(r);
    const cost = this.cost[r]!;
    const pos = this.pos[r]!;
    const c = s * KEPT;
    if (stamps[s] !== stamp) {
      this.priced += price(r, s, cost, pos, c);
      stamps[s] = stamp;
    }
    for (let k = 0; k < KEPT; k++) {
      toCost[o + k] = cost[c + k]!;
      toPos[o + k] = pos[c + k]!;
    }
  }

  private allocate(r: number): Float64Array {
    const stamps = new Float64Array(this.nStops).fill(-1);
    this.stampOf[r] = stamps;
    this.cost[r] = new Float64Array(this.nStops * KEPT);
    this.pos[r] = new Int32Array(this.nStops * KEPT);
    return stamps;
  }
}
