import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProblemFile, problemSummaryLines } from '../../src/input/index.js';
import { inputErrorAsync } from './helpers.js';
import { mayServe } from '../support/problem-builder.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures');

/** Every stop has a vehicle that may serve it, so the fixture is solvable. */
function everyStopHasACompatibleVehicle(problem: Awaited<ReturnType<typeof loadProblemFile>>['problem']): boolean {
  return problem.stops.every((_, s) => problem.vehicles.some((_, v) => mayServe(problem, v, s)));
}

describe('valid fixtures', () => {
  it('fixtures/bakery.yaml loads: a project of 4 drivers and 25 stops in Lyon', async () => {
    const loaded = await loadProblemFile(join(FIXTURES, 'bakery.yaml'));
    expect(loaded.kind).toBe('project');
    expect(loaded.warnings).toEqual([]);
    const { problem } = loaded;
    expect(problem.vehicles).toHaveLength(4);
    expect(problem.stops).toHaveLength(25);
    expect(problem.stops.some((s) => s.windows.length > 1)).toBe(true);
    expect(problem.vehicles.some((v) => v.breaks.length > 0)).toBe(true);
    expect(new Set(problem.stops.map((s) => s.priority)).size).toBeGreaterThan(2);
    expect(problem.dimensions).toEqual(['']);
    expect(everyStopHasACompatibleVehicle(problem)).toBe(true);
    for (const p of problem.locations) {
      expect(p.lat).toBeGreaterThan(45.7);
      expect(p.lat).toBeLessThan(45.8);
    }
  });

  it('fixtures/oneoff.json loads: a one-off of 3 routes and 30 orders', async () => {
    const loaded = await loadProblemFile(join(FIXTURES, 'oneoff.json'));
    expect(loaded.kind).toBe('oneoff');
    expect(loaded.warnings).toEqual([]);
    const { problem } = loaded;
    expect(problem.vehicles).toHaveLength(3);
    expect(problem.stops).toHaveLength(30);
    expect(problem.squashDuration).toBe(60);
    expect(problem.objective.balance).toBe('orders');
    // several orders at one building share a location (what squashDuration is about)
    expect(problem.locations.length).toBeLessThan(problem.stops.length + 1);
    expect(everyStopHasACompatibleVehicle(problem)).toBe(true);
  });

  it('fixtures/csv/project.yaml loads with its two CSV tables', async () => {
    const loaded = await loadProblemFile(join(FIXTURES, 'csv/project.yaml'));
    expect(loaded.kind).toBe('project');
    expect(loaded.warnings).toEqual([]);
    const { problem } = loaded;
    expect(problem.vehicles.map((v) => v.name)).toEqual(['Nadia', 'Julien', 'Léa']);
    expect(problem.stops).toHaveLength(12);
    expect(problem.stops[0]!.name).toBe('Bistrot "Le Canut"');
    expect(problem.stops[2]!.passthrough.notes).toBe('Fromages affinés:\ncomté 24 mois, saint-marcellin');
    expect(everyStopHasACompatibleVehicle(problem)).toBe(true);
  });

  it('the CSV stops table alone is refused with the YAML form explained', async () => {
    const error = await inputErrorAsync(() => loadProblemFile(join(FIXTURES, 'csv/stops.csv')));
    expect(error.message).toMatch(/also needs drivers/);
  });

  it('every valid fixture has a summary', async () => {
    for (const file of ['bakery.yaml', 'oneoff.json', 'csv/project.yaml']) {
      const lines = problemSummaryLines(await loadProblemFile(join(FIXTURES, file)));
      expect(lines.length).toBeGreaterThan(4);
    }
  });
});

/** Each invalid fixture and the field its error must name. */
const EXPECTED: Record<string, string[]> = {
  'address-without-coords.yaml': ['stops[0].location', 'stops[2].location'],
  'bad-contact.yaml': ['drivers[0].phone_number', 'stops[0].email'],
  'bad-coordinates.json': ['stops[0].location.coords.lng', 'stops[1].location.coords.lat'],
  'bad-date.yaml': ['date'],
  'bad-options.json': ['routesData[0].constraints.startTime', 'ordersData[0].duration', 'options.balanceType', 'options.squashDuration'],
  'bad-load-dimension.json': ['drivers[0].capacity.volume', 'stops[0].load.weight'],
  'bad-priority.yaml': ['stops[1].priority'],
  'bad-proof-setting.yaml': ['settings.proof'],
  'duplicate-key.json': ['date'],
  'empty-time-window.yaml': ['ordersData[0].timeWindows[1]', 'options.minimizeRoutes'],
  'entries-not-a-list.json': ['date', 'drivers', 'stops'],
  'bad-speed.json': ['drivers[0].speed'],
  'bad-time.yaml': ['stops[0].end'],
  'malformed.json': [':6:3'],
  'malformed.yaml': [':6:3'],
  'missing-name-date.yaml': ['name', 'date'],
  'negative-load.yaml': ['drivers[0].capacity.weight', 'stops[0].load', 'settings.traffic'],
  'oneoff-date.json': ['date'],
  'plain-routes-orders.json': ['routes', 'orders'],
  'routes-mix.json': ['routes'],
  'unknown-shape.json': ['(document)'],
  'workspace-uuid.json': ['workspaceUuid'],
};

describe('invalid fixtures', () => {
  const files = readdirSync(join(FIXTURES, 'invalid')).sort();

  it('every invalid fixture has an expectation here', () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(files)('fixtures/invalid/%s gives an InputError whose details name the bad field', async (file) => {
    const error = await inputErrorAsync(() => loadProblemFile(join(FIXTURES, 'invalid', file)));
    const paths = error.details.map((d) => d.path);
    for (const expected of EXPECTED[file]!) {
      expect(paths.some((p) => p === expected || (expected.startsWith(':') && p.endsWith(expected)))).toBe(true);
    }
    expect(error.details.length).toBe(EXPECTED[file]!.length);
    for (const detail of error.details) expect(detail.message.length).toBeGreaterThan(10);
  });
});
