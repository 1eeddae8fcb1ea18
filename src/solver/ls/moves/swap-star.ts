/**
 * SWAP* (Vidal 2022, "Hybrid genetic search for the CVRP: open-source implementation and SWAP*
 * neighborhood"): a stop u of route r1 and a stop v of route r2 trade routes, each going to its
 * best position in the other route, which need not be the place the other left. The plain swap
 * (swap.ts) only puts each in the other's place.
 *
 * Priced first on arcs alone (distance, or travel time when the cost is working time): removing a
 * stop saves its two arcs less the one that closes the gap; the three cheapest insertion positions
 * of every stop of one route in the other are kept per route and stop (insertion-cache.ts) and
 * priced again only when that route changed, so a pair (u, v) costs O(1): u goes in v's place or
 * at the cheapest of its three positions not next to v. Pairs whose loads cannot trade (a route's
 * room per dimension) are skipped before any arc is priced, and with `setNearOnly` so are stops
 * none of whose near neighbours is in the other route. The pairs
 * whose arc change is negative are then priced by the MoveEvaluator (segment summaries or the
 * exact evaluator: windows, shifts, capacity, preferences), cheapest arc change first, and the
 * first that improves the objective is the move. On a distance objective without windows the arc
 * change is the move's exact change, so the evaluator only confirms feasibility.
 */
import type { SolverInstance } from '../../instance.js';
import { IMPROVEMENT_EPS, SWAP_STAR_CANDIDATES, WORK_PER_SUMMARY_PLACE } from '../../params.js';
import type { Solution } from '../../solution.js';
import type { MoveEvaluator, RoutePlan } from '../move.js';
import { SegmentAcc } from '../segments.js';
import { InsertionCache, KEPT } from './insertion-cache.js';

/** Looser than loadExceeds's tolerance, so that the quick load filter never refuses what loadFits accepts. */
const SLACK_EPS = 1e-9;

export class SwapStar {
  readonly name = 'swap*';
  /** Arc change of the move `find` left in `moves.plans` (for tests: the evaluator's delta must agree on distance problems). */
  estimate = 0;
  private readonly inst: SolverInstance;
  /** Per side (0: stops of r1 into r2, 1: stops of r2 into r1) and position: saving of removing the stop. */
  private readonly removal: [Float64Array, Float64Array];
  /** …and its KEPT cheapest insertions in the other route: cost and position (before which it goes; -1: none). */
  private readonly insCost: [Float64Array, Float64Array];
  private readonly insPos: [Int32Array, Int32Array];
  /** The best pairs found for the route pair: arc change, position of u in r1, position of v in r2, where each goes. */
  private readonly candDelta = new Float64Array(SWAP_STAR_CANDIDATES);
  private readonly candPair = new Int32Array(SWAP_STAR_CANDIDATES * 4);
  private candCount = 0;
  /** Where the last `bestInsertion` puts its stop. */
  private bestPos = -1;
  /** Arc prices of pairs computed so far: the search's measure of work counts them, and the cache's (`priced`). */
  private pairsPriced = 0;
  private readonly cache: InsertionCache;
  /** Per side, the locations of its route: start, stops, end (fillLocs). */
  private readonly locs: [Int32Array, Int32Array];
  /** The route `priceInsertions` prices: its locations and length. */
  private intoLocs: Int32Array;
  private intoLen = 0;
  /**
   * The arcs of that route (arc q from its location q to q + 1), worked out for its first stop to
   * price (`intoLegsReady`): the same for every stop priced into it.
   */
  private readonly intoLegs: Float64Array;
  private intoLegsReady = false;
  /** Whether the arcs the objective counts read the same both ways (a symmetric distance): a stop's row then gives its arcs in and out. */
  private readonly rowsBothWays: boolean;
  /** Room per capacity dimension of r1 then r2 (fillSlack); checked only where capacities bind. */
  private readonly slack: Float64Array;
  private readonly checkLoad: boolean;
  /**
   * Whether insertion places are priced by the segment summaries (windows, shift, waiting) rather
   * than on arcs: with `byWindows` where the moves are priced by summaries (windowsBind's
   * problems). Arc-cheapest places there are mostly late, and SWAP* then tried pairs in vain.
   */
  private byWindows = false;
  private readonly acc: SegmentAcc;
  /** The solution and move evaluator of the running `find` (for the summaries' pricing). */
  private sol: Solution | null = null;
  private moves: MoveEvaluator | null = null;
  /**
   * With `nearOnly` (setNearOnly): the granular neighbour lists and how many of a stop's to read; a
   * stop then trades only into a route that holds one of them.
   */
  private near: Int32Array | null = null;
  private nearStride = 0;
  private nearCount = 0;

