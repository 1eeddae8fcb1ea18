/**
 * The exact route evaluator: every rule of the route model (decisions.md) lives here and
 * only here. `RouteEvaluator.evaluate` is the allocation-free version the search calls in
 * its hot loops; `scheduleRoute` replays the same rules to produce the visit-by-visit
 * `RouteSchedule` the output layer prints.
 *
 * Rules, in the order they apply along a route:
 * - Departure: `earliestStart` (moved to a break's end when it falls inside the break).
 *   A flexible vehicle then departs as late as possible without making the route end later,
 *   making any stop late (or later than its window allows), or breaking a rule. With breaks
 *   that latest departure comes from a backward pass (see `latestDepartureWithBreaks`).
 * - Travel time from the vehicle's profile matrix; a leg that overlaps a break is paused for
 *   the break's length, and a leg that would begin inside a break begins at its end.
 * - Service: among the stop's windows, the first one in which the service can start (not
 *   before arrival, not split by a break) and FINISH inside; if none, the least late one
 *   within `maxLateness`. That greedy choice is exact except for a stop that has several
 *   windows AND may be late (a less late window can finish later and cost the route its
 *   feasibility): a route with such a stop chooses all its windows together
 *   (`chooseWindows`): feasible first, then least lateness + overtime, then earliest end.
 *   Service of an order directly after an order at the same location takes
 *   min(duration, squashDuration).
 * - End: arrival at the end location, or the last service's finish for an open route; past
 *   `shiftEnd` it is overtime, at most `maxOvertime`.
 * - Capacity per dimension; above it only with `allowOverload` (counted as overload).
 */
import type { Problem } from '../model/problem.js';
import type { BreakVisit, RouteSchedule, StopVisit, Visit } from './types.js';
import { instanceOf, type SolverInstance } from './instance.js';

/** Relative slack for comparing float loads against capacities. */
const LOAD_EPS = 1e-9;

/**
 * Most Pareto labels (ready time, lateness) kept per position by `chooseWindows`. Fronts stay
 * tiny in practice (a label per window of the few multi-window stops); past this the earliest
 * labels and the least late one are kept, so the cap can only cost optimality, never validity.
 */
const MAX_FRONT = 64;

export function loadExceeds(load: number, cap: number): boolean {
  return load > cap + LOAD_EPS * Math.max(1, Math.abs(cap));
}

/**
 * Forward state of a route before each position, from the pass that departs at the
 * earliest departure. Lets an insertion be evaluated from its position onward.
 */
export class RouteCache {
  capacity = 0;
  ready: Float64Array = new Float64Array(0);
  wait: Float64Array = new Float64Array(0);
  minSlack: Float64Array = new Float64Array(0);
  late: Float64Array = new Float64Array(0);
  dist: Float64Array = new Float64Array(0);
  drive: Float64Array = new Float64Array(0);
  service: Float64Array = new Float64Array(0);
  prevLoc: Int32Array = new Int32Array(0);
  prevStopLoc: Int32Array = new Int32Array(0);

  ensure(size: number): void {
    if (size <= this.capacity) return;
    const capacity = Math.max(size, this.capacity * 2, 8);
    this.ready = grow(this.ready, capacity);
    this.wait = grow(this.wait, capacity);
    this.minSlack = grow(this.minSlack, capacity);
    this.late = grow(this.late, capacity);
    this.dist = grow(this.dist, capacity);
    this.drive = grow(this.drive, capacity);
    this.service = grow(this.service, capacity);
    this.prevLoc = growInt(this.prevLoc, capacity);
    this.prevStopLoc = growInt(this.prevStopLoc, capacity);
    this.capacity = capacity;
  }

  copyFrom(other: RouteCache, size: number): void {
    this.ensure(size);
    this.ready.set(other.ready.subarray(0, size));
    this.wait.set(other.wait.subarray(0, size));
    this.minSlack.set(other.minSlack.subarray(0, size));
    this.late.set(other.late.subarray(0, size));
    this.dist.set(other.dist.subarray(0, size));
    this.drive.set(other.drive.subarray(0, size));
    this.service.set(other.service.subarray(0, size));
    this.prevLoc.set(other.prevLoc.subarray(0, size));
    this.prevStopLoc.set(other.prevStopLoc.subarray(0, size));
  }
}

