/**
 * Choosing the windows of a whole route together. The greedy window choice (windows.ts) is
 * exact except for a stop that has several windows AND may be late: a less late window can
 * finish later and cost the route its feasibility. A route with such a stop chooses all its
 * windows in one forward pass over Pareto labels (ready time, lateness so far): every window
 * of such a stop, the greedy (dominant) choice at the others. At the end: within the shift
 * and overtime, then least lateness + overtime (objective level 2), then the earliest end.
 */
import type { SolverInstance } from '../instance.js';
import { drive, hasBreaks } from './breaks.js';
import type { RouteRef } from './pass.js';
import { chooseStart, serviceDuration, ServiceChoice } from './windows.js';

/**
 * Most Pareto labels (ready time, lateness) kept per position. Fronts stay tiny in practice
 * (a label per window of the few multi-window stops); past this the earliest labels and the
 * least late one are kept, so the cap can only cost optimality, never validity.
 */
const MAX_FRONT = 64;

export class RouteWindows {
  private readonly inst: SolverInstance;
  /** Per stop: several windows and a lateness allowance, so the greedy window choice is not exact. */
  private readonly multiLate: Uint8Array;
  private readonly anyMultiLate: boolean;
  private readonly choice = new ServiceChoice();
  /** Label pool: labels [frontStart, frontEnd) are the front after the last position. */
  private lblReady: Float64Array = new Float64Array(64);
  private lblLate: Float64Array = new Float64Array(64);
  private lblParent: Int32Array = new Int32Array(64);
  private lblWin: Int32Array = new Int32Array(64);
  private lblOrder: Int32Array = new Int32Array(64);
  private frontStart = 0;
  private frontEnd = 0;

  constructor(inst: SolverInstance) {
    this.inst = inst;
    this.multiLate = new Uint8Array(inst.nStops);
    let any = false;
    for (let s = 0; s < inst.nStops; s++) {
      if (inst.winOffset[s + 1]! - inst.winOffset[s]! > 1 && inst.stopMaxLate[s]! > 0) {
        this.multiLate[s] = 1;
        any = true;
      }
    }
    this.anyMultiLate = any;
  }

  /** Whether some problem stop makes the greedy choice inexact (then insertions need the whole route). */
  get anyNeeded(): boolean {
    return this.anyMultiLate;
  }

  /** Whether route `seq[0..len)` must choose its windows together. */
  needed(seq: Int32Array, len: number): boolean {
    if (!this.anyMultiLate) return false;
    const multiLate = this.multiLate;
    for (let i = 0; i < len; i++) if (multiLate[seq[i]!] === 1) return true;
    return false;
  }

  /**
   * Chooses the windows of `route` departing at `depart` into `windows` (one per position);
   * false when no choice keeps the route feasible.
   */
  choose(route: RouteRef, depart: number, windows: Int32Array): boolean {
    const inst = this.inst;
    const { v, seq, len } = route;
    const N = inst.nLoc;
    const dur = inst.vDur[v]!;
    let size = this.pushLabel(0, depart, 0, -1, -1);
    this.frontStart = 0;
    this.frontEnd = 1;
    let prevLoc = inst.vStartLoc[v]!;
    let prevStopLoc = -1;
    for (let i = 0; i < len; i++) {
      const s = seq[i]!;
      const loc = inst.stopLoc[s]!;
      const childStart = size;
      size = this.extend(v, s, dur[prevLoc * N + loc]!, serviceDuration(inst, s, prevStopLoc), size);
      if (size === childStart) return false;
      this.frontStart = size;
      size = this.keepParetoFront(childStart, size);
      this.frontEnd = size;
      prevLoc = loc;
      prevStopLoc = loc;
    }
    const best = this.bestAtEnd(v, prevLoc);
    if (best < 0) return false;
    for (let i = len - 1, l = best; i >= 0; i--, l = this.lblParent[l]!) windows[i] = this.lblWin[l]!;
    return true;
  }

