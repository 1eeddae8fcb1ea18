/**
 * Which route pairs SWAP* already tried in vain, by the routes' contents: a pair whose two routes
 * are as they were when SWAP* last found nothing between them need not be priced again. The local
 * search's stamps cannot tell this: a candidate rolled back to the accepted plan gets fresh stamps
 * (solution.ts, copyRoutesFrom), so every rejected iteration made SWAP* price its routes with all
 * their neighbours once more, although the accepted plan had been through SWAP* already.
 *
 * SWAP*'s answer depends only on the two vehicles and their stop sequences (the costs and rules
 * are the run's), so the key is a pair of 32-bit hashes of both. The table is direct-mapped: a
 * newer pair overwrites an older one in its slot, which only costs that pair a second try. A false
 * match (both hashes equal for other routes, some 2^-64 a lookup) would skip one SWAP*, never admit
 * a move: the search's plans stay feasible and, the hashes being of contents, deterministic.
 */
import type { Solution } from '../../solution.js';

export class SwapStarMemo {
  private readonly mask: number;
  private readonly keyA: Int32Array;
  private readonly keyB: Int32Array;
  private readonly filled: Uint8Array;
  /** Per route: its two hashes and the stamp they were taken at. */
  private readonly hashA: Int32Array;
  private readonly hashB: Int32Array;
  private readonly hashStamp: Float64Array;
  /** Lookups answered "tried in vain" (for the bench's figures). */
  hits = 0;

  constructor(nVehicles: number, bits: number) {
    const size = 1 << bits;
    this.mask = size - 1;
    this.keyA = new Int32Array(size);
    this.keyB = new Int32Array(size);
    this.filled = new Uint8Array(size);
    this.hashA = new Int32Array(nVehicles);
    this.hashB = new Int32Array(nVehicles);
    this.hashStamp = new Float64Array(nVehicles).fill(-1);
  }

  /** Whether SWAP* found nothing between r1 and r2 as they are now. */
  triedInVain(sol: Solution, r1: number, r2: number): boolean {
    this.hashRoute(sol, r1);
    this.hashRoute(sol, r2);
    const a = mix(this.hashA[r1]!, this.hashA[r2]!);
    const slot = a & this.mask;
    const found = this.filled[slot] === 1 && this.keyA[slot] === a && this.keyB[slot] === mix(this.hashB[r1]!, this.hashB[r2]!);
    if (found) this.hits++;
    return found;
  }

  /** Records that SWAP* found nothing between r1 and r2 as they are now (hashed by `triedInVain`). */
  recordInVain(sol: Solution, r1: number, r2: number): void {
    this.hashRoute(sol, r1);
    this.hashRoute(sol, r2);
    const a = mix(this.hashA[r1]!, this.hashA[r2]!);
    const slot = a & this.mask;
    this.keyA[slot] = a;
    this.keyB[slot] = mix(this.hashB[r1]!, this.hashB[r2]!);
    this.filled[slot] = 1;
  }

  /** Two independent hashes of route r's vehicle and stop sequence, kept while its stamp holds. */
  private hashRoute(sol: Solution, r: number): void {
    const stamp = sol.stamp[r]!;
    if (this.hashStamp[r] === stamp) return;
    const seq = sol.seq[r]!;
    const n = sol.len[r]!;
    let a = Math.imul(r + 1, 0x9e3779b1) ^ n;
    let b = Math.imul(r + 1, 0x85ebca77) ^ Math.imul(n, 0xc2b2ae3d);
    for (let i = 0; i < n; i++) {
      a = Math.imul(a ^ seq[i]!, 0x01000193);
      b = Math.imul((b << 5) | (b >>> 27), 0x27d4eb2f) ^ (seq[i]! + 0x165667b1);
    }
    this.hashA[r] = a;
    this.hashB[r] = b;
    this.hashStamp[r] = stamp;
  }
}

/** An order-sensitive mix of two 32-bit hashes (the pair (r1, r2) differs from (r2, r1)). */
function mix(x: number, y: number): number {
  let h = Math.imul(x ^ (x >>> 16), 0x85ebca6b) ^ y;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}