function grow(array: Float64Array, capacity: number): Float64Array {
  const next = new Float64Array(capacity);
  next.set(array);
  return next;
}

function growInt(array: Int32Array, capacity: number): Int32Array {
  const next = new Int32Array(capacity);
  next.set(array);
  return next;
}

export class RouteEvaluator {
  readonly inst: SolverInstance;
  /** Results of the last `evaluate` (valid when it returned true). */
  start = 0;
  end = 0;
  distance = 0;
  driving = 0;
  service = 0;
  lateness = 0;
  overtime = 0;
  overload = 0;
  working = 0;
  /** Scratch sequence for evaluating a route with one change. */
  buf: Int32Array;

  // Outputs of `run`.
  private rReady = 0;
  private rEnd = 0;
  private rWait = 0;
  private rMinSlack = 0;
  private rLate = 0;
  private rDist = 0;
  private rDrive = 0;
  private rService = 0;
  /** Outputs of `chooseStart` / `serviceStart`. */
  cStart = 0;
  cLate = 0;
  cWindowEnd = 0;
  cWin = 0;

  /** Per stop: several windows and a lateness allowance, so the greedy window choice is not exact. */
  private readonly multiLate: Uint8Array;
  private readonly anyMultiLate: boolean;
  /** When set, position i of the route is served in window `forcedWin[i]` (from `chooseWindows`). */
  private forced = false;
  private readonly forcedWin: Int32Array;
  /** Window and service start per position, written by every `run` from position `from` on. */
  private readonly posWin: Int32Array;
  private readonly posStart: Float64Array;
  /** Label pool of `chooseWindows`. */
  private lblReady: Float64Array = new Float64Array(64);
  private lblLate: Float64Array = new Float64Array(64);
  private lblParent: Int32Array = new Int32Array(64);
  private lblWin: Int32Array = new Int32Array(64);
  private lblOrder: Int32Array = new Int32Array(64);

