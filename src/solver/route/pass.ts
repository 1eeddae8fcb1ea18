/** What one evaluation of a route works on, shared by the evaluator and its helpers. */
import type { RouteCache } from './cache.js';

/** A route being evaluated: vehicle `v` serving `seq[0..len)`. */
export interface RouteRef {
  v: number;
  seq: Int32Array;
  len: number;
}

/** …and the forward states it reuses (from `prefix`, before position `from`) or stores (in `record`). */
export interface Pass extends RouteRef {
  from: number;
  prefix: RouteCache | null;
  record: RouteCache | null;
}

/** Per position of the last forward pass: the window used and the service start. */
export interface PassTrace {
  readonly win: Int32Array;
  readonly start: Float64Array;
}