  /**
   * `byWindows`: price insertion places by the segment summaries when the moves are (see the field);
   * `symmetric`: the distance matrix reads the same both ways (MoveEvaluator.symmetric).
   */
  constructor(inst: SolverInstance, byWindows = false, symmetric = false) {
    this.inst = inst;
    this.byWindows = byWindows;
    this.acc = new SegmentAcc(inst.dims);
    const n = Math.max(1, inst.nStops);
    this.removal = [new Float64Array(n), new Float64Array(n)];
    this.insCost = [new Float64Array(n * KEPT), new Float64Array(n * KEPT)];
    this.insPos = [new Int32Array(n * KEPT), new Int32Array(n * KEPT)];
    this.cache = new InsertionCache(inst.nVehicles, inst.nStops);
    this.locs = [new Int32Array(n + 2), new Int32Array(n + 2)];
    this.intoLocs = this.locs[0];
    this.intoLegs = new Float64Array(n + 1);
    this.rowsBothWays = inst.costIsDistance && symmetric;
    this.slack = new Float64Array(2 * inst.dims);
    this.checkLoad = inst.capacityActive && !inst.allowOverload;
  }

  /**
   * From now on a stop trades only into a route holding one of its first `count` neighbours in
   * `neighbours` (lists of `stride` a stop): it is not priced into other routes
   * (SWAP_STAR_NEAR_ONLY_WITHOUT_WINDOWS). Still a matter of the two routes' contents (swap-star-memo.ts).
   */
  setNearOnly(neighbours: Int32Array, stride: number, count: number): void {
    this.near = neighbours;
    this.nearStride = stride;
    this.nearCount = count;
  }

  /** Arc prices computed so far (insertion positions and pairs): the search's measure of work counts them. */
  get priced(): number {
    return this.pairsPriced + this.cache.priced;
  }

  /**
   * Looks for an improving SWAP* between routes r1 ≠ r2 (both non-empty, summaries prepared). On
   * success leaves the move in `moves.plans` and returns 2; returns 0 when none improves.
   */
  find(sol: Solution, moves: MoveEvaluator, r1: number, r2: number): number {
    const n1 = sol.len[r1]!;
    const n2 = sol.len[r2]!;
    if (n1 === 0 || n2 === 0 || r1 === r2) return 0;
    this.sol = sol;
    this.moves = moves;
    this.fillLocs(sol, r1, this.locs[0]);
    this.fillLocs(sol, r2, this.locs[1]);
    this.preprocess(sol, r1, r2, 0);
    this.preprocess(sol, r2, r1, 1);
    this.collectCandidates(sol, moves, r1, r2);
    for (let c = 0; c < this.candCount; c++) {
      const o = c * 4;
      this.plan(sol, moves.plans[0], r1, this.candPair[o]!, sol.seq[r2]![this.candPair[o + 1]!]!, this.candPair[o + 3]!);
      this.plan(sol, moves.plans[1], r2, this.candPair[o + 1]!, sol.seq[r1]![this.candPair[o]!]!, this.candPair[o + 2]!);
      if (moves.improves(sol, 2)) {
        this.estimate = this.candDelta[c]!;
        return 2;
      }
    }
    return 0;
  }

