/**
 * The visit-by-visit schedule of a route for the output: the evaluator's verdict and
 * departure, then the same rules replayed from that departure, recording every visit.
 */
import type { Problem } from '../../model/problem.js';
import { instanceOf, type SolverInstance } from '../instance.js';
import type { BreakVisit, RouteSchedule, StopVisit, Visit } from '../types.js';
import { drive } from './breaks.js';
import { sequenceLoad } from './capacity.js';
import { RouteEvaluator, type RouteResult } from './evaluator.js';
import { keepsSequence } from './sequence.js';
import { serviceDuration } from './windows.js';

const evaluators = new WeakMap<SolverInstance, RouteEvaluator>();

function evaluatorOf(inst: SolverInstance): RouteEvaluator {
  let evaluator = evaluators.get(inst);
  if (!evaluator) {
    evaluator = new RouteEvaluator(inst);
    evaluators.set(inst, evaluator);
  }
  return evaluator;
}

/**
 * The full schedule of `vehicle` serving `stops` in this order, or null when the route breaks
 * a hard rule (incompatible or location-less stop — a stop locked to another driver is
 * incompatible —, repeated stop, sequence order of locks, window, lateness bound, shift, capacity).
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
  if (!keepsSequence(inst.stopSeq, seq, seq.length)) return null;
  const evaluator = evaluatorOf(inst);
  const load = sequenceLoad(inst, seq);
  const result = evaluator.evaluate(vehicle, seq, seq.length, load);
  if (!result) return null;
  return replaySchedule(evaluator, result, { v: vehicle, seq, load });
}

interface Replay {
  v: number;
  seq: Int32Array;
  load: Float64Array;
}

/** Re-runs the rules from the evaluator's chosen departure, recording every visit. */
function replaySchedule(evaluator: RouteEvaluator, result: RouteResult, route: Replay): RouteSchedule {
  const inst = evaluator.inst;
  const { v, load } = route;
  const start = result.start;
  const { stopVisits, ready, lastLoc, lateness } = replayStops(evaluator, route, start);
  const N = inst.nLoc;
  const endLoc = inst.vEndLoc[v]!;
  const endTravel = endLoc >= 0 ? inst.vDur[v]![lastLoc * N + endLoc]! : 0;
  const endDistance = endLoc >= 0 ? inst.dist[lastLoc * N + endLoc]! : 0;
  const end = endLoc >= 0 ? drive(inst, v, ready, endTravel) : ready;
  if (end !== result.end || lateness !== result.lateness) {
    throw new Error('route replay disagrees with its evaluation');
  }
  const { visits, breakTime } = withBreaks(inst, v, stopVisits, start, end);
  const working = end - start;
  return {
    vehicle: v,
    start,
    end,
    endTravel,
    endDistance,
    visits,
    distance: result.distance,
    driving: result.driving,
    service: result.service,
    waiting: working - result.driving - result.service - breakTime,
    breakTime,
    working,
    overtime: result.overtime,
    lateness,
    overload: result.overload,
    load: Float64Array.from(load),
  };
}

/** The stop visits of a route departing at `start`, the ready time after them and their lateness. */
function replayStops(
  evaluator: RouteEvaluator,
  route: Replay,
  start: number,
): { stopVisits: StopVisit[]; ready: number; lastLoc: number; lateness: number } {
  const inst = evaluator.inst;
  const { v, seq } = route;
  const N = inst.nLoc;
  const dims = inst.dims;
  const dur = inst.vDur[v]!;
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
    const arrival = drive(inst, v, ready, leg);
    const d = serviceDuration(inst, s, prevStopLoc);
    const service = evaluator.serviceAt(v, s, i, arrival, d);
    if (!service) throw new Error('route replay disagrees with its evaluation');
    const { start: serviceStart, late } = service;
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
  return { stopVisits, ready, lastLoc: prevLoc, lateness };
}

/** The stop visits with the breaks taken between `start` and `end` placed among them. */
function withBreaks(
  inst: SolverInstance,
  v: number,
  stopVisits: StopVisit[],
  start: number,
  end: number,
): { visits: Visit[]; breakTime: number } {
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
  return { visits, breakTime };
}
