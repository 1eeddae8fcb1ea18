/**
 * Seeded plans are reproducible and stay byte-identical across refactors: each case solves a
 * fixture, a generated document or a benchmark instance under an iteration limit and compares the
 * SHA-256 of its JSON plan with the value recorded in seeded-plans.json.
 *
 * A change that is meant to change plans (a solver improvement) regenerates the record with
 * `UPDATE_GOLDEN=1 npx vitest run test/golden` and says so in its commit message.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProblemDocument, loadProblemFile } from '../../src/input/index.js';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import type { SolveOptions } from '../../src/solver/types.js';
import { solveInThreads } from '../../src/threads/searches.js';
import { checkPlan } from '../support/checker.js';
import { generateOneOff, generateProject, type GenerateOptions } from '../support/generate.js';
import { randomProblem } from '../support/problem-builder.js';
import { reproduced } from '../support/reproduced.js';

const RECORD = fileURLToPath(new URL('./seeded-plans.json', import.meta.url));
const BENCHMARKS = fileURLToPath(new URL('../../../shared/benchmarks/', import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === '1';
/** The searches (threads) one after the other on this thread: the sources under test, not a build. */
const solve = (problem: Problem, options: SolveOptions) => solveInThreads(problem, options, { inline: true });

interface Case {
  name: string;
  load: () => Promise<Problem | null>;
  seed: number;
  iterations: number;
  threads?: number;
}

const fixture = (path: string) => async () => (await loadProblemFile(path)).problem;
const project = (seed: number, options: GenerateOptions) => async () => loadProblemDocument(generateProject(seed, options)).problem;
const oneOff = (seed: number, options: GenerateOptions) => async () => loadProblemDocument(generateOneOff(seed, options)).problem;
const benchmark = (file: string, format: 'solomon' | 'vrplib') => async () => {
  const path = BENCHMARKS + file;
  return existsSync(path) ? loadBenchmarkText(readFileSync(path, 'utf8'), format, file) : null;
};

const CASES: Case[] = [
  { name: 'bakery fixture', load: fixture('fixtures/bakery.yaml'), seed: 0, iterations: 300 },
  { name: 'bakery fixture, seed 5', load: fixture('fixtures/bakery.yaml'), seed: 5, iterations: 150 },
  { name: 'one-off fixture', load: fixture('fixtures/oneoff.json'), seed: 0, iterations: 200 },
  { name: 'CSV project fixture', load: fixture('fixtures/csv/project.yaml'), seed: 0, iterations: 200 },
  { name: 'project, all features', load: project(11, { stops: 40 }), seed: 1, iterations: 150 },
  { name: 'one-off, all features', load: oneOff(12, { stops: 40 }), seed: 2, iterations: 150 },
  { name: 'project, overnight shifts', load: project(13, { stops: 40, features: { overnight: true } }), seed: 3, iterations: 100 },
  { name: 'one-off, tight fleet', load: oneOff(14, { stops: 60, drivers: 2 }), seed: 4, iterations: 100 },
  {
    name: 'project, breaks and shared addresses',
    load: project(15, { stops: 50, features: { breakShare: 1, sharedShare: 0.5 } }),
    seed: 5,
    iterations: 100,
  },
  {
    name: 'one-off, breaks and shared addresses',
    load: oneOff(16, { stops: 50, features: { breakShare: 1, sharedShare: 0.5 } }),
    seed: 6,
    iterations: 100,
  },
  {
    name: 'project, tight windows',
    load: project(17, { stops: 30, drivers: 2, features: { tightWindows: true, breakShare: 1 } }),
    seed: 7,
    iterations: 100,
  },
  { name: 'project, no durations', load: project(18, { stops: 40, features: { durations: false } }), seed: 8, iterations: 80 },
  {
    name: 'one-off, no windows or capacities',
    load: oneOff(19, { stops: 50, features: { windows: false, capacities: false } }),
    seed: 9,
    iterations: 100,
  },
  { name: 'project, 300 stops', load: project(20, { stops: 300 }), seed: 10, iterations: 30 },
  { name: 'one-off, 300 stops', load: oneOff(21, { stops: 300 }), seed: 11, iterations: 30 },
  {
    name: 'random problem, two threads',
    load: async () => randomProblem(71, { stops: 70, vehicles: 5, uniformSpeed: true }),
    seed: 3,
    iterations: 80,
    threads: 2,
  },
  { name: 'Solomon R101', load: benchmark('solomon/R101.txt', 'solomon'), seed: 0, iterations: 300 },
  { name: 'Solomon RC201', load: benchmark('solomon/RC201.txt', 'solomon'), seed: 0, iterations: 300 },
  { name: 'Solomon C101', load: benchmark('solomon/C101.txt', 'solomon'), seed: 0, iterations: 200 },
  { name: 'CVRP X-n101-k25', load: benchmark('cvrp-x/X-n101-k25.vrp', 'vrplib'), seed: 0, iterations: 300 },
];

const recorded: Record<string, string> = existsSync(RECORD) ? (JSON.parse(readFileSync(RECORD, 'utf8')) as Record<string, string>) : {};
const observed: Record<string, string> = {};

describe('seeded plans stay byte-identical', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const problem = await c.load();
      if (problem === null) return; // benchmark data lives beside the repo (../shared)
      const result = await solve(problem, { timeLimitMs: 600_000, seed: c.seed, maxIterations: c.iterations, threads: c.threads ?? 1 });
      const plan = buildPlan(problem, result);
      expect(checkPlan(problem, JSON.parse(JSON.stringify(plan)))).toEqual([]);
      const hash = createHash('sha256')
        .update(JSON.stringify(reproduced(plan)))
        .digest('hex');
      observed[c.name] = hash;
      if (!UPDATE) expect(hash, `${c.name}: plan changed`).toBe(recorded[c.name]);
    });
  }
  afterAll(() => {
    if (UPDATE) writeFileSync(RECORD, JSON.stringify({ ...recorded, ...observed }, null, 2) + '\n');
  });
});