  /** Removal savings of route `from`'s stops and their KEPT cheapest insertions into route `into` (cached per route state). */
  private preprocess(sol: Solution, from: number, into: number, side: 0 | 1): void {
    const inst = this.inst;
    const seq = sol.seq[from]!;
    const nFrom = sol.len[from]!;
    const removal = this.removal[side];
    const cost = this.insCost[side];
    const pos = this.insPos[side];
    const fromMatrix = this.matrixOf(from);
    const locs = this.locs[side];
    const N = inst.nLoc;
    const base = into * inst.nStops;
    this.intoLocs = this.locs[1 - side]!;
    this.intoLen = sol.len[into]!;
    this.intoLegsReady = false;
    const stamp = sol.stamp[into]!;
    for (let i = 0; i < nFrom; i++) {
      const s = seq[i]!;
      const before = locs[i]!;
      const loc = locs[i + 1]!;
      const after = locs[i + 2]!;
      removal[i] = arc(fromMatrix, N, before, loc) + arc(fromMatrix, N, loc, after) - arc(fromMatrix, N, before, after);
      const o = i * KEPT;
      if (inst.compatible[base + s] !== 1 || (this.near !== null && !this.hasNeighbourIn(sol, s, into))) {
        pos[o] = -1;
        continue;
      }
      this.cache.read(into, stamp, s, this.priceInsertions, cost, pos, o);
    }
  }

  /** The KEPT cheapest insertions of stop s into route r (its locations in `intoLocs`), written at o; answers the positions priced. */
  private readonly priceInsertions = (r: number, s: number, cost: Float64Array, pos: Int32Array, o: number): number => {
    if (this.byWindows && this.moves!.fast) return this.priceBySummaries(r, s, cost, pos, o);
    const matrix = this.matrixOf(r);
    const N = this.inst.nLoc;
    const locs = this.intoLocs;
    const n = this.intoLen;
    const loc = this.inst.stopLoc[s]!;
    for (let k = 0; k < KEPT; k++) {
      cost[o + k] = Infinity;
      pos[o + k] = -1;
    }
    if (this.rowsBothWays && loc >= 0) {
      this.priceOnRow(matrix, loc * N, cost, pos, o);
      return n + 1;
    }
    for (let q = 0; q <= n; q++) {
      const a = locs[q]!;
      const b = locs[q + 1]!;
      keep(cost, pos, o, arc(matrix, N, a, loc) + arc(matrix, N, loc, b) - arc(matrix, N, a, b), q);
    }
    return n + 1;
  };

  /**
   * priceInsertions on a symmetric matrix: the arcs into and out of the stop all read its own row
   * (`row`), each read once (a place's arc out is the next place's arc in), and the route's own
   * arcs come from `intoLegs`; a third of the reads, and the same sums of the same whole distances.
   */
  private priceOnRow(matrix: Int32Array, row: number, cost: Float64Array, pos: Int32Array, o: number): void {
    const locs = this.intoLocs;
    const n = this.intoLen;
    const legs = this.readyIntoLegs(matrix);
    let arcIn = matrix[row + locs[0]!]!;
    for (let q = 0; q <= n; q++) {
      const b = locs[q + 1]!;
      const arcOut = b < 0 ? 0 : matrix[row + b]!;
      keep(cost, pos, o, arcIn + arcOut - legs[q]!, q);
      arcIn = arcOut;
    }
  }

  /** The arcs of the route priced into (intoLegs), worked out on the first call for it. */
  private readyIntoLegs(matrix: Int32Array): Float64Array {
    const legs = this.intoLegs;
    if (this.intoLegsReady) return legs;
    const locs = this.intoLocs;
    const N = this.inst.nLoc;
    for (let q = 0, n = this.intoLen; q <= n; q++) legs[q] = arc(matrix, N, locs[q]!, locs[q + 1]!);
    this.intoLegsReady = true;
    return legs;
  }

