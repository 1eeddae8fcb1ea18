import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProblemFile, problemSummaryLines } from '../../src/input/index.js';
import { driver, load, oneoff, order, project, route, stop } from './helpers.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures');

describe('problemSummaryLines (routeplan validate)', () => {
  it('summarises a project: name and date, vehicles, stops, loads, windows and features', async () => {
    const lines = problemSummaryLines(await loadProblemFile(join(FIXTURES, 'bakery.yaml')));
    expect(lines[0]).toBe('Project "Boulangerie Saint-Jean — tournée du matin" for 2024-05-14');
    expect(lines[1]).toMatch(/^Vehicles: 4 \(types: van, refrigerated, bike; 2 with breaks; 1 open-ended/);
    expect(lines[2]).toMatch(/^Stops: 25 \(24 with time windows; 2 with several windows/);
    expect(lines).toContain('Locations: 25 distinct');
    expect(lines).toContain('Loads: 1 dimension (number)');
    expect(lines).toContain('Time windows: from 05:45 to 12:00');
    expect(lines.find((l) => l.startsWith('Features:'))).toBe(
      'Features: priorities, breaks, balance by working time, lateness up to 5 min, overtime up to 15 min, traffic ×1.2',
    );
  });

  it('summarises a one-off request with its options', () => {
    const lines = problemSummaryLines(
      load(
        oneoff({
          routesData: [route('R', { tags: ['cold'], capacity: { weight: 10 } })],
          ordersData: [order('A', { tags: ['cold'], timeWindows: [{ startTime: '22:00', endTime: '02:00' }] })],
          options: { minimizeRoutes: true, squashDuration: 2, allowVisitLateness: true, allowCapacityOverload: true },
        }),
      ),
    );
    expect(lines[0]).toBe('One-off request (no date; clock times of one day)');
    expect(lines).toContain('Loads: 1 dimension (weight)');
    expect(lines.find((l) => l.startsWith('Features:'))).toBe(
      'Features: overnight times, minimize routes, squash duration 2 min, capacity overload allowed, lateness allowed',
    );
  });

  it('says when loads are ignored and when stops have no duration', () => {
    const lines = problemSummaryLines(load(project({ stops: [stop('A', { load: 3 })] })));
    expect(lines).toContain('Loads: ignored (no vehicle has a capacity)');
    expect(lines[2]).toBe('Stops: 1 (1 without duration (no ETAs))');
    expect(lines.find((l) => l.startsWith('Features:'))).toBe('Features: none beyond the basics');
    expect(lines.at(-1)).toBe('Warnings: 1');
  });

  it('mentions strict start and shortest distance', () => {
    const lines = problemSummaryLines(
      load(project({ drivers: [driver('D', { shift_start: '07:00' })], settings: { strict_start: true, shortest_distance: true } })),
    );
    expect(lines.find((l) => l.startsWith('Features:'))).toBe('Features: strict start, shortest distance');
  });
});
