/**
 * The README's first command on a copy of the repository as a new user has it: `npm install`'s
 * build (`prepare`, here run on the copy with the installed packages beside it), then the first
 * `npx routeplan …`, which npm runs after installing the folder into its npx cache as a link and
 * running the link's `prepare` again. That second `prepare` must find dist/ up to date and build
 * nothing, so the first plan prints within seconds (issue 28, "First run").
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';
import { buildInputsHash } from '../../tools/build-inputs.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** What the first plan must never wait for: the build, checked by the files it writes. */
const BUILT = ['dist/.build-inputs', 'dist/src/bundle/main.js', 'dist/web/index.html'];

let copy: string;
let npmCache: string;

/** The README's set-up command (its first line): `npm install && <the first plan>`. */
function readmeFirstCommand(): { install: string; firstPlan: string } {
  const block = /```sh\n([^\n]+)\n/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  const [install = '', firstPlan = ''] = (block?.[1] ?? '').split(' && ');
  return { install, firstPlan };
}

/** The repository as a clone has it: the files git tracks, and new ones it does not ignore. */
function copyRepository(to: string): void {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter((name) => name !== '')) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    try {
      cpSync(join(ROOT, file), join(to, file));
    } catch {
      // A tracked file deleted in the working tree: a clone of this state has none either.
    }
  }
}

/** npm's environment without what the `npm test` around us set, with an npm cache of its own. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^npm_/i.test(name) && !name.startsWith('ROUTEPLAN_')) env[name] = value;
  // Offline: the link's install must need nothing from the registry.
  return { ...env, npm_config_cache: npmCache, npm_config_offline: 'true', npm_config_update_notifier: 'false', NO_COLOR: '1' };
}

function modifiedTimes(): number[] {
  return BUILT.map((file) => statSync(join(copy, file)).mtimeMs);
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'routeplan-first-run-'));
  npmCache = mkdtempSync(join(tmpdir(), 'routeplan-npm-cache-'));
  copyRepository(copy);
  // The install's build, with the installed packages; then the copy keeps none, so nothing the
  // first plan runs can write into them.
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  const prepare = spawnSync(process.execPath, ['tools/prepare.js'], { cwd: copy, encoding: 'utf8', env: npmEnv() });
  unlinkSync(join(copy, 'node_modules'));
  if (prepare.status !== 0) throw new Error(`the install's build (prepare) failed:\n${prepare.stdout}\n${prepare.stderr}`);
}, 300_000);

afterAll(() => {
  rmSync(copy, { recursive: true, force: true });
  rmSync(npmCache, { recursive: true, force: true });
});

describe('the first run, as the README gives it', () => {
  it('sets up with `npm install`, whose build (prepare) keeps the hash of what it was built from', () => {
    expect(readmeFirstCommand().install).toBe('npm install');
    expect(readFileSync(join(copy, 'dist/.build-inputs'), 'utf8').trim()).toBe(buildInputsHash(copy));
  });

  it('prints the first plan without a second build (npx runs prepare on the folder, which finds dist/ up to date)', () => {
    const { firstPlan } = readmeFirstCommand();
    expect(firstPlan).toMatch(/^npx routeplan solve fixtures\/\S+$/);
    const before = modifiedTimes();
    const started = performance.now();
    const result = spawnSync('sh', ['-c', firstPlan], { cwd: copy, encoding: 'utf8', env: npmEnv(), timeout: 120_000 });
    const seconds = (performance.now() - started) / 1000;
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Plan: \d+ routes · \d+ served · 0 unserved/);
    expect(modifiedTimes()).toEqual(before);
    console.log(`first plan after the install: ${seconds.toFixed(1)} s`);

    // The same command's plan as JSON passes the independent checker.
    const json = spawnSync('sh', ['-c', `${firstPlan} --json --max-iterations 300`], {
      cwd: copy,
      encoding: 'utf8',
      env: npmEnv(),
      timeout: 120_000,
    });
    expect(json.status, json.stderr).toBe(0);
    const fixture = firstPlan.split(' ').at(-1)!;
    const { problem } = loadProblemDocument(parse(readFileSync(join(copy, fixture), 'utf8')));
    expect(checkPlan(problem, JSON.parse(json.stdout) as Plan)).toEqual([]);
  });

  it('builds again once an input changes: the hash covers the sources, not the tests or dist/', () => {
    const built = buildInputsHash(copy);
    writeFileSync(join(copy, 'test/added.test.ts'), '// a test is no input of the build\n');
    writeFileSync(join(copy, 'dist/extra.txt'), 'neither is what the build wrote\n');
    expect(buildInputsHash(copy)).toBe(built);
    const source = join(copy, 'src/cli/main.ts');
    writeFileSync(source, `${readFileSync(source, 'utf8')}\n// changed\n`);
    expect(buildInputsHash(copy)).not.toBe(built);
  });
});
