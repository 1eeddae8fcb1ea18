/**
 * The problem with one rule changed, for asking "would the stop fit if…" (unserved-blocks.ts,
 * unserved-hints.ts): a copy of the instance whose windows, durations, shift ends and capacities
 * may be changed one entry at a time and put back, with its own exact route evaluator. The route
 * evaluator reads these arrays on every evaluation, so a changed entry is the changed rule.
 */
import { ROUTE_HORIZON, type SolverInstance } from './instance.js';
import { RouteEvaluator } from './route/evaluator.js';

/** An arrays of the instance that a view may change, and the entries changed so far. */
type Changeable = 'winStart' | 'winEnd' | 'stopDur' | 'vShiftEnd' | 'vCap';

/** The latest time anything may happen: a window or shift opened to it no longer binds. */
export const OPEN_END = ROUTE_HORIZON;

export class RelaxedView {
  readonly inst: SolverInstance;
  readonly evaluator: RouteEvaluator;
  private readonly base: SolverInstance;
  private readonly changed: Array<[Changeable, number]> = [];

  constructor(base: SolverInstance) {
    this.base = base;
    this.inst = {
      ...base,
      winStart: base.winStart.slice(),
      winEnd: base.winEnd.slice(),
      stopDur: base.stopDur.slice(),
      vShiftEnd: base.vShiftEnd.slice(),
      vCap: base.vCap.slice(),
    };
    this.evaluator = new RouteEvaluator(this.inst);
  }

  /** Sets one entry (window w's start or end, stop s's duration, vehicle v's shift end, capacity v·dims+k). */
  set(array: Changeable, index: number, value: number): void {
    this.changed.push([array, index]);
    this.inst[array][index] = value;
  }

  /** Opens every window of stop s: any time of the day will do. */
  openWindows(s: number): void {
    for (let w = this.base.winOffset[s]!, e = this.base.winOffset[s + 1]!; w < e; w++) {
      this.set('winStart', w, 0);
      this.set('winEnd', w, OPEN_END);
    }
  }

  /** Lifts vehicle v's capacity in every dimension. */
  openCapacity(v: number): void {
    for (let k = 0; k < this.base.dims; k++) this.set('vCap', v * this.base.dims + k, Infinity);
  }

  /** Puts every changed entry back to the problem's own value. */
  restore(): void {
    for (const [array, index] of this.changed) this.inst[array][index] = this.base[array][index]!;
    this.changed.length = 0;
  }
}
