/**
 * The exact route evaluator: every rule of the route model (decisions.md) applies through
 * here. `RouteEvaluator.evaluate` is the allocation-free check the search calls in its hot
 * loops; schedule.ts replays the same rules visit by visit for the output.
 *
 * Rules, in the order they apply along a route:
 * - Departure: `earliestStart` (moved to a break's end when it falls inside the break). A
 *   flexible vehicle then departs as late as possible without making the route end later,
 *   making any stop late (or later than its window allows), or breaking a rule
 *   (flexible-start.ts).
 * - Travel time from the vehicle's profile matrix, paused by breaks (breaks.ts).
 * - Service: duration, squashing and the window choice (windows.ts), the windows of a whole
 *   route chosen together when the greedy choice is not exact (route-windows.ts).
 * - End: arrival at the end location, or the last service's finish for an open route; past
 *   `shiftEnd` it is overtime, at most `maxOvertime`.
 * - Capacity per dimension; above it only with `allowOverload` (capacity.ts).
 * - Locks: the stops locked with a sequence keep its order (sequence.ts), checked before the pass.
 *   A stop locked to a driver is not `compatible` with any other vehicle, which the callers check.
 */
import type { SolverInstance } from '../instance.js';
import { departureAt, drive, hasBreaks } from './breaks.js';
import {
  DIST,
  DRIVE,
  LATE,
  MIN_SLACK,
  newState,
  PREV_LOC,
  READY,
  SERVICE,
  STATE_SIZE,
  startState,
  storeState,
  WAIT,
  type RouteCache,
} from './cache.js';
import { overloadOf } from './capacity.js';
import { latestDepartureBound } from './flexible-start.js';
import type { Pass, PassTrace } from './pass.js';
import { RouteWindows } from './route-windows.js';
import { keepsSequence, keepsSequenceWithInsertion } from './sequence.js';
import { chooseStart, serviceDuration, ServiceChoice } from './windows.js';

/** The figures of an evaluated route. One object per evaluator, overwritten by each evaluation. */
export class RouteResult {
  start = 0;
  end = 0;
  distance = 0;
  driving = 0;
  service = 0;
  lateness = 0;
  overtime = 0;
  overload = 0;
  working = 0;
}

export class RouteEvaluator {
  readonly inst: SolverInstance;
  /** Scratch sequence for evaluating a route with one change. */
  private readonly buf: Int32Array;
  private readonly result = new RouteResult();
  private readonly pass: Pass = { v: 0, seq: new Int32Array(0), len: 0, from: 0, prefix: null, record: null };
  /** The forward state of the running pass; after it, the state after the last stop plus the end leg. */
  private readonly state = newState();
  /** Where the running pass read its first state: `state`, or a prefix cache's states at `passSourceBase`. */
  private passSource: Float64Array = this.state;
  private passSourceBase = 0;
  /** End of the last forward pass. */
  private passEnd = 0;
  private readonly trace: PassTrace;
  private readonly choice = new ServiceChoice();
  private readonly windows: RouteWindows;
  /** When set, position i of the route is served in window `forcedWin[i]` (from `RouteWindows`). */
  private forced = false;
  private readonly forcedWin: Int32Array;
  /** Stops walked by the forward passes so far: part of the search's measure of work (search/work.ts). */
  walked = 0;

  constructor(inst: SolverInstance) {
    this.inst = inst;
    this.buf = new Int32Array(inst.nStops + 2);
    this.forcedWin = new Int32Array(inst.nStops + 2);
    this.trace = { win: new Int32Array(inst.nStops + 2), start: new Float64Array(inst.nStops + 2) };
    this.windows = new RouteWindows(inst);
  }

  /**
   * Evaluates vehicle `v` serving `seq[0..len)` whose total load is `load[loadOffset..)` (per
   * dimension); null when any hard rule is broken. With `record`, the forward states are stored
   * for later prefix reuse by `evaluateInsertion`.
   */
  evaluate(
    v: number,
    seq: Int32Array,
    len: number,
    load: Float64Array,
    loadOffset = 0,
    record: RouteCache | null = null,
  ): RouteResult | null {
    if (this.inst.sequenced && !keepsSequence(this.inst.stopSeq, seq, len)) return null;
    const pass = this.pass;
    pass.v = v;
    pass.seq = seq;
    pass.len = len;
    pass.from = 0;
    pass.prefix = null;
    pass.record = record;
    return this.evaluatePass(load, loadOffset);
  }