  /**
   * The KEPT cheapest places of stop s in route r as it is, priced by the segment summaries (the
   * change of the route's cost; places that break a window or the shift left out, a capacity not
   * checked: the stop it trades with leaves first), written at o; answers the places priced.
   */
  private priceBySummaries(r: number, s: number, cost: Float64Array, pos: Int32Array, o: number): number {
    const sol = this.sol!;
    const segments = this.moves!.segments;
    const acc = this.acc;
    const n = sol.len[r]!;
    const current = segments.routeCost[r]!;
    for (let k = 0; k < KEPT; k++) {
      cost[o + k] = Infinity;
      pos[o + k] = -1;
    }
    for (let q = 0; q <= n; q++) {
      segments.startRoute(acc, r);
      segments.appendPrefix(acc, sol, r, q);
      segments.appendStop(acc, s);
      segments.appendSuffix(acc, sol, r, q);
      const value = segments.finishRoute(acc, r, false);
      if (value !== Infinity) keep(cost, pos, o, value - current, q);
    }
    return WORK_PER_SUMMARY_PLACE * (n + 1);
  }

  /** Whether route r holds one of stop s's first `nearCount` granular neighbours. */
  private hasNeighbourIn(sol: Solution, s: number, r: number): boolean {
    const near = this.near!;
    for (let j = 0, o = s * this.nearStride; j < this.nearCount; j++) {
      const x = near[o + j]!;
      if (x < 0) return false;
      if (sol.routeOf[x] === r) return true;
    }
    return false;
  }

  /** Start location, the stops' locations and the end location (-1: open) of route r, into `out`. */
  private fillLocs(sol: Solution, r: number, out: Int32Array): void {
    const inst = this.inst;
    const seq = sol.seq[r]!;
    const n = sol.len[r]!;
    out[0] = inst.vStartLoc[r]!;
    for (let i = 0; i < n; i++) out[i + 1] = inst.stopLoc[seq[i]!]!;
    out[n + 1] = inst.vEndLoc[r]!;
  }

  /** Room left per capacity dimension in routes r1 and r2, a little looser than loadExceeds (loadFits decides). */
  private fillSlack(sol: Solution, r1: number, r2: number): void {
    const inst = this.inst;
    const dims = inst.dims;
    for (let side = 0; side < 2; side++) {
      const v = side === 0 ? r1 : r2;
      for (let k = 0; k < dims; k++) {
        const cap = inst.vCap[v * dims + k]!;
        this.slack[side * dims + k] = cap + 2 * SLACK_EPS * Math.max(1, Math.abs(cap)) - sol.load[v * dims + k]!;
      }
    }
  }

  /** Whether u (of r1) and v (of r2) may trade routes as far as the routes' room goes (necessary, not sufficient). */
  private mayTrade(u: number, v: number): boolean {
    if (!this.checkLoad) return true;
    const dims = this.inst.dims;
    const load = this.inst.stopLoad;
    for (let k = 0; k < dims; k++) {
      const change = load[v * dims + k]! - load[u * dims + k]!;
      if (change > this.slack[k]! || -change > this.slack[dims + k]!) return false;
    }
    return true;
  }

  /** Every pair (u in r1, v in r2) priced on arcs; keeps the SWAP_STAR_CANDIDATES cheapest below zero. */
  private collectCandidates(sol: Solution, moves: MoveEvaluator, r1: number, r2: number): void {
    this.candCount = 0;
    const n1 = sol.len[r1]!;
    const n2 = sol.len[r2]!;
    const [rem1, rem2] = this.removal;
    const seq1 = sol.seq[r1]!;
    const seq2 = sol.seq[r2]!;
    if (this.checkLoad) this.fillSlack(sol, r1, r2);
    this.pairsPriced += n1 * n2;
    for (let i = 0; i < n1; i++) {
      if (this.insPos[0][i * KEPT] === -1) continue;
      const u = seq1[i]!;
      for (let j = 0; j < n2; j++) {
        if (this.insPos[1][j * KEPT] === -1) continue;
        const v = seq2[j]!;
        if (!this.mayTrade(u, v)) continue;
        const saved = rem1[i]! + rem2[j]!;
        const costU = this.bestInsertion(0, i, u, r2, j);
        const posU = this.bestPos;
        const delta = costU + this.bestInsertion(1, j, v, r1, i) - saved;
        if (delta >= -IMPROVEMENT_EPS) continue;
        if (!moves.loadFits(sol, r1, r2, j, j + 1, u) || !moves.loadFits(sol, r2, r1, i, i + 1, v)) continue;
        this.offer(delta, i, j, posU, this.bestPos);
      }
    }
  }

