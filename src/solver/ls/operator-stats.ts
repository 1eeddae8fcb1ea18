/**
 * Per-operator counters of the local search: moves priced, moves applied, and time. Counting is
 * a few additions per operator call. A clock read can cost more than a cheap move and disturbs
 * what it measures, so only one call in OPERATOR_TIMING_SAMPLE of each operator is timed, and
 * those samples only split the measured time of whole local-search runs among the operators.
 */
import { OPERATOR_TIMING_SAMPLE } from '../params.js';
import type { OperatorStats } from '../types.js';

export class OperatorCounters {
  private readonly tries: Float64Array;
  private readonly improvements: Float64Array;
  private readonly sampledMs: Float64Array;
  private readonly calls: Int32Array;
  /** Time of all local-search runs. */
  private runMs = 0;
  /** State of the call in progress (operators do not nest). */
  private pricedBefore = 0;
  private startedAt = -1;

  constructor(private readonly names: readonly string[]) {
    this.tries = new Float64Array(names.length);
    this.improvements = new Float64Array(names.length);
    this.sampledMs = new Float64Array(names.length);
    this.calls = new Int32Array(names.length);
  }

  /** Before a call of operator `op`; `priced` is `MoveEvaluator.priced`. */
  start(op: number, priced: number): void {
    this.pricedBefore = priced;
    this.startedAt = -1;
    if (++this.calls[op]! < OPERATOR_TIMING_SAMPLE) return;
    this.calls[op] = 0;
    this.startedAt = performance.now();
  }

  /** After the call: `priced` as now, and whether it applied a move. */
  finish(op: number, priced: number, applied: boolean): void {
    if (this.startedAt >= 0) this.sampledMs[op]! += performance.now() - this.startedAt;
    this.tries[op]! += priced - this.pricedBefore;
    if (applied) this.improvements[op]!++;
  }

  addRunTime(ms: number): void {
    this.runMs += ms;
  }

  /** The counters; `ms` is the run time split in proportion to the sampled times. */
  snapshot(): OperatorStats[] {
    const sampled = this.sampledMs.reduce((sum, ms) => sum + ms, 0);
    const scale = sampled > 0 ? this.runMs / sampled : 0;
    return this.names.map((name, op) => ({
      name,
      tries: this.tries[op]!,
      improvements: this.improvements[op]!,
      ms: this.sampledMs[op]! * scale,
    }));
  }
}
