/**
 * The user's path: generated documents written as JSON and YAML files, solved by the BUILT
 * binary (`routeplan solve FILE --json`), and the printed plan checked by the independent
 * checker. With --seed and --max-iterations the CLI must print exactly the library's plan.
 * Needs `npx tsc -p .` first (npm test does it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadProblemFile } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { buildPlan } from '../../src/output/plan.js';
import { solve } from '../../src/solver/index.js';
import { checkPlan, findInsertableUnserved } from '../support/checker.js';
import { generateOneOff, generateProject } from '../support/generate.js';
import { reproduced } from '../support/reproduced.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin/routeplan');
const ITERATIONS = 40;

let work: string;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/src/cli/main.js'))) {
    throw new Error('the CLI is not built: run "npx tsc -p ." (npm test does it) before these tests');
  }
  work = await mkdtemp(join(tmpdir(), 'routeplan-property-cli-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Environment without the developer's routeplan settings. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('ROUTEPLAN_')) env[name] = value;
  return { ...env, XDG_CONFIG_HOME: '/nonexistent-routeplan-test-config', NO_COLOR: '1' };
}

function solveWithCli(file: string, seed: number): Plan {
  const args = [
    BIN,
    'solve',
    file,
    '--json',
    '--quiet',
    '--seed',
    String(seed),
    '--max-iterations',
    String(ITERATIONS),
    '--time-limit',
    '30',
  ];
  const run = spawnSync(process.execPath, args, { cwd: work, env: cleanEnv(), encoding: 'utf8', timeout: 60_000 });
  expect(run.status, `routeplan solve ${file} failed:\n${run.stderr}\n${run.stdout.slice(0, 500)}`).toBe(0);
  return JSON.parse(run.stdout) as Plan;
}

const CASES = [
  { surface: 'project', seed: 11, format: 'json' },
  { surface: 'project', seed: 12, format: 'yaml' },
  { surface: 'oneoff', seed: 13, format: 'json' },
  { surface: 'oneoff', seed: 14, format: 'yaml' },
] as const;

describe('CLI property: routeplan solve --json prints a feasible plan, the same as the library', () => {
  it.each(CASES)('$surface seed $seed as $format', async ({ surface, seed, format }) => {
    const document = surface === 'project' ? generateProject(seed, { stops: 40 }) : generateOneOff(seed, { stops: 40 });
    const file = join(work, `${surface}-${seed}.${format}`);
    await writeFile(file, format === 'json' ? JSON.stringify(document, null, 2) : stringify(document));

    const printed = solveWithCli(file, seed);
    const { problem } = await loadProblemFile(file);
    expect(checkPlan(problem, printed)).toEqual([]);
    expect(findInsertableUnserved(problem, printed)).toEqual([]);

    const library = buildPlan(problem, await solve(problem, { timeLimitMs: 30_000, seed, maxIterations: ITERATIONS }));
    expect(reproduced(printed)).toEqual(JSON.parse(JSON.stringify(reproduced(library))));
    expect(printed.solver?.iterations).toBe(ITERATIONS);
  });
});
