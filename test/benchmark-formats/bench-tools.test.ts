import { describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import type { SolveResult } from '../../src/solver/types.js';
import { isMonotone, type AnytimeRun } from '../bench/anytime-bench.js';
import { parseBenchArgs, UsageError } from '../bench/args.js';
import { familyOf, parseSolutionFile } from '../bench/benchmark-data.js';
import { sharedRoutes } from '../bench/bks-routes.js';
import { generateLargeProblem } from '../bench/generate-large.js';
import { leverOptions, routeDistanceFromMatrix, selectInstances } from '../bench/instance-bench.js';
import { LEVER_NAMES } from '../../src/solver/levers.js';
import { formatOperatorTable, sumOperatorsPerFamily } from '../bench/operator-report.js';
import { gapPercent, summarizeFamilies, toCsv } from '../bench/report.js';
import { instanceResult as result } from './instance-result.js';

describe('bench runner pieces', () => {
  it('families: Solomon and Homberger by class and series, X by customer band', () => {
    expect(['C101', 'C208', 'R112', 'R2_4_1', 'RC105', 'RC2_10_3'].map(familyOf)).toEqual(['C1', 'C2', 'R1', 'R2', 'RC1', 'RC2']);
    expect(['X-n101-k25', 'X-n251-k28', 'X-n502-k39', 'X-n1001-k43'].map(familyOf)).toEqual([
      'X 100-249',
      'X 250-499',
      'X 500-749',
      'X 750-1000',
    ]);
  });

  it('mean gap per family counts only feasible plans that serve every customer; overall row added', () => {
    const summaries = summarizeFamilies([
      result('R101', 2),
      result('R102', 4),
      result('R103', 50, { unserved: 3 }),
      result('R104', 60, { feasible: false }),
      result('C101', 1),
    ]);
    expect(summaries.map((s) => [s.family, s.instances, s.complete, s.meanGapPct, s.infeasible])).toEqual([
      ['R1', 4, 2, 3, 1],
      ['C1', 1, 1, 1, 0],
      ['overall', 5, 3, 7 / 3, 1],
    ]);
    expect(gapPercent(1653.9, 1637.7)).toBeCloseTo(0.989, 3);
  });

  it('--stats sums the operator counters by name per family, with an overall row', () => {
    const op = (name: string, tries: number, improvements: number, ms: number) => ({ name, tries, improvements, ms });
    const rows = sumOperatorsPerFamily([
      result('R101', 1, { operators: [op('relocate', 10, 2, 1), op('swap', 5, 1, 2)] }),
      result('R102', 1, { operators: [op('relocate', 20, 3, 4)] }),
      result('C101', 1),
    ]);
    expect(rows).toEqual([
      { family: 'R1', operators: [op('relocate', 30, 5, 5), op('swap', 5, 1, 2)] },
      { family: 'C1', operators: [] },
      { family: 'overall', operators: [op('relocate', 30, 5, 5), op('swap', 5, 1, 2)] },
    ]);
    const table = formatOperatorTable(rows).split('\n');
    expect(table[1]).toMatch(/^R1 +relocate +30 +5 +16\.667 +5 /);
    expect(table[3]).toContain('(no local search ran)');
    expect(parseBenchArgs(['--set', 'solomon', '--time', '1', '--stats']).stats).toBe(true);
    expect(parseBenchArgs(['--set', 'solomon', '--time', '1']).stats).toBe(false);
  });

  it('--with and --without take every lever by its name (src/solver/levers.ts) and set its option; neither leaves the default', () => {
    const options = (flags: string[]) => leverOptions(parseBenchArgs(['--set', 'solomon', '--time', '1', ...flags]));
    for (const key of Object.keys(LEVER_NAMES) as (keyof typeof LEVER_NAMES)[]) {
      expect(options(['--without', LEVER_NAMES[key]])).toEqual({ [key]: false });
      expect(options(['--with', LEVER_NAMES[key]])).toEqual({ [key]: true });
    }
    expect(options([])).toEqual({});
    const both = parseBenchArgs(['--set', 'homberger-1000', '--time', '1', '--with', 'few-ls-neighbours', '--without', 'swap-star']);
    expect([both.with, both.without]).toEqual([['few-ls-neighbours'], ['swap-star']]);
    expect(leverOptions(both)).toEqual({ swapStar: false, fewLsNeighbours: true });
    expect(options(['--with', 'prize-in-search'])).toEqual({ prizeInSearch: true });
    expect(() => options(['--without', 'magic'])).toThrow(/--without takes one of prize-in-search, swap-star/);
    expect(() => options(['--with', 'magic'])).toThrow(/--with takes one of prize-in-search, swap-star/);
    expect(() => options(['--with', 'few-ls-neighbours', '--without', 'few-ls-neighbours'])).toThrow(
      /--with few-ls-neighbours and --without few-ls-neighbours exclude each other/,
    );
  });

  it('--filter: a prefix of the instance name, or the whole name with a trailing $', () => {
    const names = (filters: string[]): string[] => selectInstances('homberger-1000', filters, null).map((e) => e.name);
    expect(names(['R1_10_1'])).toEqual(['R1_10_1', 'R1_10_10']);
    expect(names(['R1_10_1$'])).toEqual(['R1_10_1']);
    expect(names(['rc1_10_2$', 'R1_10_3$'])).toEqual(['R1_10_3', 'RC1_10_2']);
  });

  it('CSV quotes cells with commas and joins problem lists', () => {
    const csv = toCsv([result('R101', 1, { problems: ['a, b', 'say "c"'], feasible: false })]);
    expect(csv.split('\n')[1]).toContain('"a, b | say ""c"""');
  });

  it('arguments: --set and --time are required; bad values are usage errors', () => {
    expect(parseBenchArgs(['--set', 'solomon', '--time', '2', '--filter', 'R1,RC2', '--limit', '3'])).toMatchObject({
      set: 'solomon',
      timeSeconds: 2,
      filters: ['R1', 'RC2'],
      limit: 3,
      seed: 0,
      threads: 1,
    });
    expect(parseBenchArgs(['--set=cvrp-x', '--time=0.5']).set).toBe('cvrp-x');
    expect(parseBenchArgs(['--set', 'solomon', '--time', '9', '--iterations', '2000']).iterations).toBe(2000);
    expect(() => parseBenchArgs(['--time', '2'])).toThrow(/--set is required/);
    expect(() => parseBenchArgs(['--set', 'solomon'])).toThrow(/--time <seconds> is required/);
    expect(() => parseBenchArgs(['--set', 'tsp', '--time', '1'])).toThrow(UsageError);
    expect(() => parseBenchArgs(['--set', 'solomon', '--time', '-1'])).toThrow(/--time must be a positive number/);
    expect(() => parseBenchArgs(['--set', 'solomon', '--time', '1', '--threads', '0'])).toThrow(/--threads must be an integer ≥ 1/);
    expect(() => parseBenchArgs(['--set', 'solomon', '--time', '1', '--bogus'])).toThrow(/unknown option --bogus/);
  });

  it('arguments: --split on|off|both (default: the solver decides); both is not for --vs vroom', () => {
    expect(parseBenchArgs(['--set', 'solomon', '--time', '1']).split).toBeNull();
    for (const split of ['on', 'off', 'both'] as const)
      expect(parseBenchArgs(['--set', 'large', '--time', '1', '--split', split]).split).toBe(split);
    expect(() => parseBenchArgs(['--set', 'solomon', '--time', '1', '--split', 'maybe'])).toThrow(/--split must be on, off or both/);
    expect(() => parseBenchArgs(['--set', 'solomon', '--time', '1', '--split', 'both', '--vs', 'vroom'])).toThrow(/--split both/);
  });

  it('anytime: --set anytime needs no --time; a run that serves less priority than a shorter one breaks the row', () => {
    expect(parseBenchArgs(['--set', 'anytime']).set).toBe('anytime');
    expect(() => parseBenchArgs(['--set', 'anytime', '--vs', 'vroom'])).toThrow(UsageError);
    const run = (limitSec: number, priority: number, violations: number): AnytimeRun => ({
      limitSec,
      elapsedSec: limitSec,
      served: priority / 5,
      priority,
      violations,
      working: 1000,
      feasible: true,
    });
    expect(isMonotone([run(0.01, 100, 50), run(0.1, 100, 20), run(1, 105, 90)])).toBe(true);
    expect(isMonotone([run(0.01, 100, 0), run(0.1, 95, 0)])).toBe(false);
    expect(isMonotone([run(0.01, 100, 10), run(0.1, 100, 30)])).toBe(false);
  });

  it('bks-routes: the routes a plan shares with the best-known solution stop for stop, and the stops of the others', () => {
    const bks = [[1, 2, 3], [4, 5], [6]];
    expect(sharedRoutes([[1, 2, 3], [], [5, 4], [6]], bks)).toEqual({ ours: 3, bks: 3, shared: 2, elsewhere: [4, 5] });
    expect(sharedRoutes([[1, 2], [3, 4, 5], [6]], bks)).toEqual({ ours: 3, bks: 3, shared: 1, elsewhere: [1, 2, 3, 4, 5] });
    expect(sharedRoutes(bks, bks)).toEqual({ ours: 3, bks: 3, shared: 3, elsewhere: [] });
  });

  it('.sol files: routes of customer numbers and the stated cost', () => {
    expect(parseSolutionFile('Route #1: 2 21 73 \r\nRoute #2: 5\r\nCost 1637.7\r\n')).toEqual({ routes: [[2, 21, 73], [5]], cost: 1637.7 });
  });

  it('the runner re-measures solver routes on the matrix (depot → stops → depot)', () => {
    const problem = loadBenchmarkText(
      'T\nVEHICLE\nNUMBER CAPACITY\n2 10\nCUSTOMER\nCUST NO. X Y DEMAND READY DUE SERVICE\n0 0 0 0 0 1000 0\n1 3 4 1 0 1000 0\n2 6 8 1 0 1000 0\n',
      'solomon',
      'T',
    );
    const visit = (stop: number) => ({
      kind: 'stop' as const,
      stop,
      travel: 0,
      distance: 0,
      arrival: 0,
      start: 0,
      finish: 0,
      late: 0,
      loadAfter: new Float64Array(1),
    });
    const routes = [
      { vehicle: 0, visits: [visit(0), visit(1)] },
      { vehicle: 1, visits: [visit(1)] },
    ];
    expect(routeDistanceFromMatrix(problem, { routes } as unknown as SolveResult)).toBe(50 + 50 + 100 + 100 + 100);
  });
});

describe('large-problem generator', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const a = generateLargeProblem({ stops: 50, vehicles: 5, seed: 7, kind: 'project' });
    expect(generateLargeProblem({ stops: 50, vehicles: 5, seed: 7, kind: 'project' })).toEqual(a);
    expect(generateLargeProblem({ stops: 50, vehicles: 5, seed: 8, kind: 'project' })).not.toEqual(a);
  });

  it('5,000 stops / 500 drivers: a valid project with windows, capacities, types, priorities and breaks', () => {
    const { problem, warnings } = loadProblemDocument(generateLargeProblem({ stops: 5000, vehicles: 500, seed: 1, kind: 'project' }));
    expect(warnings).toEqual([]);
    expect(problem.stops).toHaveLength(5000);
    expect(problem.vehicles).toHaveLength(500);
    const windowed = problem.stops.filter((s) => s.windows[0]!.start > 0 || s.windows[0]!.end !== Infinity).length;
    expect(windowed / 5000).toBeGreaterThan(0.5);
    expect(windowed).toBeLessThan(5000);
    expect(new Set(problem.stops.map((s) => s.priority)).size).toBeGreaterThanOrEqual(4);
    expect(problem.stops.some((s) => s.labels.length > 0)).toBe(true);
    expect(problem.vehicles.some((v) => v.labels.length > 0)).toBe(true);
    expect(problem.vehicles.some((v) => v.breaks.length > 0)).toBe(true);
    expect(problem.vehicles.some((v) => v.endLocation === -1)).toBe(true);
    expect(problem.vehicles.every((v) => v.capacity[0]! > 0 && v.capacity[0]! < Infinity)).toBe(true);
    // Type restrictions make some pairs incompatible, but every stop has some vehicle.
    const s = problem.stops.length;
    expect(problem.compatible.some((c) => c === 0)).toBe(true);
    for (let stop = 0; stop < s; stop++) {
      let any = false;
      for (let v = 0; v < problem.vehicles.length && !any; v++) any = problem.compatible[v * s + stop] === 1;
      expect(any).toBe(true);
    }
  });

  it('one-off kind: a valid routesData/ordersData request with tags', () => {
    const { problem, kind } = loadProblemDocument(generateLargeProblem({ stops: 300, vehicles: 30, seed: 2, kind: 'oneoff' }));
    expect(kind).toBe('oneoff');
    expect(problem.stops).toHaveLength(300);
    expect(problem.vehicles).toHaveLength(30);
    expect(problem.stops.some((s) => s.labels.length > 0)).toBe(true);
  });
});
