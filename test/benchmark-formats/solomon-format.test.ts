import { describe, expect, it } from 'vitest';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import { formatOf } from '../../src/input/read.js';
import { SCALAR_DIMENSION } from '../../src/model/problem.js';
import { inputError } from '../support/input-error.js';

/** Depot at (0,0) due 230; customer 1 at (1,3), customer 2 at (3,4), customer 3 at (10,0). */
const ROWS = [
  '    0          0       0           0       0         230           0',
  '    1          1       3          10     161         171          10',
  '    2          3       4           7      50          60          10',
  '    3         10       0          13       0         200           0',
];

function solomonText(rows: string[] = ROWS, eol = '\r\n', vehicles = '  25         200'): string {
  return [
    'TINY1',
    '',
    'VEHICLE',
    'NUMBER     CAPACITY',
    vehicles,
    '',
    'CUSTOMER',
    'CUST NO.   XCOORD.   YCOORD.    DEMAND   READY TIME   DUE DATE   SERVICE TIME',
    ' ',
    ...rows,
    '',
  ].join(eol);
}

function load(text = solomonText()) {
  return loadBenchmarkText(text, 'solomon', 'TINY1');
}

describe('Solomon / Homberger VRPTW text', () => {
  it('window mapping: a Solomon window bounds the start of service, so [ready, due] becomes [ready, due + service] (tenths)', () => {
    const problem = load();
    expect(problem.stops[0]!.windows).toEqual([{ start: 1610, end: 1810 }]);
    expect(problem.stops[0]!.duration).toBe(100);
    expect(problem.stops[2]!.windows).toEqual([{ start: 0, end: 2000 }]);
  });

  it('depot due date is the latest return: shiftEnd with endLocation = depot; depot ready is a flexible earliest start', () => {
    const problem = load(solomonText([ROWS[0]!.replace('       0         230', '      15         230'), ...ROWS.slice(1)]));
    for (const vehicle of problem.vehicles) {
      expect(vehicle.startLocation).toBe(0);
      expect(vehicle.endLocation).toBe(0);
      expect(vehicle.shiftEnd).toBe(2300);
      expect(vehicle.earliestStart).toBe(150);
      expect(vehicle.flexibleStart).toBe(true);
      expect(vehicle.maxOvertime).toBe(0);
      expect(vehicle.breaks).toEqual([]);
    }
  });

  it('stop_index = customer number − 1: the depot is location 0 and no stop; customer c is stop c − 1 at location c', () => {
    const problem = load();
    expect(problem.stops.map((s) => [s.index, s.name, s.location])).toEqual([
      [0, '1', 1],
      [1, '2', 2],
      [2, '3', 3],
    ]);
    expect(problem.locations[0]).toEqual({ lng: 0, lat: 0 });
    expect(problem.locations[1]).toEqual({ lng: 1, lat: 3 });
  });

  it('trunc1: arcs are the Euclidean distance truncated to one decimal, in integer tenths; travel time = distance', () => {
    const problem = load();
    const n = problem.travel.size;
    const d = (i: number, j: number) => problem.travel.distance[i * n + j];
    expect(d(0, 1)).toBe(31); // √10 = 3.162… → 3.1 (rounding would give 3.2)
    expect(d(0, 2)).toBe(50); // 3-4-5 triangle, exact
    expect(d(1, 2)).toBe(22); // √5 = 2.236… → 2.2
    expect(d(2, 0)).toBe(d(0, 2));
    expect(d(3, 3)).toBe(0);
    expect(problem.travel.durations).toHaveLength(1);
    expect(Array.from(problem.travel.durations[0]!)).toEqual(Array.from(problem.travel.distance));
    expect(problem.travelSource).toEqual({ kind: 'euclidean', rounding: 'trunc1' });
    expect(problem.units).toEqual({ timePerSecond: 10, distancePerReported: 10 });
  });

  it('objective is total distance only; fleet = VEHICLE NUMBER with a scalar capacity; all stops equal priority', () => {
    const problem = load();
    expect(problem.surface).toBe('benchmark');
    expect(problem.name).toBe('TINY1');
    expect(problem.objective).toEqual({ minimizeRoutes: false, cost: 'distance', balance: 'none' });
    expect(problem.vehicles).toHaveLength(25);
    expect(problem.dimensions).toEqual([SCALAR_DIMENSION]);
    expect(Array.from(problem.vehicles[3]!.capacity)).toEqual([200]);
    expect(problem.stops.map((s) => Array.from(s.load))).toEqual([[10], [7], [13]]);
    expect(problem.stops.every((s) => s.priority === 1 && s.durationGiven && s.maxLateness === 0)).toBe(true);
    expect(problem.compatible).toHaveLength(25 * 3);
    expect(problem.compatible.every((c) => c === 1)).toBe(true);
    expect(problem.allowOverload).toBe(false);
    expect(problem.squashDuration).toBeNull();
  });

  it('line endings: CRLF (Solomon) and LF (Homberger) files give the same problem', () => {
    const crlf = load(solomonText(ROWS, '\r\n'));
    const lf = load(solomonText(ROWS, '\n'));
    expect(lf.stops).toEqual(crlf.stops);
    expect(Array.from(lf.travel.distance)).toEqual(Array.from(crlf.travel.distance));
  });

  // Through the reader's format rule for a file whose extension does not tell (input/read.ts).
  it('format detection tells Solomon text from VRPLIB', () => {
    expect(formatOf('r101.txt', solomonText())).toBe('solomon');
    expect(formatOf('x.txt', 'NAME : x\nNODE_COORD_SECTION\n1 0 0\n')).toBe('vrplib');
    expect(formatOf('x.txt', '{"stops": []}')).toBe('json');
  });

  describe('malformed input raises InputError naming the line', () => {
    it('a customer row with a missing field', () => {
      const error = inputError(() =>
        load(solomonText([ROWS[0]!, '    1          1       3          10     161         171', ...ROWS.slice(2)])),
      );
      expect(error.message).toMatch(/line 11: expected 7 numbers/);
      expect(error.details).toEqual([{ path: 'line 11', message: expect.stringContaining('expected 7 numbers') }]);
    });

    it('a field that is not a number', () => {
      const error = inputError(() => load(solomonText([ROWS[0]!, ROWS[1]!, ROWS[2]!.replace(' 7 ', ' x7 ')])));
      expect(error.message).toMatch(/line 12: DEMAND is not a number: "x7"/);
    });

    it('customer numbers that skip', () => {
      const error = inputError(() => load(solomonText([ROWS[0]!, ROWS[1]!, ROWS[3]!])));
      expect(error.message).toMatch(/line 12: .*expected 2, found 3/);
    });

    it('a due date before the ready time', () => {
      const error = inputError(() =>
        load(solomonText([ROWS[0]!, ROWS[1]!.replace('161         171', '171         161'), ...ROWS.slice(2)])),
      );
      expect(error.message).toMatch(/line 11: customer 1: DUE DATE 161 is before READY TIME 171/);
    });

    it('a first row that is not the depot', () => {
      const error = inputError(() => load(solomonText(ROWS.slice(1))));
      expect(error.message).toMatch(/line 10: the first CUSTOMER row must be the depot/);
    });

    it('a vehicle block with a non-integer NUMBER', () => {
      const error = inputError(() => load(solomonText(ROWS, '\r\n', '  2.5   200')));
      expect(error.message).toMatch(/line 5: vehicle NUMBER must be a positive integer/);
    });

    it('a missing CUSTOMER block', () => {
      const error = inputError(() => load('TINY1\nVEHICLE\nNUMBER CAPACITY\n25 200\n'));
      expect(error.message).toMatch(/no CUSTOMER line found/);
    });

    it('an empty file', () => {
      expect(inputError(() => load('  \r\n')).message).toMatch(/empty/);
    });

    it('a time finer than a tenth', () => {
      const error = inputError(() => load(solomonText([ROWS[0]!, ROWS[1]!.replace('161', '161.25'), ...ROWS.slice(2)])));
      expect(error.message).toMatch(/line 11: READY TIME 161.25 has more than one decimal/);
    });
  });
});