  constructor(inst: SolverInstance) {
    this.inst = inst;
    this.buf = new Int32Array(inst.nStops + 2);
    this.forcedWin = new Int32Array(inst.nStops + 2);
    this.posWin = new Int32Array(inst.nStops + 2);
    this.posStart = new Float64Array(inst.nStops + 2);
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

  /**
   * Evaluates vehicle `v` serving `seq[0..len)` whose total load is `load` (per dimension).
   * With `prefix`, positions before `from` are taken from that cache instead of recomputed.
   * With `record`, the forward states are stored for later prefix reuse.
   * Returns false when any hard rule is broken.
   */
  evaluate(
    v: number,
    seq: Int32Array,
    len: number,
    load: Float64Array,
    loadOffset = 0,
    from = 0,
    prefix: RouteCache | null = null,
    record: RouteCache | null = null,
  ): boolean {
    const inst = this.inst;
    this.forced = false;
    if (!this.checkLoad(v, load, loadOffset)) return false;
    if (len === 0) {
      this.start = this.end = inst.vDepart0[v]!;
      this.distance = this.driving = this.service = this.lateness = this.overtime = this.working = 0;
      if (record) record.ensure(1);
      return true;
    }
    if (record) record.ensure(len + 1);
    const depart0 = inst.vDepart0[v]!;
    const hasBreaks = inst.brOffset[v + 1]! > inst.brOffset[v]!;
    const flexible = inst.vFlexible[v] === 1;
    if (this.anyMultiLate && this.containsMultiLate(seq, len)) {
      if (!this.chooseWindows(v, seq, len, depart0)) return false;
      this.forced = true;
      from = 0;
    }
    // The backward pass of a flexible start with breaks reads every position of the run.
    if (flexible && hasBreaks) from = 0;
    if (!this.run(v, seq, len, from, prefix, record, depart0)) return false;
    const end0 = this.rEnd;
    if (!this.withinShift(v, end0)) return false;
    this.distance = this.rDist;
    this.driving = this.rDrive;
    this.service = this.rService;
    this.lateness = this.rLate;
    this.end = end0;
    this.start = depart0;
    if (flexible) {
      if (hasBreaks) {
        this.start = this.latestDepartureWithBreaks(v, seq, len, depart0);
      } else {
        // Delaying departure by δ is absorbed by waiting: it must not exceed the waiting before
        // the end, nor push any service past the end of its window.
        const delay = Math.min(this.rWait, this.rMinSlack);
        if (delay > 0) this.start = depart0 + delay;
      }
    }
    this.working = this.end - this.start;
    return true;
  }

  /**
   * Evaluates route `seq[0..len)` of vehicle `v` with stop `u` inserted before position `p`,
   * reusing the route's forward cache; `load` must already include `u`.
   */
  evaluateInsertion(v: number, seq: Int32Array, len: number, cache: RouteCache, p: number, u: number, load: Float64Array): boolean {
    const buf = this.buf;
    const inst = this.inst;
    const needsWhole = this.anyMultiLate || (inst.vFlexible[v] === 1 && inst.brOffset[v + 1]! > inst.brOffset[v]!);
    if (needsWhole) buf.set(seq.subarray(0, p), 0);
    buf[p] = u;
    buf.set(seq.subarray(p, len), p + 1);
    return this.evaluate(v, buf, len + 1, load, 0, p, cache, null);
  }

  private checkLoad(v: number, load: Float64Array, offset: number): boolean {
    const inst = this.inst;
    this.overload = 0;
    const dims = inst.dims;
    for (let k = 0; k < dims; k++) {
      const cap = inst.vCap[v * dims + k]!;
      const amount = load[offset + k]!;
      if (loadExceeds(amount, cap)) {
        if (!inst.allowOverload) return false;
        this.overload += amount - cap;
      }
    }
    return true;
  }

  private withinShift(v: number, end: number): boolean {
    const over = end - this.inst.vShiftEnd[v]!;
    if (over > 0) {
      if (over > this.inst.vMaxOvertime[v]!) return false;
      this.overtime = over;
    } else {
      this.overtime = 0;
    }
    return true;
  }

  /**
   * The latest departure of a flexible vehicle with breaks that keeps the end and the lateness
   * of the route departing at `depart0` (the last `run`, over the whole route). Waiting alone
   * does not bound it: a later departure can also drop a break pause from a leg. So the bound
   * is propagated backward instead, position by position, exactly: the latest ready time after
   * the last service that still reaches the end by `end0`, then for each stop the latest
   * service start that keeps its window and lateness (moved before any break it would be split
   * by) and the latest ready time before its leg whose break-paused arrival is not after that.
   * The schedule is monotone in the departure, so this latest ready time at the start is the
   * answer; one forward run confirms it and leaves the run state describing it.
   */
  private latestDepartureWithBreaks(v: number, seq: Int32Array, len: number, depart0: number): number {
    const inst = this.inst;
    const N = inst.nLoc;
    const dur = inst.vDur[v]!;
    const end0 = this.rEnd;
    const late0 = this.rLate;
    const endLoc = inst.vEndLoc[v]!;
    const lastLoc = inst.stopLoc[seq[len - 1]!]!;
    let latest = endLoc >= 0 ? this.latestLegStart(v, end0, dur[lastLoc * N + endLoc]!) : end0;
    for (let i = len - 1; i >= 0; i--) {
      const s = seq[i]!;
      const loc = inst.stopLoc[s]!;
      const prevStopLoc = i > 0 ? inst.stopLoc[seq[i - 1]!]! : -1;
      const prevLoc = i > 0 ? prevStopLoc : inst.vStartLoc[v]!;
      const d = this.serviceDuration(s, prevStopLoc);
      const windowEnd = inst.winEnd[this.posWin[i]!]!;
      const start0 = this.posStart[i]!;
      // A late stop keeps its lateness only by keeping its start; an on-time one may start
      // until its window end allows.
      const keep = start0 + d - windowEnd > 0 ? start0 : windowEnd - d;
      const startBound = this.latestServiceStart(v, Math.min(latest - d, keep), d);
      latest = this.latestLegStart(v, startBound, dur[prevLoc * N + loc]!);
    }
    if (!(latest > depart0)) return depart0;
    const departure = this.departureAt(v, latest);
    if (this.run(v, seq, len, 0, null, null, departure) && this.rEnd <= end0 && this.rLate <= late0) {
      this.end = this.rEnd;
      this.lateness = this.rLate;
      this.withinShift(v, this.rEnd);
      return departure;
    }
    // Only reachable through float round-off or a supremum that is not attained (a departure
    // exactly at a break start waits for its end): the earliest departure is always valid.
    return depart0;
  }

  /** Latest time a leg of `leg` (paused by the vehicle's breaks) can begin and arrive by `arrival`. */
  latestLegStart(v: number, arrival: number, leg: number): number {
    if (leg === 0) return arrival;
    const inst = this.inst;
    let t = arrival;
    let left = leg;
    for (let b = inst.brOffset[v + 1]! - 1, b0 = inst.brOffset[v]!; b >= b0; b--) {
      const bs = inst.brStart[b]!;
      const be = inst.brEnd[b]!;
      if (bs >= t) continue;
      // A leg never ends inside (bs, be]: it ends by bs or resumes at be and ends after it.
      if (t <= be) {
        t = bs;
        continue;
      }
      if (t - left >= be) return t - left;
      left -= t - be;
      t = bs;
    }
    return t - left;
  }

  /** Latest start not after `time` at which a service of `duration` is not split by a break. */
  latestServiceStart(v: number, time: number, duration: number): number {
    const inst = this.inst;
    let t = time;
    for (let b = inst.brOffset[v + 1]! - 1, b0 = inst.brOffset[v]!; b >= b0; b--) {
      const bs = inst.brStart[b]!;
      if (t < inst.brEnd[b]! && t + duration > bs) t = bs - duration;
    }
    return t;
  }

  /** A departure inside a break waits for its end. */
  departureAt(v: number, time: number): number {
    const inst = this.inst;
    let t = time;
    for (let b = inst.brOffset[v]!, e = inst.brOffset[v + 1]!; b < e; b++) {
      if (t >= inst.brStart[b]! && t < inst.brEnd[b]!) t = inst.brEnd[b]!;
    }
    return t;
  }

  /** Arrival after driving `duration` from `time`, paused by the vehicle's breaks. */
  drive(v: number, time: number, duration: number): number {
    if (duration === 0) return time;
    const inst = this.inst;
    let t = time;
    let left = duration;
    for (let b = inst.brOffset[v]!, e = inst.brOffset[v + 1]!; b < e; b++) {
      const bs = inst.brStart[b]!;
      const be = inst.brEnd[b]!;
      if (be <= t) continue;
      if (t >= bs) {
        t = be;
        continue;
      }
      if (t + left <= bs) return t + left;
      left -= bs - t;
      t = be;
    }
    return t + left;
  }

  /** Earliest start ≥ `time` at which a service of `duration` is not split by a break. */
  pastBreaks(v: number, time: number, duration: number): number {
    const inst = this.inst;
    let t = time;
    for (let b = inst.brOffset[v]!, e = inst.brOffset[v + 1]!; b < e; b++) {
      if (t < inst.brEnd[b]! && t + duration > inst.brStart[b]!) t = inst.brEnd[b]!;
    }
    return t;
  }

  /**
   * Picks the service start of stop `s` reached at `arrival`: the first window where the
   * service finishes inside, else the least late one within the stop's lateness allowance.
   * Sets cStart / cLate / cWindowEnd; false when no window works.
   */
  chooseStart(v: number, s: number, arrival: number, duration: number): boolean {
    const inst = this.inst;
    const maxLate = inst.stopMaxLate[s]!;
    let found = false;
    let bestLate = Infinity;
    for (let w = inst.winOffset[s]!, e = inst.winOffset[s + 1]!; w < e; w++) {
      const windowEnd = inst.winEnd[w]!;
      if (arrival + duration - windowEnd > maxLate) continue;
      const ws = inst.winStart[w]!;
      const start = this.pastBreaks(v, arrival > ws ? arrival : ws, duration);
      const late = start + duration - windowEnd;
      if (late <= 0) {
        this.cStart = start;
        this.cLate = 0;
        this.cWindowEnd = windowEnd;
        this.cWin = w;
        return true;
      }
      if (late <= maxLate && late < bestLate) {
        bestLate = late;
        found = true;
        this.cStart = start;
        this.cLate = late;
        this.cWindowEnd = windowEnd;
        this.cWin = w;
      }
    }
    return found;
  }

  /**
   * The service start of stop `s` at position `i` of the route last evaluated, reached at
   * `arrival`: in the window chosen for the whole route when the last `evaluate` chose them
   * together, else by `chooseStart`. Sets the c* fields; false when no window works.
   */
  serviceStart(v: number, s: number, i: number, arrival: number, duration: number): boolean {
    if (!this.forced) return this.chooseStart(v, s, arrival, duration);
    const inst = this.inst;
    const w = this.forcedWin[i]!;
    const windowEnd = inst.winEnd[w]!;
    const ws = inst.winStart[w]!;
    const start = this.pastBreaks(v, arrival > ws ? arrival : ws, duration);
    let late = start + duration - windowEnd;
    if (late <= 0) late = 0;
    else if (late > inst.stopMaxLate[s]!) return false;
    this.cStart = start;
    this.cLate = late;
    this.cWindowEnd = windowEnd;
    this.cWin = w;
    return true;
  }

  private containsMultiLate(seq: Int32Array, len: number): boolean {
    const multiLate = this.multiLate;
    for (let i = 0; i < len; i++) if (multiLate[seq[i]!] === 1) return true;
    return false;
  }

  /**
   * Chooses the windows of the whole route departing at `depart` and stores them in
   * `forcedWin`; false when no choice keeps the route feasible. A late window can finish
   * earlier than an on-time or less late one, which later stops and the shift end may need, so
   * the choice is a forward pass over Pareto labels (ready time, lateness so far): every
   * window of a stop with several windows and a lateness allowance, the greedy (dominant)
   * choice at the others. At the end: within the shift and overtime, then least lateness +
   * overtime (objective level 2), then the earliest end.
   */
  private chooseWindows(v: number, seq: Int32Array, len: number, depart: number): boolean {
    const inst = this.inst;
    const N = inst.nLoc;
    const dur = inst.vDur[v]!;
    const hasBreaks = inst.brOffset[v + 1]! > inst.brOffset[v]!;
    this.lblReady[0] = depart;
    this.lblLate[0] = 0;
    this.lblParent[0] = -1;
    this.lblWin[0] = -1;
    let size = 1;
    let frontStart = 0;
    let frontEnd = 1;
    let prevLoc = inst.vStartLoc[v]!;
    let prevStopLoc = -1;
    for (let i = 0; i < len; i++) {
      const s = seq[i]!;
      const loc = inst.stopLoc[s]!;
      const leg = dur[prevLoc * N + loc]!;
      const d = this.serviceDuration(s, prevStopLoc);
      const maxLate = inst.stopMaxLate[s]!;
      const childStart = size;
      for (let l = frontStart; l < frontEnd; l++) {
        const ready = this.lblReady[l]!;
        const late = this.lblLate[l]!;
        const arrival = hasBreaks ? this.drive(v, ready, leg) : ready + leg;
        if (this.multiLate[s] === 1) {
          for (let w = inst.winOffset[s]!, e = inst.winOffset[s + 1]!; w < e; w++) {
            const windowEnd = inst.winEnd[w]!;
            if (arrival + d - windowEnd > maxLate) continue;
            const ws = inst.winStart[w]!;
            const start = this.pastBreaks(v, arrival > ws ? arrival : ws, d);
            let lt = start + d - windowEnd;
            if (lt <= 0) lt = 0;
            else if (lt > maxLate) continue;
            size = this.pushLabel(size, start + d, late + lt, l, w);
          }
        } else if (this.chooseStart(v, s, arrival, d)) {
          size = this.pushLabel(size, this.cStart + d, late + this.cLate, l, this.cWin);
        }
      }
      if (size === childStart) return false;
      frontStart = size;
      size = this.keepParetoFront(childStart, size);
      frontEnd = size;
      prevLoc = loc;
      prevStopLoc = loc;
    }
    const endLoc = inst.vEndLoc[v]!;
    const endLeg = endLoc >= 0 ? dur[prevLoc * N + endLoc]! : 0;
    const shiftEnd = inst.vShiftEnd[v]!;
    const maxOvertime = inst.vMaxOvertime[v]!;
    let best = -1;
    let bestViolation = Infinity;
    let bestEnd = Infinity;
    for (let l = frontStart; l < frontEnd; l++) {
      const ready = this.lblReady[l]!;
      const end = endLoc < 0 ? ready : hasBreaks ? this.drive(v, ready, endLeg) : ready + endLeg;
      const over = end - shiftEnd;
      if (over > maxOvertime) continue;
      const violation = this.lblLate[l]! + (over > 0 ? over : 0);
      if (violation < bestViolation || (violation === bestViolation && end < bestEnd)) {
        best = l;
        bestViolation = violation;
        bestEnd = end;
      }
    }
    if (best < 0) return false;
    for (let i = len - 1, l = best; i >= 0; i--, l = this.lblParent[l]!) this.forcedWin[i] = this.lblWin[l]!;
    return true;
  }

  private pushLabel(size: number, ready: number, late: number, parent: number, win: number): number {
    if (size === this.lblReady.length) {
      const capacity = size * 2;
      this.lblReady = grow(this.lblReady, capacity);
      this.lblLate = grow(this.lblLate, capacity);
      this.lblParent = growInt(this.lblParent, capacity);
      this.lblWin = growInt(this.lblWin, capacity);
      this.lblOrder = growInt(this.lblOrder, capacity);
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
        size = this.pushLabel(size, ready[least]!, late[least]!, this.lblParent[least]!, this.lblWin[least]!);
        return size;
      }
      lastLate = late[l]!;
      size = this.pushLabel(size, ready[l]!, lastLate, this.lblParent[l]!, this.lblWin[l]!);
      kept++;
    }
    return size;
  }

