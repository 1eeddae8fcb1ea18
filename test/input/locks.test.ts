/** Locks in project files (decisions.md "Locks"): `driver` and `sequence` on a stop, in JSON/YAML and in the CSV stops table. */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProblemFile } from '../../src/input/index.js';
import { detailAt, driver, inputError, inputErrorAsync, load, oneoff, order, project, stop } from './helpers.js';

const twoDrivers = [driver('Camille'), driver('Lucas')];

describe('stop.driver: locks the stop to a driver of the project', () => {
  it('a lock to a driver of the project is accepted, carried to the problem and echoed as given', () => {
    const { problem } = load(project({ drivers: twoDrivers, stops: [stop('A', { driver: 'Lucas', sequence: 2 }), stop('B')] }));
    expect(problem.stops[0]!.lock).toEqual({ driver: 'Lucas', sequence: 2 });
    expect(problem.stops[0]!.passthrough).toMatchObject({ driver: 'Lucas', sequence: 2 });
    expect(problem.stops[1]!.lock).toBeUndefined();
  });

  it('a locked stop may be served by its driver only', () => {
    const { problem } = load(project({ drivers: twoDrivers, stops: [stop('A', { driver: 'Lucas' })] }));
    expect(Array.from(problem.compatible)).toEqual([0, 1]);
    expect(problem.stops[0]!.lock).toEqual({ driver: 'Lucas', sequence: null });
  });

  it('beside stops open to every driver, typed and locked stops keep their own drivers', () => {
    const drivers = [driver('Camille', { types: ['fridge'] }), driver('Lucas')];
    const stops = [stop('A'), stop('B', { types: ['fridge'] }), stop('C', { driver: 'Lucas' }), stop('D')];
    const { problem } = load(project({ drivers, stops }));
    // compatible[v * stops + s]: Camille, then Lucas.
    expect(Array.from(problem.compatible)).toEqual([1, 1, 0, 1, 1, 0, 1, 1]);
  });

  it('a name that is no driver of the project is an error at stops[i].driver listing the drivers', () => {
    const error = inputError(() => load(project({ drivers: twoDrivers, stops: [stop('A'), stop('B', { driver: 'Lucsa' })] })));
    expect(detailAt(error, 'stops[1].driver').message).toBe(
      `"Lucsa" is not allowed; use the name of one of the project's drivers: "Camille", "Lucas"`,
    );
  });

  it('a lock in a project without drivers is an error', () => {
    const error = inputError(() => load(project({ drivers: [], stops: [stop('A', { driver: 'Lucas' })] })));
    expect(detailAt(error, 'stops[0].driver').message).toMatch(/^"Lucas" is not allowed; the project has no driver to lock the stop to/);
  });

  it('a name two drivers share is an error: the lock would not say which', () => {
    const error = inputError(() => load(project({ drivers: [driver('Lucas'), driver('Lucas')], stops: [stop('A', { driver: 'Lucas' })] })));
    expect(detailAt(error, 'stops[0].driver').message).toMatch(/^"Lucas" names 2 drivers \(drivers\[0\], drivers\[1\]\)/);
  });

  it('a driver that is not a text is an error', () => {
    const error = inputError(() => load(project({ stops: [stop('A', { driver: 3 })] })));
    expect(detailAt(error, 'stops[0].driver').message).toBe('3 is not allowed; use a non-empty name');
  });

  it('lock errors are reported with every other error at once', () => {
    const error = inputError(() =>
      load(project({ drivers: [driver('D', { speed: 'turbo' })], stops: [stop('A', { driver: 'X', priority: 'urgent' })] })),
    );
    expect(error.details.map((d) => d.path).sort()).toEqual(['drivers[0].speed', 'stops[0].driver', 'stops[0].priority']);
  });
});

describe('stop.sequence: orders the stops locked to one driver', () => {
  it.each([0, -1, 1.5, '2'])('%j is not a sequence: a whole number ≥ 1', (value) => {
    const error = inputError(() => load(project({ stops: [stop('A', { driver: 'Camille', sequence: value })] })));
    expect(detailAt(error, 'stops[0].sequence').message).toMatch(/is not allowed; use a whole number ≥ 1/);
  });

  it('a sequence without driver is an error', () => {
    const error = inputError(() => load(project({ stops: [stop('A', { sequence: 1 })] })));
    expect(detailAt(error, 'stops[0].sequence').message).toBe(
      'is given without driver; a sequence orders the stops locked to one driver: give driver too, or remove sequence',
    );
  });
});

describe('one-off requests have no locks', () => {
  it('driver and sequence on an order are unknown fields (a warning), not locks', () => {
    const { problem, warnings } = load(oneoff({ ordersData: [order('A', { driver: 'Van 1', sequence: 1 })] }));
    expect(problem.stops[0]!.lock).toBeUndefined();
    expect(warnings.map((w) => w.path)).toEqual(expect.arrayContaining(['ordersData[0].driver', 'ordersData[0].sequence']));
  });
});

describe('locks in the CSV stops table', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function csvProject(stopsCsv: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'routeplan-locks-'));
    dirs.push(dir);
    await writeFile(join(dir, 'drivers.csv'), 'name,start_lat,start_lng\nNadia,45.77,4.83\nJulien,45.77,4.83\n');
    await writeFile(join(dir, 'stops.csv'), stopsCsv);
    await writeFile(join(dir, 'project.yaml'), 'name: Locks\ndate: 2024-06-03\ndrivers: drivers.csv\nstops: stops.csv\n');
    return join(dir, 'project.yaml');
  }

  it('the driver and sequence columns lock stops; empty cells lock nothing', async () => {
    const file = await csvProject('name,lat,lng,driver,sequence\nA,45.76,4.82,Julien,2\nB,45.75,4.84,Nadia,\nC,45.78,4.81,,\n');
    const { problem } = await loadProblemFile(file);
    expect(problem.stops.map((s) => s.lock)).toEqual([{ driver: 'Julien', sequence: 2 }, { driver: 'Nadia', sequence: null }, undefined]);
  });

  it('errors name the row and column', async () => {
    const file = await csvProject('name,lat,lng,driver,sequence\nA,45.76,4.82,Julia,1\nB,45.75,4.84,,3\nC,45.78,4.81,Nadia,first\n');
    const error = await inputErrorAsync(() => loadProblemFile(file));
    expect(error.details.map((d) => d.path).sort()).toEqual([
      'stops.csv row 2, column driver',
      'stops.csv row 3, column sequence',
      'stops.csv row 4, column sequence',
    ]);
    expect(detailAt(error, 'stops.csv row 2, column driver').message).toBe(
      `"Julia" is not allowed; use the name of one of the project's drivers: "Nadia", "Julien"`,
    );
  });
});
