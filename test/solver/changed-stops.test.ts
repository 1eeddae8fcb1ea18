/**
 * The stop-level change test of the local search where windows do not bind (ls/changed-stops.ts,
 * SolveOptions.changedStopsOnly, off by default): a stop counts as changed when its route, the stop
 * before or after it, or (with the load rule) its route's load going down changed; a polish with it
 * of a changed route gives a plan that, like a whole solve's with the option, passes the
 * independent checker. (Fewer pairs a pass, but the first-improvement path differs: over a whole
 * polish it may try more; params.ts, CHANGED_STOPS_ONLY_WITHOUT_WINDOWS, has the measurements.)
 */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/output/plan.js';
import { CostEvaluator } from '../../src/solver/cost.js';
import { solve } from '../../src/solver/index.js';
import { instanceOf } from '../../src/solver/instance.js';
import { Inserter } from '../../src/solver/insertion.js';
import { ChangedStops } from '../../src/solver/ls/changed-stops.js';
import { LocalSearch } from '../../src/solver/ls/local-search.js';
import { windowsBind } from '../../src/solver/ls/windows-bind.js';
import { CHANGED_STOPS_ONLY_MIN_STOPS, CHANGED_STOPS_ONLY_WITHOUT_WINDOWS } from '../../src/solver/params.js';
import { regretInsertion } from '../../src/solver/regret.js';
import { Rng } from '../../src/solver/rng.js';
import { RouteEvaluator } from '../../src/solver/route/evaluator.js';
import { nextStamp, Solution } from '../../src/solver/solution.js';
import { changedStopsOnlyWithoutWindows } from '../../src/solver/windowless.js';
import { checkPlan } from '../support/checker.js';
import { capacitatedProblem } from '../support/problem-builder.js';
import { expectCheckedPlan } from './local-optimum.js';

function regretPlan(stops: number, vehicles: number): { sol: Solution; evaluator: RouteEvaluator } {
  const inst = instanceOf(capacitatedProblem(13, { stops, vehicles, capacity: 100 }));
  const evaluator = new RouteEvaluator(inst);
  const sol = new Solution(inst, new CostEvaluator(inst, 1));
  regretInsertion(sol, new Inserter(inst, evaluator), evaluator, Infinity);
  return { sol, evaluator };
}

/** A used route of more than `min` stops. */
function longRoute(sol: Solution, min: number): number {
  return Array.from({ length: sol.inst.nVehicles }, (_, v) => v).find((v) => sol.len[v]! > min)!;
}

/** Route r's stops with its first stop moved to its end, assigned and checked. */
function rotate(sol: Solution, r: number, evaluator: RouteEvaluator): number[] {
  const seq = Array.from(sol.seq[r]!.subarray(0, sol.len[r]));
  const rotated = Int32Array.from([...seq.slice(1), seq[0]!]);
  sol.assignRoute(r, rotated, rotated.length);
  expect(sol.refreshRoute(r, evaluator)).toBe(true);
  return seq;
}

describe('changed stops where windows do not bind', () => {
  it('apply from CHANGED_STOPS_ONLY_MIN_STOPS stops on, as SolveOptions.changedStopsOnly says (off by default)', () => {
    expect(changedStopsOnlyWithoutWindows(CHANGED_STOPS_ONLY_MIN_STOPS)).toBe(CHANGED_STOPS_ONLY_WITHOUT_WINDOWS);
    expect(changedStopsOnlyWithoutWindows(CHANGED_STOPS_ONLY_MIN_STOPS, true)).toBe(true);
    expect(changedStopsOnlyWithoutWindows(CHANGED_STOPS_ONLY_MIN_STOPS, false)).toBe(false);
    expect(changedStopsOnlyWithoutWindows(CHANGED_STOPS_ONLY_MIN_STOPS - 1, true)).toBe(false);
  });

  it('mark only the stops whose neighbours in the route changed, and every stop of a lighter route with the load rule', () => {
    const { sol, evaluator } = regretPlan(60, 6);
    const r = longRoute(sol, 8);
    for (const loadRule of [false, true]) {
      const changed = new ChangedStops(sol.inst.nStops, sol.inst.nVehicles, loadRule);
      for (let v = 0; v < sol.inst.nVehicles; v++) changed.see(sol, v);
      const seen = nextStamp();
      const copy = sol.clone();
      const seq = rotate(copy, r, evaluator);
      changed.see(copy, r);
      const n = seq.length;
      // The old first stop now sits between the old last one and the route's end; its old successor starts the route.
      for (const s of [seq[0]!, seq[1]!, seq[n - 1]!]) expect(changed.bothBefore(s, s, seen)).toBe(false);
      for (const s of seq.slice(2, n - 1)) expect(changed.bothBefore(s, s, seen)).toBe(true);
      // One stop leaves the route: the route is lighter, its neighbours changed either way.
      const after = nextStamp();
      const out = seq[3]!;
      copy.detach(out);
      expect(copy.refreshRoute(r, evaluator)).toBe(true);
      changed.see(copy, r);
      const untouched = seq.slice(6, n - 1).filter((s) => s !== out);
      for (const s of untouched) expect(changed.bothBefore(s, s, after)).toBe(!loadRule);
      expect(changed.bothBefore(seq[2]!, seq[4]!, after)).toBe(false);
    }
  });

  it('leave a local optimum of the default moves unchanged, and polish a changed route into a plan that passes the checker', () => {
    const problem = capacitatedProblem(13, { stops: 300, vehicles: 30, capacity: 100 });
    const inst = instanceOf(problem);
    expect(windowsBind(inst)).toBe(false);
    const evaluator = new RouteEvaluator(inst);
    const sol = new Solution(inst, new CostEvaluator(inst, 1));
    regretInsertion(sol, new Inserter(inst, evaluator), evaluator, Infinity);
    LocalSearch.create(inst, evaluator, new Rng(4))!.run(sol);
    const ls = LocalSearch.create(inst, evaluator, new Rng(4), { changedStopsOnly: true })!;
    expect(ls.run(sol)).toBe(0);
    rotate(sol, longRoute(sol, 3), evaluator);
    expect(ls.run(sol)).toBeGreaterThan(0);
    expect(sol.unservedStops()).toEqual([]);
    expectCheckedPlan(problem, sol);
  });

  it('give a capacity-only solve with it whose plan passes the independent checker', async () => {
    const problem = capacitatedProblem(5, { stops: 150, vehicles: 12, capacity: 80 });
    const result = await solve(problem, { timeLimitMs: 20_000, seed: 2, maxIterations: 200, changedStopsOnly: true });
    expect(result.unserved).toEqual([]);
    expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, result))))).toEqual([]);
  });
});