  /** Appends the labels of serving stop `s` (leg `leg`, service `d`) after each label of the front. */
  private extend(v: number, s: number, leg: number, d: number, size: number): number {
    const inst = this.inst;
    const breaks = hasBreaks(inst, v);
    const maxLate = inst.stopMaxLate[s]!;
    const choice = this.choice;
    for (let l = this.frontStart; l < this.frontEnd; l++) {
      const ready = this.lblReady[l]!;
      const late = this.lblLate[l]!;
      const arrival = breaks ? drive(inst, v, ready, leg) : ready + leg;
      if (this.multiLate[s] === 1) {
        for (let w = inst.winOffset[s]!, e = inst.winOffset[s + 1]!; w < e; w++) {
          // Even starting at arrival this window would be too late.
          if (arrival + d - inst.winEnd[w]! > maxLate) continue;
          if (choice.inWindow(inst, v, w, arrival, d, maxLate)) size = this.pushLabel(size, choice.start + d, late + choice.late, l, w);
        }
      } else if (chooseStart(inst, v, s, arrival, d, choice)) {
        size = this.pushLabel(size, choice.start + d, late + choice.late, l, choice.win);
      }
    }
    return size;
  }

  /** The front label with the least lateness + overtime (then the earliest end) within the shift; -1: none. */
  private bestAtEnd(v: number, lastLoc: number): number {
    const inst = this.inst;
    const breaks = hasBreaks(inst, v);
    const endLoc = inst.vEndLoc[v]!;
    const endLeg = endLoc >= 0 ? inst.vDur[v]![lastLoc * inst.nLoc + endLoc]! : 0;
    const shiftEnd = inst.vShiftEnd[v]!;
    const maxOvertime = inst.vMaxOvertime[v]!;
    let best = -1;
    let bestViolation = Infinity;
    let bestEnd = Infinity;
    for (let l = this.frontStart; l < this.frontEnd; l++) {
      const ready = this.lblReady[l]!;
      const end = endLoc < 0 ? ready : breaks ? drive(inst, v, ready, endLeg) : ready + endLeg;
      const over = end - shiftEnd;
      if (over > maxOvertime) continue;
      const violation = this.lblLate[l]! + (over > 0 ? over : 0);
      if (violation < bestViolation || (violation === bestViolation && end < bestEnd)) {
        best = l;
        bestViolation = violation;
        bestEnd = end;
      }
    }
    return best;
  }

  private pushLabel(size: number, ready: number, late: number, parent: number, win: number): number {
    if (size === this.lblReady.length) {
      const capacity = size * 2;
      this.lblReady = grown(this.lblReady, capacity);
      this.lblLate = grown(this.lblLate, capacity);
      this.lblParent = grown(this.lblParent, capacity);
      this.lblWin = grown(this.lblWin, capacity);
      this.lblOrder = grown(this.lblOrder, capacity);
    }
    this.lblReady[size] = ready;
    this.lblLate[size] = late;
    this.lblParent[size] = parent;
    this.lblWin[size] = win;
    return size + 1;
  }

  /**
   * Appends the labels of [from, to) that no other one dominates (not later and not more
   * late), by increasing ready time, after `to`; returns the new pool size.
   */
  private keepParetoFront(from: number, to: number): number {
    const order = this.lblOrder;
    const ready = this.lblReady;
    const late = this.lblLate;
    let count = 0;
    for (let l = from; l < to; l++) {
      // Insertion sort: a handful of labels.
      let j = count++;
      while (j > 0) {
        const o = order[j - 1]!;
        if (ready[o]! < ready[l]! || (ready[o] === ready[l] && late[o]! <= late[l]!)) break;
        order[j] = o;
        j--;
      }
      order[j] = l;
    }
    let size = to;
    let lastLate = Infinity;
    let kept = 0;
    for (let j = 0; j < count; j++) {
      const l = order[j]!;
      if (!(late[l]! < lastLate)) continue;
      if (kept === MAX_FRONT - 1 && j < count - 1) {
        // Keep the least late label (the last one kept in this order) in the final slot.
        let least = l;
        for (let k = j + 1; k < count; k++) if (late[order[k]!]! < late[least]!) least = order[k]!;
        return this.pushLabel(size, ready[least]!, late[least]!, this.lblParent[least]!, this.lblWin[least]!);
      }
      lastLate = late[l]!;
      size = this.pushLabel(size, ready[l]!, lastLate, this.lblParent[l]!, this.lblWin[l]!);
      kept++;
    }
    return size;
  }
}

function grown<T extends Float64Array | Int32Array>(array: T, capacity: number): T {
  const next = new (array.constructor as new (n: number) => T)(capacity);
  next.set(array);
  return next;
}