  /**
   * Evaluates route `seq[0..len)` of vehicle `v` with stop `u` inserted before position `p`,
   * reusing the route's forward cache; `load` must already include `u`. The route is one this
   * evaluator accepted (its cache says so), so it keeps every rule, the sequence order included.
   */
  evaluateInsertion(
    v: number,
    seq: Int32Array,
    len: number,
    cache: RouteCache,
    p: number,
    u: number,
    load: Float64Array,
  ): RouteResult | null {
    if (this.inst.sequenced && !keepsSequenceWithInsertion(this.inst.stopSeq, seq, len, p, u)) return null;
    const buf = this.buf;
    const needsWhole = this.windows.anyNeeded || (this.inst.vFlexible[v] === 1 && hasBreaks(this.inst, v));
    if (needsWhole) buf.set(seq.subarray(0, p), 0);
    buf[p] = u;
    buf.set(seq.subarray(p, len), p + 1);
    const pass = this.pass;
    pass.v = v;
    pass.seq = buf;
    pass.len = len + 1;
    pass.from = p;
    pass.prefix = cache;
    pass.record = null;
    return this.evaluatePass(load, 0);
  }

  /**
   * The service of stop `s` at position `i` of the route last evaluated, reached at `arrival`:
   * in the window chosen for the whole route when the last evaluation chose them together,
   * else by the greedy choice. Null when no window works.
   */
  serviceAt(v: number, s: number, i: number, arrival: number, duration: number): ServiceChoice | null {
    const inst = this.inst;
    if (!this.forced) return chooseStart(inst, v, s, arrival, duration, this.choice);
    return this.choice.inWindow(inst, v, this.forcedWin[i]!, arrival, duration, inst.stopMaxLate[s]!);
  }

  private evaluatePass(load: Float64Array, loadOffset: number): RouteResult | null {
    const inst = this.inst;
    const pass = this.pass;
    const { v, seq, len, record } = pass;
    const r = this.result;
    this.forced = false;
    r.overload = overloadOf(inst, v, load, loadOffset);
    if (r.overload < 0) return null;
    if (len === 0) return this.emptyRoute(v);
    if (record) record.ensure(len + 1);
    const depart0 = inst.vDepart0[v]!;
    const breaks = hasBreaks(inst, v);
    const flexible = inst.vFlexible[v] === 1;
    if (this.windows.needed(seq, len)) {
      if (!this.windows.choose(pass, depart0, this.forcedWin)) return null;
      this.forced = true;
      pass.from = 0;
    }
    // The backward pass of a flexible start with breaks reads every position of the run.
    if (flexible && breaks) pass.from = 0;
    if (!this.run(depart0)) return null;
    const st = this.state;
    r.overtime = this.overtime(v, this.passEnd);
    if (r.overtime < 0) return null;
    r.distance = st[DIST]!;
    r.driving = st[DRIVE]!;
    r.service = st[SERVICE]!;
    r.lateness = st[LATE]!;
    r.end = this.passEnd;
    r.start = depart0;
    if (flexible) {
      if (breaks) {
        r.start = this.latestDepartureWithBreaks(depart0);
      } else {
        // Delaying departure by δ is absorbed by waiting: it must not exceed the waiting before
        // the end, nor push any service past the end of its window.
        const delay = Math.min(st[WAIT]!, st[MIN_SLACK]!);
        if (delay > 0) r.start = depart0 + delay;
      }
    }
    r.working = r.end - r.start;
    return r;
  }

  private emptyRoute(v: number): RouteResult {
    const r = this.result;
    r.start = r.end = this.inst.vDepart0[v]!;
    r.distance = r.driving = r.service = r.lateness = r.overtime = r.working = 0;
    if (this.pass.record) this.pass.record.ensure(1);
    return r;
  }

  /** Overtime of a route of vehicle `v` ending at `end`; -1 when beyond `maxOvertime`. */
  private overtime(v: number, end: number): number {
    const over = end - this.inst.vShiftEnd[v]!;
    if (over <= 0) return 0;
    return over > this.inst.vMaxOvertime[v]! ? -1 : over;
  }

  /**
   * The latest departure of a flexible vehicle with breaks that keeps the end and the lateness
   * of the route departing at `depart0` (the last forward pass, over the whole route). One
   * forward pass confirms the backward bound and leaves the result describing it.
   */
  private latestDepartureWithBreaks(depart0: number): number {
    const inst = this.inst;
    const r = this.result;
    const v = this.pass.v;
    const end0 = this.passEnd;
    const late0 = this.state[LATE]!;
    const latest = latestDepartureBound(inst, this.pass, this.trace, end0);
    if (!(latest > depart0)) return depart0;
    const departure = departureAt(inst, v, latest);
    // The recorded states stay those of the earliest departure, which insertions continue from.
    this.pass.record = null;
    if (this.run(departure) && this.passEnd <= end0 && this.state[LATE]! <= late0) {
      r.end = this.passEnd;
      r.lateness = this.state[LATE]!;
      r.overtime = this.overtime(v, this.passEnd);
      return departure;
    }
    // Only reachable through float round-off or a supremum that is not attained (a departure
    // exactly at a break start waits for its end): the earliest departure is always valid.
    return depart0;
  }

  /**
   * The forward pass of `this.pass` departing at `depart` (or continuing from its prefix);
   * leaves the state after the last stop plus the end leg in `state` and the end in
   * `passEnd`. False when a window or lateness bound is broken.
   */
  private run(depart: number): boolean {
    const from = this.startPass(depart);
    this.walked += this.pass.len - from;
    return this.walk(from);
  }