  /** Effective service duration of `s` given the location of the stop served just before (-1: none). */
  serviceDuration(s: number, prevStopLoc: number): number {
    const inst = this.inst;
    const d = inst.stopDur[s]!;
    if (inst.squash >= 0 && prevStopLoc === inst.stopLoc[s] && d > inst.squash) return inst.squash;
    return d;
  }

  /** The forward pass. Sets the r* fields; false when a window or lateness bound is broken. */
  private run(
    v: number,
    seq: Int32Array,
    len: number,
    from: number,
    prefix: RouteCache | null,
    record: RouteCache | null,
    depart: number,
  ): boolean {
    const inst = this.inst;
    const N = inst.nLoc;
    const dur = inst.vDur[v]!;
    const dist = inst.dist;
    const stopLoc = inst.stopLoc;
    const winOffset = inst.winOffset;
    const hasBreaks = inst.brOffset[v + 1]! > inst.brOffset[v]!;
    const squash = inst.squash;
    const posWin = this.posWin;
    const posStart = this.posStart;
    let ready: number, wait: number, minSlack: number, late: number, dsum: number, drv: number, svc: number;
    let prevLoc: number, prevStopLoc: number;
    if (from > 0 && prefix) {
      ready = prefix.ready[from]!;
      wait = prefix.wait[from]!;
      minSlack = prefix.minSlack[from]!;
      late = prefix.late[from]!;
      dsum = prefix.dist[from]!;
      drv = prefix.drive[from]!;
      svc = prefix.service[from]!;
      prevLoc = prefix.prevLoc[from]!;
      prevStopLoc = prefix.prevStopLoc[from]!;
    } else {
      from = 0;
      ready = depart;
      wait = 0;
      minSlack = Infinity;
      late = dsum = drv = svc = 0;
      prevLoc = inst.vStartLoc[v]!;
      prevStopLoc = -1;
    }
    for (let i = from; i < len; i++) {
      if (record) {
        record.ready[i] = ready;
        record.wait[i] = wait;
        record.minSlack[i] = minSlack;
        record.late[i] = late;
        record.dist[i] = dsum;
        record.drive[i] = drv;
        record.service[i] = svc;
        record.prevLoc[i] = prevLoc;
        record.prevStopLoc[i] = prevStopLoc;
      }
      const s = seq[i]!;
      const loc = stopLoc[s]!;
      const leg = dur[prevLoc * N + loc]!;
      const arrival = hasBreaks ? this.drive(v, ready, leg) : ready + leg;
      let d = inst.stopDur[s]!;
      if (squash >= 0 && prevStopLoc === loc && d > squash) d = squash;
      let start: number;
      let lt: number;
      let windowEnd: number;
      const w0 = winOffset[s]!;
      if (!hasBreaks && winOffset[s + 1]! - w0 === 1) {
        const ws = inst.winStart[w0]!;
        windowEnd = inst.winEnd[w0]!;
        start = arrival > ws ? arrival : ws;
        lt = start + d - windowEnd;
        if (lt <= 0) lt = 0;
        else if (lt > inst.stopMaxLate[s]!) return false;
        posWin[i] = w0;
      } else {
        if (!this.serviceStart(v, s, i, arrival, d)) return false;
        start = this.cStart;
        lt = this.cLate;
        windowEnd = this.cWindowEnd;
        posWin[i] = this.cWin;
      }
      posStart[i] = start;
      wait += start - arrival;
      const slack = lt > 0 ? 0 : windowEnd - d - start;
      if (wait + slack < minSlack) minSlack = wait + slack;
      late += lt;
      dsum += dist[prevLoc * N + loc]!;
      drv += leg;
      svc += d;
      ready = start + d;
      prevLoc = loc;
      prevStopLoc = loc;
    }
    if (record) {
      record.ready[len] = ready;
      record.wait[len] = wait;
      record.minSlack[len] = minSlack;
      record.late[len] = late;
      record.dist[len] = dsum;
      record.drive[len] = drv;
      record.service[len] = svc;
      record.prevLoc[len] = prevLoc;
      record.prevStopLoc[len] = prevStopLoc;
    }
    const endLoc = inst.vEndLoc[v]!;
    if (endLoc >= 0) {
      const leg = dur[prevLoc * N + endLoc]!;
      this.rEnd = hasBreaks ? this.drive(v, ready, leg) : ready + leg;
      dsum += dist[prevLoc * N + endLoc]!;
      drv += leg;
    } else {
      this.rEnd = ready;
    }
    this.rReady = ready;
    this.rWait = wait;
    this.rMinSlack = minSlack;
    this.rLate = late;
    this.rDist = dsum;
    this.rDrive = drv;
    this.rService = svc;
    return true;
  }

