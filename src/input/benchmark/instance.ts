/**
 * The format-neutral content of a benchmark instance, between parsing and normalization.
 * Times and coordinates are in the instance's own units, exactly as written.
 */
export type EuclideanRounding = 'trunc1' | 'round';

export interface BenchmarkNode {
  /** Customer number as the instance (and its .sol files) numbers it; 1-based. */
  customer: number;
  x: number;
  y: number;
  demand: number;
  /** Earliest start of service; 0 when the format has no windows. */
  ready: number;
  /** Latest start of service; Infinity when the format has no windows. */
  due: number;
  service: number;
  /** Source line, for error messages raised after parsing. */
  line: number;
}

export interface BenchmarkDepot {
  x: number;
  y: number;
  /** Earliest departure; null when the format has no depot times. */
  ready: number | null;
  /** Latest return; Infinity when the format has no depot times. */
  due: number;
  /** Source line of the depot's row. */
  line: number;
}

export interface BenchmarkInstance {
  name: string;
  rounding: EuclideanRounding;
  fleetSize: number;
  capacity: number;
  depot: BenchmarkDepot;
  /** In customer-number order: customers[i].customer === i + 1. */
  customers: BenchmarkNode[];
}