  /**
   * Cheapest insertion of stop s (at position `at` of its route, side `side`) into route `into`
   * once the stop at position `out` has left it: in that stop's place, or at one of the KEPT
   * positions not next to it. Answers the cost; leaves in `bestPos` the position before which it
   * goes (`out`: in its place).
   */
  private bestInsertion(side: 0 | 1, at: number, s: number, into: number, out: number): number {
    const inst = this.inst;
    const N = inst.nLoc;
    const matrix = this.matrixOf(into);
    const loc = inst.stopLoc[s]!;
    const locs = this.locs[side === 0 ? 1 : 0];
    const a = locs[out]!;
    const b = locs[out + 2]!;
    let best = arc(matrix, N, a, loc) + arc(matrix, N, loc, b) - arc(matrix, N, a, b);
    let bestPos = out;
    const cost = this.insCost[side];
    const pos = this.insPos[side];
    for (let k = 0, o = at * KEPT; k < KEPT; k++) {
      const q = pos[o + k]!;
      if (q < 0) break;
      if (q === out || q === out + 1) continue;
      if (cost[o + k]! < best) {
        best = cost[o + k]!;
        bestPos = q;
      }
      break;
    }
    this.bestPos = bestPos;
    return best;
  }

  /** Keeps the pair among the cheapest SWAP_STAR_CANDIDATES (insertion into a short sorted list). */
  private offer(delta: number, i: number, j: number, posU: number, posV: number): void {
    let c = this.candCount;
    if (c === SWAP_STAR_CANDIDATES) {
      if (delta >= this.candDelta[c - 1]!) return;
      c--;
    } else {
      this.candCount++;
    }
    while (c > 0 && this.candDelta[c - 1]! > delta) {
      this.candDelta[c] = this.candDelta[c - 1]!;
      this.candPair.copyWithin(c * 4, (c - 1) * 4, c * 4);
      c--;
    }
    this.candDelta[c] = delta;
    this.candPair[c * 4] = i;
    this.candPair[c * 4 + 1] = j;
    this.candPair[c * 4 + 2] = posU;
    this.candPair[c * 4 + 3] = posV;
  }

  /** Route r without its stop at position `out`, with stop `s` inserted before position q (q = out: in its place). */
  private plan(sol: Solution, plan: RoutePlan, r: number, out: number, s: number, q: number): void {
    const n = sol.len[r]!;
    plan.reset(r);
    if (q <= out)
      plan
        .range(r, 0, q)
        .stop(s)
        .range(r, q, out)
        .range(r, out + 1, n);
    else
      plan
        .range(r, 0, out)
        .range(r, out + 1, q)
        .stop(s)
        .range(r, q, n);
  }

  /** The arc costs the objective counts on route v: distance, or travel time when the cost is working time. */
  private matrixOf(v: number): Int32Array {
    return this.inst.costIsDistance ? this.inst.dist : this.inst.vDur[v]!;
  }
}

function arc(matrix: Int32Array, N: number, a: number, b: number): number {
  return b < 0 ? 0 : matrix[a * N + b]!;
}

/** Puts (c, q) among the KEPT cheapest at o (sorted ascending). */
function keep(cost: Float64Array, pos: Int32Array, o: number, c: number, q: number): void {
  if (c >= cost[o + KEPT - 1]!) return;
  let k = KEPT - 1;
  while (k > 0 && cost[o + k - 1]! > c) {
    cost[o + k] = cost[o + k - 1]!;
    pos[o + k] = pos[o + k - 1]!;
    k--;
  }
  cost[o + k] = c;
  pos[o + k] = q;
}
