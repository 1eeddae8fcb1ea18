import { describe, expect, it } from 'vitest';
import type { Point } from '../../src/model/problem.js';
import { buildGeoTravelMatrix, haversineMetres, roundMetres, travelSeconds } from '../../src/model/travel.js';
import { DEFAULT_TRAVEL_MODEL } from '../support/problem-builder.js';

/** The road distance between two points as the matrix has it (the model's one place that computes it). */
function roadDistanceMetres(a: Point, b: Point, roadFactor: number): number {
  return buildGeoTravelMatrix([a, b], [1], { ...DEFAULT_TRAVEL_MODEL, roadFactor }).travel.distance[1]!;
}

// Paris (Notre-Dame) to Lyon (Bellecour): about 392 km as the crow flies.
const paris = { lat: 48.853, lng: 2.3499 };
const lyon = { lat: 45.7578, lng: 4.832 };

describe('travel model (decisions.md: Travel model)', () => {
  it('distance is great-circle with radius 6,371,008.8 m', () => {
    // One degree of latitude on that sphere is 2πR/360 = 111,195.08 m.
    expect(haversineMetres({ lat: 10, lng: 5 }, { lat: 11, lng: 5 })).toBeCloseTo(111_195.08, 1);
    const d = haversineMetres(paris, lyon);
    expect(d).toBeGreaterThan(391_000);
    expect(d).toBeLessThan(393_000);
  });

  it('road distance is great-circle × road factor 1.3, rounded to whole metres', () => {
    const exact = haversineMetres(paris, lyon) * 1.3;
    expect(roadDistanceMetres(paris, lyon, 1.3)).toBe(Math.round(exact));
  });

  it('travel time is distance ÷ (40 km/h × speed factor) × traffic, rounded up to a whole second', () => {
    // 10 km at 40 km/h is exactly 900 s.
    expect(travelSeconds(10_000, 1, DEFAULT_TRAVEL_MODEL)).toBe(900);
    // At twice normal speed, half the time; at very slow (0.5), twice.
    expect(travelSeconds(10_000, 2, DEFAULT_TRAVEL_MODEL)).toBe(450);
    expect(travelSeconds(10_000, 0.5, DEFAULT_TRAVEL_MODEL)).toBe(1800);
    // Traffic multiplies the time.
    expect(travelSeconds(10_000, 1, { ...DEFAULT_TRAVEL_MODEL, traffic: 1.5 })).toBe(1350);
    // 1 m takes 0.09 s: rounded up to 1 s.
    expect(travelSeconds(1, 1, DEFAULT_TRAVEL_MODEL)).toBe(1);
    expect(travelSeconds(0, 1, DEFAULT_TRAVEL_MODEL)).toBe(0);
  });

  it('road factor and base speed are settable', () => {
    expect(travelSeconds(10_000, 1, { roadFactor: 1, baseSpeedKmh: 20, traffic: 1 })).toBe(1800);
    expect(roadDistanceMetres(paris, lyon, 1)).toBe(Math.round(haversineMetres(paris, lyon)));
  });

  it('builds a symmetric matrix and one duration profile per distinct speed', () => {
    const points = [paris, lyon, { lat: 45.76, lng: 4.84 }];
    const { travel, profileOf } = buildGeoTravelMatrix(points, [1, 0.5, 1, 1.25], DEFAULT_TRAVEL_MODEL);
    expect(profileOf).toEqual([0, 1, 0, 2]);
    expect(travel.durations).toHaveLength(3);
    expect(travel.distance[0 * 3 + 1]).toBe(travel.distance[1 * 3 + 0]);
    // …and says so, for the neighbour lists (solver/instance.ts) to read one way.
    expect(travel.symmetric).toBe(true);
    expect(travel.distance[4]).toBe(0);
    expect(travel.durations[1]![1]).toBe(travelSeconds(travel.distance[1]!, 0.5, DEFAULT_TRAVEL_MODEL));
  });

  it('the matrix, taken through unit vectors and mirrored in tiles, is the haversine to the metre', () => {
    // 150 points (more than two 64-row tiles) from a town's streets to a few hundred kilometres.
    let seed = 7;
    const random = (): number => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
    const points = Array.from({ length: 150 }, (_, i) => {
      const spread = i % 3 === 0 ? 0.001 : i % 3 === 1 ? 0.1 : 3;
      return { lat: 48.85 + (random() - 0.5) * spread, lng: 2.35 + (random() - 0.5) * spread };
    });
    const { travel } = buildGeoTravelMatrix(points, [1, 0.75], DEFAULT_TRAVEL_MODEL);
    const n = points.length;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const d = travel.distance[i * n + j]!;
        const exact = i === j ? 0 : haversineMetres(points[i]!, points[j]!) * DEFAULT_TRAVEL_MODEL.roadFactor;
        // Whole metres of the same distance: only a value within round-off of a half may round the other way.
        expect(Math.abs(d - exact), `${i}->${j}`).toBeLessThanOrEqual(0.5 + 1e-6);
        expect(travel.distance[j * n + i], `${j}->${i}`).toBe(d);
        expect(travel.durations[1]![i * n + j]).toBe(travelSeconds(d, 0.75, DEFAULT_TRAVEL_MODEL));
      }
    }
  });
});

describe('roundMetres: Math.round of a road distance, by truncation', () => {
  it('is Math.round on halves, on values just below and above them, and outside the range it truncates in', () => {
    const values = [0, 0.3, 0.5, 0.49999999999999994, 0.9999999999999999, 1, 1.5, 2.5, 2 ** 31 - 1.5, 2 ** 31 + 0.5, 1e12 + 0.5];
    for (let k = 1; k < 2 ** 31; k = k * 3 + 1) {
      const half = k + 0.5;
      values.push(half, half - 1e-7, half + 1e-7, nextDown(half), nextUp(half), k, nextDown(k), nextUp(k));
    }
    for (const x of values) expect(roundMetres(x), `${x}`).toBe(Math.round(x));
  });

  it('is Math.round on a million random distances up to 20,000 km', () => {
    let seed = 11;
    const random = (): number => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 1_000_000; i++) {
      const x = random() * 10 ** (1 + random() * 6.3);
      if (roundMetres(x) !== Math.round(x)) expect(roundMetres(x), `${x}`).toBe(Math.round(x));
    }
  });
});

/** The double just below / above a positive x. */
function nextDown(x: number): number {
  const view = new Float64Array([x]);
  new BigInt64Array(view.buffer)[0]! -= 1n;
  return view[0]!;
}
function nextUp(x: number): number {
  const view = new Float64Array([x]);
  new BigInt64Array(view.buffer)[0]! += 1n;
  return view[0]!;
}
