/**
 * SWAP* (Vidal 2022, "Hybrid genetic search for the CVRP: open-source implementation and SWAP*
 * neighborhood"): a stop u of route r1 and a stop v of route r2 trade routes, each going to its
 * best position in the other route, which need not be the place the other left. The plain swap
 * (swap.ts) only puts each in the other's place.
 *
 * Priced first on arcs alone (distance, or travel time when the cost is working time): removing a
 * stop saves its two arcs less the one that closes the gap; the three cheapest insertion positions
 * of every stop of one route in the other are found once per route pair, so a pair (u, v) costs
 * O(1): u goes in v's place or at the cheapest of its three positions not next to v. The pairs
 * whose arc change is negative are then priced by the MoveEvaluator (segment summaries or the
 * exact evaluator: windows, shifts, capacity, preferences), cheapest arc change first, and the
 * first that improves the objective is the move. On a distance objective without windows the arc
 * change is the move's exact change, so the evaluator only confirms feasibility.
 */
import type { SolverInstance } from '../../instance.js';
import { IMPROVEMENT_EPS, SWAP_STAR_CANDIDATES } from '../../params.js';
import type { Solution } from '../../solution.js';
import type { MoveEvaluator, RoutePlan } from '../move.js';

/** Insertion positions kept per stop and route (Vidal's three). */
const KEPT = 3;

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
  /** Arc prices computed so far (insertion positions and pairs): the search's measure of work counts them. */
  priced = 0;

  constructor(inst: SolverInstance) {
    this.inst = inst;
    const n = Math.max(1, inst.nStops);
    this.removal = [new Float64Array(n), new Float64Array(n)];
    this.insCost = [new Float64Array(n * KEPT), new Float64Array(n * KEPT)];
    this.insPos = [new Int32Array(n * KEPT), new Int32Array(n * KEPT)];
  }

  /**
   * Looks for an improving SWAP* between routes r1 ≠ r2 (both non-empty, summaries prepared). On
   * success leaves the move in `moves.plans` and returns 2; returns 0 when none improves.
   */
  find(sol: Solution, moves: MoveEvaluator, r1: number, r2: number): number {
    const n1 = sol.len[r1]!;
    const n2 = sol.len[r2]!;
    if (n1 === 0 || n2 === 0 || r1 === r2) return 0;
    this.preprocess(sol, moves, r1, r2, 0);
    this.preprocess(sol, moves, r2, r1, 1);
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

  /** Removal savings of route `from`'s stops and their KEPT cheapest insertions into route `into`. */
  private preprocess(sol: Solution, moves: MoveEvaluator, from: number, into: number, side: 0 | 1): void {
    const inst = this.inst;
    const seq = sol.seq[from]!;
    const nFrom = sol.len[from]!;
    const nInto = sol.len[into]!;
    const removal = this.removal[side];
    const cost = this.insCost[side];
    const pos = this.insPos[side];
    const fromMatrix = this.matrixOf(from);
    const intoMatrix = this.matrixOf(into);
    const N = inst.nLoc;
    const base = into * inst.nStops;
    for (let i = 0; i < nFrom; i++) {
      const s = seq[i]!;
      const loc = inst.stopLoc[s]!;
      const before = moves.locBefore(sol, from, i);
      const after = moves.locAt(sol, from, i + 1);
      removal[i] = arc(fromMatrix, N, before, loc) + arc(fromMatrix, N, loc, after) - arc(fromMatrix, N, before, after);
      const o = i * KEPT;
      for (let k = 0; k < KEPT; k++) {
        cost[o + k] = Infinity;
        pos[o + k] = -1;
      }
      if (inst.compatible[base + s] !== 1) continue;
      this.priced += nInto + 1;
      for (let q = 0; q <= nInto; q++) {
        const a = moves.locBefore(sol, into, q);
        const b = moves.locAt(sol, into, q);
        keep(cost, pos, o, arc(intoMatrix, N, a, loc) + arc(intoMatrix, N, loc, b) - arc(intoMatrix, N, a, b), q);
      }
    }
  }

  /** Every pair (u in r1, v in r2) priced on arcs; keeps the SWAP_STAR_CANDIDATES cheapest below zero. */
  private collectCandidates(sol: Solution, moves: MoveEvaluator, r1: number, r2: number): void {
    this.candCount = 0;
    const n1 = sol.len[r1]!;
    const n2 = sol.len[r2]!;
    const [rem1, rem2] = this.removal;
    this.priced += n1 * n2;
    for (let i = 0; i < n1; i++) {
      if (this.insPos[0][i * KEPT] === -1) continue;
      for (let j = 0; j < n2; j++) {
        if (this.insPos[1][j * KEPT] === -1) continue;
        const saved = rem1[i]! + rem2[j]!;
        const u = sol.seq[r1]![i]!;
        const v = sol.seq[r2]![j]!;
        const costU = this.bestInsertion(sol, moves, 0, i, u, r2, j);
        const posU = this.bestPos;
        const delta = costU + this.bestInsertion(sol, moves, 1, j, v, r1, i) - saved;
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
  private bestInsertion(sol: Solution, moves: MoveEvaluator, side: 0 | 1, at: number, s: number, into: number, out: number): number {
    const inst = this.inst;
    const N = inst.nLoc;
    const matrix = this.matrixOf(into);
    const loc = inst.stopLoc[s]!;
    const a = moves.locBefore(sol, into, out);
    const b = moves.locAt(sol, into, out + 1);
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

/**
 * Whether some stop's window leaves out part of the vehicles' working day. There SWAP* does not
 * pay: its arc pricing ignores the windows, most of its cheapest pairs are late somewhere, and in
 * one interleaved run it cost Solomon's 56 a fifth more time for the same gap at 1,000 iterations
 * (0.54 % either way) and Gehring–Homberger 1000 a third of its iterations at 10 s, while CVRP X
 * (no windows) gained 1.0 point of gap at 10 s (README, Benchmarks).
 */
export function windowsBind(inst: SolverInstance): boolean {
  let dayStart = Infinity;
  let dayEnd = -Infinity;
  for (let v = 0; v < inst.nVehicles; v++) {
    dayStart = Math.min(dayStart, inst.vDepart0[v]!);
    dayEnd = Math.max(dayEnd, inst.vShiftEnd[v]!);
  }
  for (let w = 0; w < inst.winStart.length; w++) if (inst.winStart[w]! > dayStart || inst.winEnd[w]! < dayEnd) return true;
  return false;
}