  /** Ready time after the last service of the last `run` (for tests and diagnostics). */
  get lastReady(): number {
    return this.rReady;
  }
}

const evaluators = new WeakMap<SolverInstance, RouteEvaluator>();

function evaluatorOf(inst: SolverInstance): RouteEvaluator {
  let evaluator = evaluators.get(inst);
  if (!evaluator) {
    evaluator = new RouteEvaluator(inst);
    evaluators.set(inst, evaluator);
  }
  return evaluator;
}

/** Total load per dimension of a stop sequence. */
export function sequenceLoad(inst: SolverInstance, stops: ArrayLike<number>, len = stops.length): Float64Array {
  const dims = inst.dims;
  const load = new Float64Array(dims);
  for (let i = 0; i < len; i++) {
    const s = stops[i]!;
    for (let k = 0; k < dims; k++) load[k]! += inst.stopLoad[s * dims + k]!;
  }
  return load;
}

/**
 * The full schedule of `vehicle` serving `stops` in this order, or null when the route breaks
 * a hard rule (incompatible or location-less stop, repeated stop, window, lateness bound,
 * shift, capacity).
 */
export function scheduleRoute(problem: Problem, vehicle: number, stops: ArrayLike<number>): RouteSchedule | null {
  const inst = instanceOf(problem);
  if (vehicle < 0 || vehicle >= inst.nVehicles) return null;
  const seq = Int32Array.from(stops);
  const seen = new Set<number>();
  for (const s of seq) {
    if (s < 0 || s >= inst.nStops || seen.has(s)) return null;
    if (inst.stopLoc[s]! < 0 || inst.compatible[vehicle * inst.nStops + s] !== 1) return null;
    seen.add(s);
  }
  const evaluator = evaluatorOf(inst);
  const load = sequenceLoad(inst, seq);
  if (!evaluator.evaluate(vehicle, seq, seq.length, load)) return null;
  return replaySchedule(inst, evaluator, vehicle, seq, load);
}

