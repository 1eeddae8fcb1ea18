/**
 * End-to-end: the BUILT binary on fixtures/locks.yaml, a project with stops locked to drivers,
 * some in sequence, and one lock that cannot be kept. The plan it prints passes the independent
 * checker (which reads each stop's lock) for the problem loaded from the same file.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProblemFile } from '../../src/input/index.js';
import type { Plan, PlanStopVisit } from '../../src/output/plan-types.js';
import { checkPlan } from '../support/checker.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const FIXTURE = join(ROOT, 'fixtures', 'locks.yaml');

function routeplan(args: string[], input = ''): { code: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'routeplan-xdg-')) };
  for (const key of Object.keys(env)) if (key.startsWith('ROUTEPLAN_')) delete env[key];
  const result = spawnSync(process.execPath, [join(ROOT, 'bin', 'routeplan'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env,
    input,
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  // As in cli.test.ts: compile when not run by `npm test`; what matters is that the entry point exists.
  if (process.env.npm_lifecycle_event !== 'test') {
    spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', ROOT], { cwd: ROOT, encoding: 'utf8' });
  }
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) throw new Error('the build did not produce dist/src/cli/main.js');
}, 180_000);

describe('routeplan solve fixtures/locks.yaml', () => {
  it('keeps every lock and sequence, and leaves the lock that cannot be kept unserved as locked_driver_cannot_serve', async () => {
    const result = routeplan(['solve', FIXTURE, '--json', '--time-limit', '3', '--max-iterations', '300']);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as Plan;
    const { problem } = await loadProblemFile(FIXTURE);
    expect(checkPlan(problem, plan)).toEqual([]);
    const visits = (driver: string): PlanStopVisit[] =>
      plan.routes.filter((r) => r.vehicle === driver).flatMap((r) => r.visits.filter((v): v is PlanStopVisit => v.kind === 'stop'));
    // The locked fields are echoed as given.
    expect(
      visits('Théo')
        .filter((v) => v.driver === 'Théo')
        .map((v) => [v.stop, v.sequence]),
    ).toEqual([
      ['Place Sathonay', 1],
      ['Mairie du 4e', 2],
      ['Gros Caillou', 3],
    ]);
    expect(visits('Nadia').map((v) => v.stop)).toContain('Parc de la Cerisaie');
    expect(plan.unserved).toEqual([
      expect.objectContaining({
        stop: 'Hôtel de la Marne — cold room',
        reason: 'locked_driver_cannot_serve',
        message: 'it is locked to driver "Théo", who has none of the types it requires (van)',
      }),
    ]);
  });

  it('validate: a lock to a driver the project does not have, and a sequence without driver, exit 2 naming each field', () => {
    const yaml = [
      'name: Bad locks',
      'date: 2024-06-03',
      'drivers: [{ name: Nadia, start_location: { coords: { lat: 45.77, lng: 4.83 } } }]',
      'stops:',
      '  - { name: A, location: { coords: { lat: 45.78, lng: 4.82 } }, driver: Nadja }',
      '  - { name: B, location: { coords: { lat: 45.76, lng: 4.84 } }, sequence: 1 }',
    ].join('\n');
    const result = routeplan(['validate', '-', '--input-format', 'yaml'], yaml);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`stops[0].driver: "Nadja" is not allowed; use the name of one of the project's drivers: "Nadia"`);
    expect(result.stderr).toContain('stops[1].sequence: is given without driver');
  });
});
