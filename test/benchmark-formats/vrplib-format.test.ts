import { describe, expect, it } from 'vitest';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import { inputError } from '../support/input-error.js';

interface Parts {
  header?: string[];
  coords?: string[];
  demands?: string[];
  depots?: string[];
}

/** Depot (node 1) at (0,0); customers at (2,3), (3,4), (1,1); CRLF and tabs as in the X files. */
function vrpText(parts: Parts = {}): string {
  const header = parts.header ?? [
    'NAME : \tX-tiny\t',
    'COMMENT : \t"test"\t',
    'TYPE : \tCVRP\t',
    'DIMENSION : \t4\t',
    'EDGE_WEIGHT_TYPE : \tEUC_2D\t',
    'CAPACITY : \t10\t',
  ];
  const coords = parts.coords ?? ['1\t0\t0', '2\t2\t3', '3\t3\t4', '4\t1\t1'];
  const demands = parts.demands ?? ['1\t0\t', '2\t4\t', '3\t5\t', '4\t6\t'];
  const depots = parts.depots ?? ['\t1\t', '\t-1\t'];
  return [
    ...header,
    'NODE_COORD_SECTION\t\t',
    ...coords,
    'DEMAND_SECTION\t\t',
    ...demands,
    'DEPOT_SECTION\t\t',
    ...depots,
    'EOF\t\t',
    '',
  ].join('\r\n');
}

function load(text = vrpText()) {
  return loadBenchmarkText(text, 'vrplib', 'X-tiny');
}

describe('CVRPLIB X (VRPLIB) text', () => {
  it('round: EUC_2D arcs are the Euclidean distance rounded to the nearest integer; travel time = distance', () => {
    const problem = load();
    const n = problem.travel.size;
    const d = (i: number, j: number) => problem.travel.distance[i * n + j];
    expect(d(0, 1)).toBe(4); // √13 = 3.606 → 4 (truncation would give 3)
    expect(d(0, 2)).toBe(5);
    expect(d(0, 3)).toBe(1); // √2 = 1.414 → 1
    expect(d(1, 2)).toBe(1); // √2
    expect(d(2, 3)).toBe(4); // √13
    expect(problem.travel.durations[0]).toEqual(problem.travel.distance);
    expect(problem.travelSource).toEqual({ kind: 'euclidean', rounding: 'round' });
    expect(problem.units).toEqual({ timePerSecond: 1, distancePerReported: 1 });
  });

  it('stop_index = customer number − 1 = node id − 2; node 1 (the depot) is location 0 and no stop', () => {
    const problem = load();
    expect(problem.stops.map((s) => [s.index, s.name, s.location, s.load[0]])).toEqual([
      [0, '1', 1, 4],
      [1, '2', 2, 5],
      [2, '3', 3, 6],
    ]);
    expect(problem.locations).toEqual([
      { lng: 0, lat: 0 },
      { lng: 2, lat: 3 },
      { lng: 3, lat: 4 },
      { lng: 1, lat: 1 },
    ]);
  });

  it('fleet: unlimited in the X set, so one vehicle per customer (a bound no solution exceeds), uncapped in time', () => {
    const problem = load();
    expect(problem.vehicles).toHaveLength(3);
    for (const vehicle of problem.vehicles) {
      expect(Array.from(vehicle.capacity)).toEqual([10]);
      expect(vehicle.shiftEnd).toBe(Infinity);
      expect(vehicle.earliestStart).toBe(0);
      expect(vehicle.shiftStartGiven).toBe(false);
      expect(vehicle.flexibleStart).toBe(true);
      expect(vehicle.endLocation).toBe(0);
    }
    expect(problem.stops.every((s) => s.windows.length === 1 && s.windows[0]!.start === 0 && s.windows[0]!.end === Infinity)).toBe(true);
    expect(problem.stops.every((s) => s.duration === 0 && s.priority === 1)).toBe(true);
    expect(problem.objective).toEqual({ minimizeRoutes: false, cost: 'distance', balance: 'none' });
  });

  it('a depot other than node 1 becomes location 0 and customers keep node order', () => {
    const problem = load(vrpText({ depots: ['3', '-1'] }));
    expect(problem.locations[0]).toEqual({ lng: 3, lat: 4 });
    expect(problem.stops.map((s) => problem.locations[s.location])).toEqual([
      { lng: 0, lat: 0 },
      { lng: 2, lat: 3 },
      { lng: 1, lat: 1 },
    ]);
    expect(problem.stops.map((s) => s.load[0])).toEqual([0, 4, 6]);
  });

  describe('malformed input raises InputError naming the line', () => {
    it('an unsupported EDGE_WEIGHT_TYPE', () => {
      const header = ['NAME : X-tiny', 'TYPE : CVRP', 'DIMENSION : 4', 'EDGE_WEIGHT_TYPE : GEO', 'CAPACITY : 10'];
      expect(inputError(() => load(vrpText({ header }))).message).toMatch(/line 4: unsupported EDGE_WEIGHT_TYPE "GEO"/);
    });

    it('an unsupported TYPE', () => {
      const header = ['TYPE : TSP', 'DIMENSION : 4', 'EDGE_WEIGHT_TYPE : EUC_2D', 'CAPACITY : 10'];
      expect(inputError(() => load(vrpText({ header }))).message).toMatch(/line 1: unsupported TYPE "TSP"/);
    });

    it('a missing CAPACITY', () => {
      const header = ['NAME : X-tiny', 'DIMENSION : 4', 'EDGE_WEIGHT_TYPE : EUC_2D'];
      expect(inputError(() => load(vrpText({ header }))).message).toMatch(/the CAPACITY specification line is missing/);
    });

    it('a coordinate that is not a number', () => {
      const error = inputError(() => load(vrpText({ coords: ['1\t0\t0', '2\t2\tthree', '3\t3\t4', '4\t1\t1'] })));
      expect(error.message).toMatch(/line 9: y is not a number: "three"/);
      expect(error.details[0]!.path).toBe('line 9');
    });

    it('a node listed twice', () => {
      const error = inputError(() => load(vrpText({ demands: ['1 0', '2 4', '2 5', '4 6'] })));
      expect(error.message).toMatch(/line 15: node 2 appears twice in DEMAND_SECTION/);
    });

    it('a node without a demand', () => {
      expect(inputError(() => load(vrpText({ demands: ['1 0', '2 4', '4 6'] }))).message).toMatch(/DEMAND_SECTION lacks node 3/);
    });

    it('a node id beyond DIMENSION', () => {
      const error = inputError(() => load(vrpText({ coords: ['1 0 0', '2 2 3', '3 3 4', '5 1 1'] })));
      expect(error.message).toMatch(/line 11: node 5 in NODE_COORD_SECTION is beyond DIMENSION 4/);
    });

    it('two depots', () => {
      expect(inputError(() => load(vrpText({ depots: ['1', '2', '-1'] }))).message).toMatch(/line 19: only one depot is supported/);
    });

    it('a negative demand', () => {
      const error = inputError(() => load(vrpText({ demands: ['1 0', '2 -4', '3 5', '4 6'] })));
      expect(error.message).toMatch(/line 14: demand of node 2 must not be negative/);
    });

    it('an unsupported section', () => {
      const header = ['DIMENSION : 4', 'EDGE_WEIGHT_TYPE : EUC_2D', 'CAPACITY : 10', 'EDGE_WEIGHT_SECTION'];
      expect(inputError(() => load(vrpText({ header }))).message).toMatch(/line 4: unsupported section EDGE_WEIGHT_SECTION/);
    });
  });
});
