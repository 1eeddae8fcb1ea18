/**
 * The `solve` command in-process with a stand-in solver, for the outcomes a real solver does not
 * produce on demand: a routing failure (exit 3) and a solver bug (exit 1, one line).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RoutingError } from '../../src/errors.js';
import type { SolveResult } from '../../src/solver/types.js';

const solveMock = vi.hoisted(() => vi.fn<(...args: unknown[]) => Promise<SolveResult>>());
vi.mock('../../src/threads/searches.js', () => ({ solveInThreads: solveMock }));

const { main } = await import('../../src/cli/program.js');

const BAKERY = join(resolve(import.meta.dirname, '..', '..'), 'fixtures', 'bakery.yaml');
let stdout = '';
let stderr = '';
const savedExitCode = process.exitCode;
const savedEnv = { ...process.env };

beforeEach(() => {
  // Only the flags under test may configure the solve: no user file, no ROUTEPLAN_* variables.
  for (const key of Object.keys(process.env)) if (key.startsWith('ROUTEPLAN_')) delete process.env[key];
  process.env.XDG_CONFIG_HOME = mkdtempSync(join(tmpdir(), 'routeplan-xdg-'));
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
});

afterEach(() => {
  process.env = { ...savedEnv };
  vi.restoreAllMocks();
  solveMock.mockReset();
  process.exitCode = savedExitCode;
});

describe('routeplan solve with a stand-in solver', () => {
  it('exit code 3: a routing failure from the solver', async () => {
    solveMock.mockRejectedValueOnce(new RoutingError('the matrix provider did not answer'));
    await main(['node', 'routeplan', 'solve', BAKERY, '--json']);
    expect(process.exitCode).toBe(3);
    expect(stderr).toContain('the matrix provider did not answer');
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'routing_failed' } });
  });

  it('exit code 1: a solver bug is one line on stderr, no stack trace', async () => {
    solveMock.mockRejectedValueOnce(new TypeError("Cannot read properties of undefined (reading 'len')"));
    await main(['node', 'routeplan', 'solve', BAKERY]);
    expect(process.exitCode).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('internal error');
    expect(stdout).toBe('');
  });

  it('passes --time-limit (seconds → ms), --seed, --max-iterations and --threads to the solver', async () => {
    solveMock.mockResolvedValueOnce({
      routes: [],
      unserved: [],
      stats: { elapsedMs: 1, iterations: 0, firstPlanMs: 0, bestFoundMs: 0, seed: 0, threads: 1, stoppedBy: 'complete' },
    });
    await main([
      'node',
      'routeplan',
      'solve',
      BAKERY,
      '--time-limit',
      '2.5',
      '--seed',
      '9',
      '--max-iterations',
      '40',
      '--threads',
      '2',
      '--json',
    ]);
    expect(process.exitCode).toBe(0);
    const options = solveMock.mock.calls[0]![1] as { timeLimitMs: number; seed: number; maxIterations: number; threads: number };
    expect(options).toMatchObject({ timeLimitMs: 2500, seed: 9, maxIterations: 40, threads: 2 });
  });

  it('--levers switches the named levers on or off for the solve; a wrong name or state is exit 2 naming the flag', async () => {
    solveMock.mockResolvedValueOnce({
      routes: [],
      unserved: [],
      stats: { elapsedMs: 1, iterations: 0, firstPlanMs: 0, bestFoundMs: 0, seed: 0, threads: 1, stoppedBy: 'complete' },
    });
    await main(['node', 'routeplan', 'solve', BAKERY, '--levers', 'swap-star=off, population=on', '--json']);
    expect(process.exitCode).toBe(0);
    expect(solveMock.mock.calls[0]![1]).toMatchObject({ swapStar: false, population: true });
    for (const [list, message] of [
      ['magic=on', '"magic" is not a lever; expected one of prize-in-search, swap-star'],
      ['swap-star', 'expected swap-star=on or swap-star=off'],
      ['swap-star=maybe', 'expected swap-star=on or swap-star=off'],
      ['swap-star=on,swap-star=off', 'swap-star is given twice'],
    ]) {
      stderr = '';
      process.exitCode = undefined;
      await main(['node', 'routeplan', 'solve', BAKERY, '--levers', list!]);
      expect(process.exitCode).toBe(2);
      expect(stderr).toContain('--levers');
      expect(stderr).toContain(message);
    }
    expect(solveMock).toHaveBeenCalledTimes(1);
  });

  it('defaults: time limit 5 s, seed 0', async () => {
    solveMock.mockResolvedValueOnce({
      routes: [],
      unserved: [],
      stats: { elapsedMs: 1, iterations: 0, firstPlanMs: 0, bestFoundMs: 0, seed: 0, threads: 1, stoppedBy: 'complete' },
    });
    await main(['node', 'routeplan', 'solve', BAKERY, '--json']);
    const options = solveMock.mock.calls[0]![1] as { timeLimitMs: number; seed: number };
    expect(options.timeLimitMs).toBe(5000);
    expect(options.seed).toBe(0);
  });
});