/** Re-runs the rules from the evaluator's chosen departure, recording every visit. */
function replaySchedule(inst: SolverInstance, evaluator: RouteEvaluator, v: number, seq: Int32Array, load: Float64Array): RouteSchedule {
  const N = inst.nLoc;
  const dims = inst.dims;
  const dur = inst.vDur[v]!;
  const start = evaluator.start;
  const stopVisits: StopVisit[] = [];
  const running = new Float64Array(dims);
  let ready = start;
  let prevLoc = inst.vStartLoc[v]!;
  let prevStopLoc = -1;
  let lateness = 0;
  for (let i = 0; i < seq.length; i++) {
    const s = seq[i]!;
    const loc = inst.stopLoc[s]!;
    const leg = dur[prevLoc * N + loc]!;
    const arrival = evaluator.drive(v, ready, leg);
    const d = evaluator.serviceDuration(s, prevStopLoc);
    if (!evaluator.serviceStart(v, s, i, arrival, d)) throw new Error('route replay disagrees with its evaluation');
    const serviceStart = evaluator.cStart;
    const late = evaluator.cLate;
    for (let k = 0; k < dims; k++) running[k]! += inst.stopLoad[s * dims + k]!;
    stopVisits.push({
      kind: 'stop',
      stop: s,
      travel: leg,
      distance: inst.dist[prevLoc * N + loc]!,
      arrival,
      start: serviceStart,
      finish: serviceStart + d,
      late,
      loadAfter: Float64Array.from(running),
    });
    lateness += late;
    ready = serviceStart + d;
    prevLoc = loc;
    prevStopLoc = loc;
  }
  const endLoc = inst.vEndLoc[v]!;
  const endTravel = endLoc >= 0 ? dur[prevLoc * N + endLoc]! : 0;
  const endDistance = endLoc >= 0 ? inst.dist[prevLoc * N + endLoc]! : 0;
  const end = endLoc >= 0 ? evaluator.drive(v, ready, endTravel) : ready;
  if (end !== evaluator.end || lateness !== evaluator.lateness) {
    throw new Error('route replay disagrees with its evaluation');
  }
  const visits: Visit[] = [];
  let breakTime = 0;
  let next = 0;
  for (let b = inst.brOffset[v]!, e = inst.brOffset[v + 1]!; b < e; b++) {
    const bs = inst.brStart[b]!;
    const be = inst.brEnd[b]!;
    // Breaks never straddle the route's start or end, so a break is either inside or ignored.
    if (bs < start || be > end) continue;
    while (next < stopVisits.length && stopVisits[next]!.start <= bs) visits.push(stopVisits[next++]!);
    const breakVisit: BreakVisit = { kind: 'break', start: bs, finish: be };
    visits.push(breakVisit);
    breakTime += be - bs;
  }
  while (next < stopVisits.length) visits.push(stopVisits[next++]!);
  const working = end - start;
  return {
    vehicle: v,
    start,
    end,
    endTravel,
    endDistance,
    visits,
    distance: evaluator.distance,
    driving: evaluator.driving,
    service: evaluator.service,
    waiting: working - evaluator.driving - evaluator.service - breakTime,
    breakTime,
    working,
    overtime: evaluator.overtime,
    lateness,
    overload: evaluator.overload,
    load: Float64Array.from(load),
  };
}
