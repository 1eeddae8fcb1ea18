/**
 * End-to-end: runs the BUILT binary (`node bin/routeplan …`) on the fixtures, as a user would.
 * `npm test` builds first; run alone (`npx vitest run test/e2e`), this file builds in beforeAll.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/output/plan-types.js';
import { reproduced } from '../support/reproduced.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'routeplan');
const FIXTURES = join(ROOT, 'fixtures');
const STACK_LINE = /\n\s+at .+\(?.*:\d+:\d+\)?/;
const ANSI = /\u001b\[[0-9;]*m/;
/** Bounded runs: an iteration limit keeps them reproducible, the time limit keeps them short. */
const QUICK = ['--time-limit', '3', '--max-iterations', '300'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const key of Object.keys(env)) if (key.startsWith('ROUTEPLAN_') && !(key in extra)) delete env[key];
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  // The user's own config file must not leak into the tests.
  env.XDG_CONFIG_HOME = extra.XDG_CONFIG_HOME ?? mkdtempSync(join(tmpdir(), 'routeplan-xdg-'));
  return env;
}

function run(args: string[], options: { input?: string; cwd?: string; env?: Record<string, string> } = {}): Run {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    input: options.input ?? '',
    encoding: 'utf8',
    env: cleanEnv(options.env),
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function fixture(...parts: string[]): string {
  return join(FIXTURES, ...parts);
}

function invalidFixtures(): string[] {
  const dir = fixture('invalid');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /\.(json|ya?ml|csv)$/.test(name))
    .sort()
    .map((name) => join(dir, name));
}

/** A deterministic one-off problem of `orders` orders around Lyon (a small LCG, no Math.random). */
function largeOneOff(orders: number, routes: number): unknown {
  let state = 12345;
  const next = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const depot = [{ latitude: 45.76, longitude: 4.83 }];
  return {
    routesData: Array.from({ length: routes }, (_, i) => ({
      name: `Van ${i + 1}`,
      constraints: { startTime: '06:00', endTime: '20:00', capacity: 100, startLocations: depot, endLocations: depot },
    })),
    ordersData: Array.from({ length: orders }, (_, i) => ({
      name: `Order ${i + 1}`,
      locations: [{ latitude: 45.7 + next() * 0.12, longitude: 4.77 + next() * 0.12 }],
      duration: 5,
      load: 1,
    })),
  };
}

function countStops(plan: Plan): number {
  return plan.routes.reduce((sum, route) => sum + route.visits.filter((visit) => visit.kind === 'stop').length, 0);
}

beforeAll(() => {
  // `npm test` has just compiled; otherwise compile now. tsc's exit status is ignored on purpose:
  // it still emits when another area is mid-edit, and what matters is that the entry point exists.
  if (process.env.npm_lifecycle_event !== 'test') {
    spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', ROOT], { cwd: ROOT, encoding: 'utf8' });
  }
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) throw new Error('the build did not produce dist/src/cli/main.js');
}, 180_000);

