import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import { parseBenchArgs } from '../bench/args.js';
import { benchmarksAvailable, listInstances, readBks } from '../bench/benchmark-data.js';
import {
  benchProcess,
  formatProcessCell,
  formatProcessSummary,
  leversFlag,
  ownBin,
  processArgs,
  summarizeProcess,
  type ProcessResult,
} from '../bench/process-bench.js';
import { baselineLabel, rotate } from '../bench/process-run.js';

describe('bench --process (fresh routeplan processes)', () => {
  it('arguments: --process, --baseline, and what they do not combine with', () => {
    expect(parseBenchArgs(['--set', 'solomon', '--time', '0.1'])).toMatchObject({ process: false, baselines: [] });
    expect(parseBenchArgs(['--set', 'solomon', '--time', '0.1', '--process'])).toMatchObject({
      process: true,
      baselines: [],
      timeSeconds: 0.1,
    });
    expect(parseBenchArgs(['--set', 'solomon', '--time', '2', '--process', '--baseline', '/w/main/bin/routeplan'])).toMatchObject({
      process: true,
      baselines: ['/w/main/bin/routeplan'],
    });
    // Several baselines (the previous build and this one with a lever off), each a fresh process per instance.
    const two = ['--baseline', '/tmp/base/bin/routeplan', '--baseline', '/tmp/off/bin/routeplan'];
    expect(parseBenchArgs(['--set', 'solomon', '--time', '2', '--process', ...two]).baselines).toEqual([
      '/tmp/base/bin/routeplan',
      '/tmp/off/bin/routeplan',
    ]);
    expect(baselineLabel(['/tmp/base/bin/routeplan', '/tmp/off/bin/routeplan'], 1)).toBe('off');
    expect(baselineLabel(['/a/main/bin/routeplan', '/b/main/bin/routeplan'], 0)).toBe('main#1');
    expect(parseBenchArgs(['--set', 'solomon', '--time', '0.1', '--process', '--vs', 'vroom', '--vroom-x', '0'])).toMatchObject({
      process: true,
      vs: 'vroom',
      vroomExploration: 0,
    });
    expect(() => parseBenchArgs(['--set', 'solomon', '--time', '1', '--baseline', 'x'])).toThrow(/--baseline needs --process/);
    expect(parseBenchArgs(['--set', 'solomon', '--time', '1', '--process']).warm).toBe(true);
    expect(parseBenchArgs(['--set', 'solomon', '--time', '1', '--process', '--no-warm']).warm).toBe(false);
    expect(() => parseBenchArgs(['--set', 'solomon', '--time', '1', '--no-warm'])).toThrow(/--no-warm needs --process/);
    expect(() => parseBenchArgs(['--set', 'large', '--time', '1', '--process'])).toThrow(/not --set large/);
    expect(() => parseBenchArgs(['--set', 'anytime', '--process'])).toThrow(/not --set anytime/);
    expect(() => parseBenchArgs(['--set', 'solomon', '--time', 'vroom', '--vs', 'vroom', '--process'])).toThrow(/not --time vroom/);
    expect(() => parseBenchArgs(['--set', 'solomon', '--time', '1', '--process', '--iterations', '10'])).toThrow(/does not combine/);
    expect(() => parseBenchArgs(['--set', 'solomon', '--time', '1', '--process', '--stats'])).toThrow(/does not combine/);
    expect(() => parseBenchArgs(['--set', 'solomon', '--time', '1', '--process', '--baseline'])).toThrow(/--baseline needs a value/);
  });

  it('one solve is `routeplan solve` with the limit, seed, threads and JSON output', () => {
    const args = processArgs(
      { path: '/b/C101.txt', format: 'solomon' },
      { bin: '/r/bin/routeplan', label: 'x', timeSeconds: 0.1, seed: 3, threads: 1 },
    );
    expect(args).toEqual([
      '/r/bin/routeplan',
      'solve',
      '/b/C101.txt',
      '--format',
      'solomon',
      '--time-limit',
      '0.1',
      '--seed',
      '3',
      '--threads',
      '1',
      '--json',
      '--quiet',
    ]);
  });

  it("this checkout's process gets the run's levers as `--levers`; without any, no flag", () => {
    const entry = { path: '/b/C101.txt', format: 'solomon' as const };
    const options = { bin: '/r/bin/routeplan', label: 'x', timeSeconds: 2, seed: 0, threads: 1 };
    expect(processArgs(entry, { ...options, levers: { swapStar: false, fleetAtStall: true } }).slice(-2)).toEqual([
      '--levers',
      'swap-star=off,fleet-at-stall=on',
    ]);
    expect(processArgs(entry, { ...options, levers: {} })).not.toContain('--levers');
    expect(leversFlag({ localOrder: false })).toEqual(['--levers', 'local-order=off']);
  });

  it('the contenders take turns going first', () => {
    expect([0, 1, 2, 3].map((i) => rotate(['a', 'b', 'c'], i).join(''))).toEqual(['abc', 'bca', 'cab', 'abc']);
    expect(rotate([], 5)).toEqual([]);
  });

  it('the summary counts zero-iteration runs and runs stopped by themselves, and averages only complete, feasible plans', () => {
    const run = (gapPct: number | null, iterations: number, extra: Partial<ProcessResult> = {}): ProcessResult => ({
      label: 'routeplan',
      cost: 1,
      gapPct,
      iterations,
      stopReason: 'time',
      unserved: 0,
      routes: 3,
      wallSec: 0.5,
      solveSec: 0.1,
      feasible: true,
      problems: [],
      error: null,
      ...extra,
    });
    const summary = summarizeProcess('routeplan (fresh)', [
      run(2, 0),
      run(4, 10, { stopReason: 'no_improvement' }),
      run(50, 0, { feasible: false }),
      run(9, 3, { unserved: 1 }),
    ]);
    expect(summary).toMatchObject({ runs: 4, complete: 2, meanGapPct: 3, zeroIterations: 2, stoppedByItself: 1, infeasible: 1 });
    expect(summary.meanIterations).toBeCloseTo(13 / 4);
    expect(formatProcessSummary([summary]).split('\n')[1]).toMatch(/^routeplan \(fresh\) +4 +2 +3\.00 +2 +1 +3 +0\.50$/);
    expect(formatProcessCell(run(2, 10, { stopReason: 'no_improvement' }))).toBe('routeplan 2.00% it 10 routes 3 0.50 s stall');
    expect(formatProcessCell(run(2, 10))).toBe('routeplan 2.00% it 10 routes 3 0.50 s');
  });

  const built = existsSync(ownBin().replace(/bin\/routeplan$/, 'dist/src/bundle/main.js'));
  it.skipIf(!benchmarksAvailable() || !built)(
    'a fresh process solves C101 and its plan passes the checker',
    async () => {
      const entry = listInstances('solomon').find((e) => e.name === 'C101')!;
      const problem = loadBenchmarkText(readFileSync(entry.path, 'utf8'), entry.format, entry.name);
      const bks = readBks('solomon').get('C101') ?? null;
      const result = await benchProcess(problem, entry, bks, { bin: ownBin(), label: 'routeplan', timeSeconds: 0.2, seed: 0, threads: 1 });
      expect(result.error).toBeNull();
      expect(result.problems).toEqual([]);
      expect(result.feasible).toBe(true);
      expect(result.unserved).toBe(0);
      expect(result.gapPct).toBeGreaterThanOrEqual(0);
      expect(result.iterations).not.toBeNull();
      expect(result.wallSec).toBeGreaterThan(0);
    },
    30_000,
  );
});