  /**
   * The stops of the forward pass from position `from` on, from the state `startPass` pointed
   * at, into `state`. Kept apart from the pass's setup and end leg so that V8's inlining
   * budget for this loop goes to the calls inside it.
   */
  private walk(from: number): boolean {
    const inst = this.inst;
    const { v, seq, len, record } = this.pass;
    const N = inst.nLoc;
    const dur = inst.vDur[v]!;
    const breaks = hasBreaks(inst, v);
    // Hoisted: the calls in the loop would otherwise make V8 reload them at every stop.
    const { stopLoc, winOffset, winStart, winEnd, stopMaxLate, dist } = inst;
    const { win: traceWin, start: traceStart } = this.trace;
    const recorded = record ? record.states : null;
    // The state in locals while the pass runs (the hottest loop of the solver), read straight
    // from the prefix cache when continuing one.
    const src = this.passSource;
    const b = this.passSourceBase;
    let ready = src[b + READY]!;
    let wait = src[b + WAIT]!;
    let minSlack = src[b + MIN_SLACK]!;
    let late = src[b + LATE]!;
    let dsum = src[b + DIST]!;
    let drv = src[b + DRIVE]!;
    let svc = src[b + SERVICE]!;
    let prevLoc = src[b + PREV_LOC]! | 0;
    for (let i = from; i < len; i++) {
      if (recorded) storeState(recorded, i, ready, wait, minSlack, late, dsum, drv, svc, prevLoc);
      const s = seq[i]!;
      const loc = stopLoc[s]!;
      const leg = dur[prevLoc * N + loc]!;
      const arrival = breaks ? drive(inst, v, ready, leg) : ready + leg;
      // The previous location is a stop's at every position but the first.
      const d = serviceDuration(inst, s, i > 0 ? prevLoc : -1);
      const w0 = winOffset[s]!;
      let start: number, lt: number, windowEnd: number;
      if (!breaks && winOffset[s + 1]! - w0 === 1) {
        // One window, no breaks: the common case, and `ServiceChoice.inWindow` written inline
        // because the call costs measurably here.
        windowEnd = winEnd[w0]!;
        // Without breaks, serviceStart is the later of arrival and the window's start.
        const ws = winStart[w0]!;
        start = arrival > ws ? arrival : ws;
        lt = start + d - windowEnd;
        if (lt <= 0) lt = 0;
        else if (lt > stopMaxLate[s]!) return false;
        traceWin[i] = w0;
      } else {
        // serviceAt written out: one call less on the path of every stop with breaks or several windows.
        const c = this.forced
          ? this.choice.inWindow(inst, v, this.forcedWin[i]!, arrival, d, stopMaxLate[s]!)
          : chooseStart(inst, v, s, arrival, d, this.choice);
        if (!c) return false;
        ({ start, late: lt, windowEnd } = c);
        traceWin[i] = c.win;
      }
      traceStart[i] = start;
      wait += start - arrival;
      const slack = lt > 0 ? 0 : windowEnd - d - start;
      if (wait + slack < minSlack) minSlack = wait + slack;
      late += lt;
      dsum += dist[prevLoc * N + loc]!;
      drv += leg;
      svc += d;
      ready = start + d;
      prevLoc = loc;
    }
    if (recorded) storeState(recorded, len, ready, wait, minSlack, late, dsum, drv, svc, prevLoc);
    storeState(this.state, 0, ready, wait, minSlack, late, dsum, drv, svc, prevLoc);
    this.passEnd = this.endLeg(v, prevLoc, ready);
    return true;
  }

  /**
   * Points `passSource` at the state where the pass begins: the prefix's state at `pass.from`,
   * or the start (in `state`). Returns that position.
   */
  private startPass(depart: number): number {
    const pass = this.pass;
    if (pass.from > 0 && pass.prefix) {
      this.passSource = pass.prefix.states;
      this.passSourceBase = pass.from * STATE_SIZE;
      return pass.from;
    }
    startState(this.state, depart, this.inst.vStartLoc[pass.v]!);
    this.passSource = this.state;
    this.passSourceBase = 0;
    return 0;
  }

  /**
   * Adds the leg from `prevLoc` to the end location to `state`; returns the route's end.
   * Given the last location and ready time from the pass's locals: read back from `state`,
   * they cost measurably per evaluation.
   */
  private endLeg(v: number, prevLoc: number, ready: number): number {
    const inst = this.inst;
    const st = this.state;
    const endLoc = inst.vEndLoc[v]!;
    if (endLoc < 0) return ready;
    const leg = inst.vDur[v]![prevLoc * inst.nLoc + endLoc]!;
    st[DIST]! += inst.dist[prevLoc * inst.nLoc + endLoc]!;
    st[DRIVE]! += leg;
    return hasBreaks(inst, v) ? drive(inst, v, ready, leg) : ready + leg;
  }
}
