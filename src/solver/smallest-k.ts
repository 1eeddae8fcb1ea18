/**
 * Keeps the k smallest keys offered, in ascending order (ties keep the earlier offer first).
 * Insertion into a short sorted list: O(k) at worst per offer and O(1) for the many keys that
 * do not make the list, which keeps neighbour lists O(n·k) to build without sorting n keys.
 */
export class SmallestK {
  readonly keys: Float64Array;
  readonly ids: Int32Array;
  count = 0;

  constructor(readonly k: number) {
    this.keys = new Float64Array(k);
    this.ids = new Int32Array(k);
  }

  reset(): void {
    this.count = 0;
  }

  offer(key: number, id: number): void {
    const { k, keys, ids } = this;
    if (k === 0 || (this.count === k && key >= keys[k - 1]!)) return;
    let i = this.count < k ? this.count++ : k - 1;
    while (i > 0 && keys[i - 1]! > key) {
      keys[i] = keys[i - 1]!;
      ids[i] = ids[i - 1]!;
      i--;
    }
    keys[i] = key;
    ids[i] = id;
  }

  /** Keys at or above this cannot make the list (Infinity until it is full): lets hot loops skip the call. */
  get bound(): number {
    return this.count === this.k ? this.keys[this.k - 1]! : Infinity;
  }

  /** Writes the ids, nearest first, into `out` from `offset`. */
  copyIdsTo(out: Int32Array, offset: number): void {
    out.set(this.ids.subarray(0, this.count), offset);
  }
}