describe('routeplan validate', () => {
  it('valid project: summary on stdout, exit 0', () => {
    const result = run(['validate', fixture('bakery.yaml')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Project "Boulangerie Saint-Jean');
    expect(result.stdout).toMatch(/Vehicles: 4/);
    expect(result.stdout).toMatch(/Stops: 25/);
    expect(result.stdout).toContain('Valid.');
  });

  it('valid one-off and CSV project: exit 0', () => {
    expect(run(['validate', fixture('oneoff.json')]).code).toBe(0);
    const csv = run(['validate', fixture('csv', 'project.yaml')]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toContain('Stops: 12');
  });

  it('--json gives a machine-readable result', () => {
    const result = run(['validate', fixture('oneoff.json'), '--json']);
    expect(result.code, result.stderr).toBe(0);
    const body = JSON.parse(result.stdout) as { valid: boolean; kind: string; summary: string[]; warnings: unknown[] };
    expect(body.valid).toBe(true);
    expect(body.kind).toBe('oneoff');
    expect(body.summary.length).toBeGreaterThan(2);
  });

  it('stdin ("-") with --input-format', () => {
    const result = run(['validate', '-', '--input-format', 'yaml'], { input: readFileSync(fixture('bakery.yaml'), 'utf8') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Project "Boulangerie Saint-Jean');
  });

  it('the invalid fixtures exist', () => {
    expect(invalidFixtures().length).toBeGreaterThan(0);
  });

  for (const file of invalidFixtures()) {
    const name = file.slice(FIXTURES.length + 1);
    it(`invalid input ${name}: exit 2, error names a field, no stack trace`, () => {
      const result = run(['validate', file]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^routeplan: error: /);
      expect(result.stderr).not.toMatch(STACK_LINE);
      const json = run(['solve', file, '--json', ...QUICK]);
      expect(json.code, json.stderr).toBe(2);
      expect(json.stderr).not.toMatch(STACK_LINE);
      const body = JSON.parse(json.stdout) as {
        error: { code: string; message: string; details: Array<{ path: string; message: string }> };
      };
      expect(body.error.message.length).toBeGreaterThan(0);
      expect(body.error.details.length).toBeGreaterThan(0);
      for (const detail of body.error.details) {
        expect(detail.path.length).toBeGreaterThan(0);
        expect(result.stderr).toContain(detail.path);
      }
    });
  }
});

describe('routeplan solve', () => {
  it('project: tables on stdout, exit 0', () => {
    const result = run(['solve', fixture('bakery.yaml'), ...QUICK]);
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Plan: \d+ routes? · \d+ served · \d+ unserved/);
    expect(result.stdout).toMatch(/Route 1: \S/);
    for (const head of ['Arrival', 'Start', 'Finish', 'Load after', 'Late']) expect(result.stdout).toContain(head);
    expect(result.stdout).not.toMatch(ANSI);
  });

  it('--json: the plan contract version 1 on stdout, every stop either served or unserved', () => {
    const result = run(['solve', fixture('oneoff.json'), '--json', ...QUICK]);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as Plan;
    expect(plan.version).toBe(1);
    expect(Object.keys(plan)).toEqual(['version', 'summary', 'routes', 'unserved', 'travel', 'solver']);
    expect(countStops(plan) + plan.unserved.length).toBe(30);
    expect(plan.summary.served).toBe(countStops(plan));
    const route = plan.routes[0]!;
    expect(route.start.time).toMatch(/^\d{2}:\d{2}$/);
    expect(typeof route.start.time_s).toBe('number');
    const visit = route.visits.find((v) => v.kind === 'stop')!;
    expect(Object.keys(visit).slice(0, 14)).toEqual([
      'kind',
      'stop',
      'stop_index',
      'location',
      'travel_s',
      'distance_m',
      'arrival_s',
      'start_s',
      'finish_s',
      'arrival',
      'start',
      'finish',
      'late_s',
      'load_after',
    ]);
  });

  it('--json: carried-through fields appear on the visits', () => {
    const plan = JSON.parse(run(['solve', fixture('oneoff.json'), '--json', ...QUICK]).stdout) as Plan;
    const visits = plan.routes.flatMap((route) => route.visits).filter((visit) => visit.kind === 'stop');
    expect(visits.some((visit) => typeof visit.displayOrderId === 'string')).toBe(true);
  });

  it('CSV project: exit 0', () => {
    const result = run(['solve', fixture('csv', 'project.yaml'), '--json', ...QUICK]);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as Plan;
    expect(countStops(plan) + plan.unserved.length).toBe(12);
  });

  it('stdin input gives the same plan as the file (same seed and iteration limit)', () => {
    // A generous time limit, so that the iteration limit (reproducible) is what stops both runs.
    const bounded = ['--seed', '3', '--max-iterations', '300', '--time-limit', '60'];
    const fromFile = run(['solve', fixture('bakery.yaml'), '--json', ...bounded]);
    const fromStdin = run(['solve', '-', '--input-format', 'yaml', '--json', ...bounded], {
      input: readFileSync(fixture('bakery.yaml'), 'utf8'),
    });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    const strip = (text: string) => reproduced(JSON.parse(text) as Plan);
    expect(strip(fromStdin.stdout)).toEqual(strip(fromFile.stdout));
  });

  it('-o plan.geojson and -o plan.html write the files; stdout keeps the tables', () => {
    const dir = mkdtempSync(join(tmpdir(), 'routeplan-e2e-'));
    const geo = run(['solve', fixture('bakery.yaml'), '-o', join(dir, 'plan.geojson'), ...QUICK]);
    expect(geo.code, geo.stderr).toBe(0);
    expect(geo.stdout).toContain('Route 1:');
    expect(geo.stderr).toContain('plan.geojson');
    const collection = JSON.parse(readFileSync(join(dir, 'plan.geojson'), 'utf8')) as {
      type: string;
      features: Array<{ type: string; geometry: { type: string; coordinates: unknown } }>;
    };
    expect(collection.type).toBe('FeatureCollection');
    expect(collection.features.some((f) => f.geometry.type === 'LineString')).toBe(true);
    expect(collection.features.every((f) => f.type === 'Feature')).toBe(true);

    const html = run(['solve', fixture('bakery.yaml'), '-o', join(dir, 'plan.html'), '--quiet', ...QUICK]);
    expect(html.code, html.stderr).toBe(0);
    expect(html.stdout).toBe('');
    const page = readFileSync(join(dir, 'plan.html'), 'utf8');
    expect(page).toContain('<svg');
    expect(page).toContain('Boulangerie Saint-Jean');
    expect(page).not.toMatch(/https?:\/\//);
  });

  it('--output-format overrides the extension; an unknown extension is a usage error (exit 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'routeplan-e2e-'));
    const forced = run(['solve', fixture('oneoff.json'), '-o', join(dir, 'plan.out'), '--output-format', 'json', '--quiet', ...QUICK]);
    expect(forced.code, forced.stderr).toBe(0);
    expect((JSON.parse(readFileSync(join(dir, 'plan.out'), 'utf8')) as Plan).version).toBe(1);
    const unknown = run(['solve', fixture('oneoff.json'), '-o', join(dir, 'plan.txt'), ...QUICK]);
    expect(unknown.code, unknown.stderr).toBe(2);
    expect(unknown.stderr).toContain('--output');
  });

  it('exit 5 only with --fail-on-unserved when stops are left unserved', () => {
    const dir = mkdtempSync(join(tmpdir(), 'routeplan-e2e-'));
    const problem = {
      routesData: [
        {
          name: 'Van',
          constraints: { startTime: '08:00', endTime: '17:00', startLocations: [{ latitude: 45.76, longitude: 4.83 }] },
        },
      ],
      ordersData: [
        { name: 'Fits', locations: [{ latitude: 45.77, longitude: 4.84 }], duration: 10 },
        // A 60-minute service cannot fit a 30-minute window.
        {
          name: 'Too long',
          locations: [{ latitude: 45.75, longitude: 4.85 }],
          duration: 60,
          timeWindows: [{ startTime: '09:00', endTime: '09:30' }],
        },
      ],
    };
    const file = join(dir, 'unserved.json');
    writeFileSync(file, JSON.stringify(problem));
    const plain = run(['solve', file, '--json', ...QUICK]);
    expect(plain.code, plain.stderr).toBe(0);
    const plan = JSON.parse(plain.stdout) as Plan;
    expect(plan.unserved.map((entry) => [entry.stop, entry.reason])).toEqual([['Too long', 'duration_exceeds_window']]);
    const strict = run(['solve', file, '--fail-on-unserved', ...QUICK]);
    expect(strict.code, strict.stderr).toBe(5);
    expect(strict.stdout).toContain('Unserved: 1 stop');
    expect(strict.stdout).toContain('duration_exceeds_window');
  });
});

describe('command-line conventions', () => {
  it('exit 2: unknown option, with a JSON error on stdout under --json', () => {
    const result = run(['solve', fixture('bakery.yaml'), '--frobnicate', '--json']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("unknown option '--frobnicate'");
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'usage' } });
  });

  it('exit 2: missing file, no stack trace', () => {
    const result = run(['solve', join(FIXTURES, 'does-not-exist.yaml')]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('does-not-exist.yaml');
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('exit 2: "-" with CSV and no --input-format (JSON and YAML are recognised by their content)', () => {
    const result = run(['solve', '-'], { input: 'name,lat,lng\nA,1,2\n' });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('--input-format');
  });

  it('"-" reads JSON or YAML without --input-format, and -o - writes the plan alone to stdout', () => {
    const yaml = run(['validate', '-'], { input: readFileSync(fixture('bakery.yaml'), 'utf8') });
    expect(yaml.code, yaml.stderr).toBe(0);
    const json = run(['solve', '-', '-o', '-', '--max-iterations', '10'], { input: readFileSync(fixture('oneoff.json'), 'utf8') });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).version).toBe(1);
    const geojson = run(['solve', '-', '-o', '-', '--output-format', 'geojson', '--max-iterations', '10'], {
      input: readFileSync(fixture('oneoff.json'), 'utf8'),
    });
    expect(JSON.parse(geojson.stdout).type).toBe('FeatureCollection');
  });

  it('exit 2: --output-format without --output', () => {
    const result = run(['solve', fixture('bakery.yaml'), '--output-format', 'html']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('--output-format');
  });

  it('exit 2: bad flag values name the flag', () => {
    const result = run(['solve', fixture('bakery.yaml'), '--threads', 'lots']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('--threads');
    expect(run(['solve', fixture('bakery.yaml'), '--max-iterations', '-3']).stderr).toContain('--max-iterations');
  });

  it('exit 2: a bad project config file names the file and the key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'routeplan-e2e-'));
    writeFileSync(join(dir, 'routeplan.config.yaml'), 'threads: 0\n');
    const result = run(['solve', fixture('bakery.yaml'), ...QUICK], { cwd: dir });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(join(dir, 'routeplan.config.yaml'));
    expect(result.stderr).toContain('threads');
  });

  it('exit 2: a bad environment variable names it', () => {
    const result = run(['solve', fixture('bakery.yaml')], { env: { ROUTEPLAN_TIME_LIMIT: 'soon' } });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('ROUTEPLAN_TIME_LIMIT');
  });

  it('no colour and no spinner when not on a terminal', () => {
    const result = run(['solve', fixture('bakery.yaml'), ...QUICK]);
    expect(result.stdout).not.toMatch(ANSI);
    expect(result.stderr).not.toMatch(ANSI);
    expect(result.stderr).not.toContain('Solving');
  });

  it('exit 2: no command at all prints the help on stderr', () => {
    const result = run([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: routeplan');
  });

  it('--help and --version exit 0', () => {
    expect(run(['--help']).code).toBe(0);
    const version = run(['--version']);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('exit 130: SIGINT stops the solve promptly', async () => {
    // Large enough that the search is still running when the signal arrives.
    const file = join(mkdtempSync(join(tmpdir(), 'routeplan-e2e-')), 'large.json');
    writeFileSync(file, JSON.stringify(largeOneOff(1000, 20)));
    const child = spawn(process.execPath, [BIN, 'solve', file, '--time-limit', '120', '--json'], {
      cwd: ROOT,
      env: cleanEnv(),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let signalled = 0;
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    // Whether the signal lands while loading or while solving, the outcome is exit 130.
    setTimeout(() => {
      signalled = Date.now();
      child.kill('SIGINT');
    }, 2000);
    const code = await exited;
    expect(code).toBe(130);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(stderr).toContain('interrupted');
    expect(stderr).not.toMatch(STACK_LINE);
    // Interrupted while searching: the best plan so far; before the first plan: an `interrupted` error.
    const body = JSON.parse(stdout) as Partial<Plan> & { error?: { code: string } };
    if (body.error) expect(body.error.code).toBe('interrupted');
    else expect(body.version).toBe(1);
  });
});
