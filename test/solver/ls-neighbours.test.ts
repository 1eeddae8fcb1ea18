/**
 * The local search's granular neighbours by problem size (lsNeighboursOf; params.ts,
 * FEW_LS_NEIGHBOURS, LS_NEIGHBOURS_UNDER_WINDOWS): fewer on windowed problems below
 * FEW_LS_NEIGHBOURS_MIN_STOPS stops, fewer from FEW_LS_NEIGHBOURS_MIN_STOPS stops on when switched on
 * (SolveOptions.fewLsNeighbours) or, absent the option, where windows bind and moves are priced by the
 * segment summaries (fewNeighboursPay, FEW_LS_NEIGHBOURS_BY_DEFAULT), and a solve of that size passes the independent checker
 * either way, the option reaching the search (the plans differ).
 */
import { describe, expect, it } from 'vitest';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import { examinesChangedRoutesOnly, fewNeighboursPay, firstPlanNeighboursOf, lsNeighboursOf } from '../../src/solver/ls/local-search.js';
import {
  CHANGED_ROUTES_ONLY_WITH_FEW,
  FEW_LS_NEIGHBOURS,
  FEW_LS_NEIGHBOURS_BY_DEFAULT,
  FEW_LS_NEIGHBOURS_MIN_STOPS,
  LARGE_LS_NEIGHBOURS,
  LS_NEIGHBOURS,
  LS_NEIGHBOURS_UNDER_WINDOWS,
  LS_NEIGHBOURS_WITHOUT_WINDOWS,
} from '../../src/solver/params.js';
import type { SolveOptions, SolveResult } from '../../src/solver/types.js';
import { checkPlan } from '../support/checker.js';
import { tightWindowsSolomonText } from './helpers.js';

async function checkedSolve(problem: Problem, options: SolveOptions): Promise<SolveResult> {
  const result = await solve(problem, options);
  expect(checkPlan(problem, JSON.parse(JSON.stringify(buildPlan(problem, result))))).toEqual([]);
  return result;
}

/** The plan's stop sequences, route by route. */
function sequencesOf(result: SolveResult): string {
  return result.routes.map((route) => route.visits.map((v) => (v.kind === 'stop' ? v.stop : 'break')).join(',')).join('|');
}

