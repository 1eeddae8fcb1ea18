/** Capacity per dimension (decisions.md): above it only with `allowOverload`, counted as overload. */
import type { SolverInstance } from '../instance.js';

/** Relative slack for comparing float loads against capacities. */
const LOAD_EPS = 1e-9;

export function loadExceeds(load: number, cap: number): boolean {
  return load > cap + LOAD_EPS * Math.max(1, Math.abs(cap));
}

/**
 * Total overload of vehicle `v` carrying `load[offset..offset + dims)`: 0 when within
 * capacity, -1 when over it and overload is not allowed.
 */
export function overloadOf(inst: SolverInstance, v: number, load: Float64Array, offset: number): number {
  const dims = inst.dims;
  let overload = 0;
  for (let k = 0; k < dims; k++) {
    const cap = inst.vCap[v * dims + k]!;
    const amount = load[offset + k]!;
    if (loadExceeds(amount, cap)) {
      if (!inst.allowOverload) return -1;
      overload += amount - cap;
    }
  }
  return overload;
}

/** Total load per dimension of a stop sequence, into `load` when given (a buffer reused in a hot loop). */
export function sequenceLoad(
  inst: SolverInstance,
  stops: ArrayLike<number>,
  len = stops.length,
  load: Float64Array = new Float64Array(inst.dims),
): Float64Array {
  const dims = inst.dims;
  load.fill(0, 0, dims);
  for (let i = 0; i < len; i++) {
    const s = stops[i]!;
    for (let k = 0; k < dims; k++) load[k]! += inst.stopLoad[s * dims + k]!;
  }
  return load;
}