describe('local-search neighbours by problem size', () => {
  it('are fewer where windows do not bind or the problem is below FEW_LS_NEIGHBOURS_MIN_STOPS stops, and fewer still from there on, unless switched off; exact pricing above EXACT_MAX_STOPS keeps its own', () => {
    expect(FEW_LS_NEIGHBOURS).toBeLessThan(LS_NEIGHBOURS);
    expect(lsNeighboursOf(FEW_LS_NEIGHBOURS_MIN_STOPS - 1, false, true, true)).toBe(LS_NEIGHBOURS_UNDER_WINDOWS);
    expect(lsNeighboursOf(100, false, false, true)).toBe(LS_NEIGHBOURS_UNDER_WINDOWS);
    expect(lsNeighboursOf(FEW_LS_NEIGHBOURS_MIN_STOPS - 1, false, true, false)).toBe(LS_NEIGHBOURS_WITHOUT_WINDOWS);
    expect(lsNeighboursOf(FEW_LS_NEIGHBOURS_MIN_STOPS, false, true, true)).toBe(FEW_LS_NEIGHBOURS);
    expect(lsNeighboursOf(FEW_LS_NEIGHBOURS_MIN_STOPS, false, true, false)).toBe(FEW_LS_NEIGHBOURS);
    expect(lsNeighboursOf(5000, false, true, true)).toBe(FEW_LS_NEIGHBOURS);
    expect(lsNeighboursOf(FEW_LS_NEIGHBOURS_MIN_STOPS, false, false, true, true)).toBe(LS_NEIGHBOURS);
    expect(lsNeighboursOf(FEW_LS_NEIGHBOURS_MIN_STOPS, false, false, false)).toBe(LS_NEIGHBOURS_WITHOUT_WINDOWS);
    expect(lsNeighboursOf(5000, true, true, true)).toBe(LARGE_LS_NEIGHBOURS);
  });

  it('absent an option, are fewer from FEW_LS_NEIGHBOURS_MIN_STOPS on only where windows bind and moves are priced by the summaries', () => {
    expect(fewNeighboursPay(true, true)).toBe(FEW_LS_NEIGHBOURS_BY_DEFAULT);
    expect(fewNeighboursPay(true, false)).toBe(false);
    expect(fewNeighboursPay(false, true)).toBe(false);
    const byDefault = FEW_LS_NEIGHBOURS_BY_DEFAULT ? FEW_LS_NEIGHBOURS : LS_NEIGHBOURS;
    expect(lsNeighboursOf(FEW_LS_NEIGHBOURS_MIN_STOPS, false, undefined, true, true)).toBe(byDefault);
    expect(lsNeighboursOf(FEW_LS_NEIGHBOURS_MIN_STOPS, false, undefined, true, false)).toBe(LS_NEIGHBOURS);
    expect(lsNeighboursOf(FEW_LS_NEIGHBOURS_MIN_STOPS, false, undefined, false, true)).toBe(LS_NEIGHBOURS_WITHOUT_WINDOWS);
    expect(lsNeighboursOf(FEW_LS_NEIGHBOURS_MIN_STOPS - 1, false, undefined, true, true)).toBe(LS_NEIGHBOURS_UNDER_WINDOWS);
  });

  it("with FEW_LS_NEIGHBOURS from the size rule, a run examines the changed routes' stops only (CHANGED_ROUTES_ONLY_WITH_FEW); never otherwise", () => {
    expect(examinesChangedRoutesOnly(FEW_LS_NEIGHBOURS_MIN_STOPS, false, FEW_LS_NEIGHBOURS)).toBe(CHANGED_ROUTES_ONLY_WITH_FEW);
    expect(examinesChangedRoutesOnly(FEW_LS_NEIGHBOURS_MIN_STOPS, false, LS_NEIGHBOURS)).toBe(false);
    expect(examinesChangedRoutesOnly(FEW_LS_NEIGHBOURS_MIN_STOPS - 1, false, FEW_LS_NEIGHBOURS)).toBe(false);
    expect(examinesChangedRoutesOnly(5000, true, LARGE_LS_NEIGHBOURS)).toBe(false);
  });

  it('are LS_NEIGHBOURS for a first plan where the search then narrows to LS_NEIGHBOURS_UNDER_WINDOWS, the same count elsewhere', () => {
    expect(firstPlanNeighboursOf(LS_NEIGHBOURS_UNDER_WINDOWS, 100, true)).toBe(LS_NEIGHBOURS);
    expect(firstPlanNeighboursOf(LS_NEIGHBOURS_WITHOUT_WINDOWS, 100, false)).toBe(LS_NEIGHBOURS_WITHOUT_WINDOWS);
    expect(firstPlanNeighboursOf(LS_NEIGHBOURS, FEW_LS_NEIGHBOURS_MIN_STOPS, true)).toBe(LS_NEIGHBOURS);
    expect(firstPlanNeighboursOf(FEW_LS_NEIGHBOURS, FEW_LS_NEIGHBOURS_MIN_STOPS, true)).toBe(FEW_LS_NEIGHBOURS);
  });

  it('a solve of that size passes the checker with and without them, and the option reaches the search', async () => {
    const problem = loadBenchmarkText(tightWindowsSolomonText(FEW_LS_NEIGHBOURS_MIN_STOPS, 7), 'solomon', 'generated');
    expect(problem.stops.length).toBe(FEW_LS_NEIGHBOURS_MIN_STOPS);
    const quick = { timeLimitMs: 60_000, seed: 3, maxIterations: 8 };
    const few = await checkedSolve(problem, { ...quick, fewLsNeighbours: true });
    const many = await checkedSolve(problem, { ...quick, fewLsNeighbours: false });
    const byDefault = await checkedSolve(problem, quick);
    expect(few.stats.iterations).toBe(8);
    expect(sequencesOf(few)).not.toBe(sequencesOf(many));
    // Windows bind and the summaries price its moves: the default is fewNeighboursPay's.
    expect(sequencesOf(byDefault)).toBe(sequencesOf(FEW_LS_NEIGHBOURS_BY_DEFAULT ? few : many));
  }, 60_000);
});
