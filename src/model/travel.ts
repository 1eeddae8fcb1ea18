/**
 * The offline travel model of decisions.md: great-circle distance × road factor, rounded to
 * whole metres; travel time = distance ÷ (base speed × speed factor) × traffic, rounded up to
 * a whole second.
 */
import type { Point, TravelMatrix } from './problem.js';

export const EARTH_RADIUS_M = 6_371_008.8;
export const DEFAULT_ROAD_FACTOR = 1.3;
export const DEFAULT_BASE_SPEED_KMH = 40;

export interface TravelModelOptions {
  roadFactor: number;
  baseSpeedKmh: number;
  /** Travel-time multiplier, 1..2 (project `traffic`). */
  traffic: number;
}

const RAD = Math.PI / 180;

export function haversineMetres(a: Point, b: Point): number {
  return haversineWithCosines(a, b, Math.cos(a.lat * RAD), Math.cos(b.lat * RAD));
}

/** The same, given the cosines of both latitudes: a matrix computes each point's once, not once a pair. */
function haversineWithCosines(a: Point, b: Point, cosLatA: number, cosLatB: number): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLng = (b.lng - a.lng) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + cosLatA * cosLatB * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Seconds to drive `metres` at the given speed factor, rounded up to a whole second. */
export function travelSeconds(metres: number, speedFactor: number, model: TravelModelOptions): number {
  if (metres === 0) return 0;
  const metresPerSecond = (model.baseSpeedKmh * 1000 * speedFactor) / 3600;
  return Math.ceil((metres / metresPerSecond) * model.traffic - 1e-9);
}

/**
 * Builds the distance matrix and one duration matrix per distinct speed factor.
 * Returns the matrix and, for each input speed factor, its profile index.
 *
 * On the 5,000-stop limit this is some 15 million pairs, a good part of what a command's
 * `--time-limit` must cover (issue 26), so the haversine is taken through each point's unit
 * vector: h = sin²(Δφ/2) + cos φa cos φb sin²(Δλ/2) is a quarter of the squared chord between
 * the two, which costs a square root and one arcsine a pair instead of two sines as well. The
 * upper triangles are computed row by row and mirrored in tiles, so that writes stay in cache.
 */
export function buildGeoTravelMatrix(
  points: Point[],
  speedFactors: number[],
  model: TravelModelOptions,
): { travel: TravelMatrix; profileOf: number[] } {
  const size = points.length;
  const distance = new Int32Array(size * size);
  const { x, y, z } = unitVectors(points);
  for (let i = 0; i < size; i++) {
    const xi = x[i]!;
    const yi = y[i]!;
    const zi = z[i]!;
    const row = i * size;
    for (let j = i + 1; j < size; j++) {
      const dx = xi - x[j]!;
      const dy = yi - y[j]!;
      const dz = zi - z[j]!;
      const halfChord = Math.sqrt(dx * dx + dy * dy + dz * dz) / 2;
      distance[row + j] = roundMetres(2 * EARTH_RADIUS_M * arcsine(halfChord) * model.roadFactor);
    }
  }
  const distinct: number[] = [];
  const profileOf = speedFactors.map((factor) => {
    let p = distinct.indexOf(factor);
    if (p < 0) {
      p = distinct.length;
      distinct.push(factor);
    }
    return p;
  });
  // Durations follow from the mirrored distances cell by cell: a pass in memory order instead of
  // mirroring each duration matrix as well (a transpose, some 0.3 s a matrix on 5,000 stops).
  mirrorUpperTriangle(distance, size);
  const durations = distinct.map((factor) => durationsOf(distance, factor, model));
  return { travel: { size, distance, durations, symmetric: true }, profileOf };
}

/**
 * asin(x) for 0 ≤ x: by its Taylor series below SERIES_MAX (some 127 km between two points), where
 * the first term left out, about 0.022·x¹¹, is below 10⁻¹⁷ of the sum: the same metres as
 * Math.asin at a fraction of its cost, which was most of a large matrix's time.
 */
function arcsine(x: number): number {
  if (x >= SERIES_MAX) return Math.asin(Math.min(1, x));
  const x2 = x * x;
  return x * (1 + x2 * (1 / 6 + x2 * (3 / 40 + x2 * (5 / 112 + x2 * (35 / 1152)))));
}
const SERIES_MAX = 0.01;

/**
 * Math.round(x), by truncating x + ½ where that is the same (1 ≤ x < 2³¹, every road distance in
 * metres: there x + ½ is exact or rounds short of the next whole number; below 1 it may not,
 * 0.49999999999999994 + ½ is 1). Math.round was two thirds of a 5,000-stop matrix's time: the
 * upper triangle took 310 ms of CPU with it and 105 ms with this, on Node 20 and 22 alike, every
 * one of its 13 M cells the same.
 */
export function roundMetres(x: number): number {
  return x >= 1 && x < 2_147_483_647 ? (x + 0.5) | 0 : Math.round(x);
}

/** Each point on the unit sphere. */
function unitVectors(points: Point[]): { x: Float64Array; y: Float64Array; z: Float64Array } {
  const x = new Float64Array(points.length);
  const y = new Float64Array(points.length);
  const z = new Float64Array(points.length);
  for (let i = 0; i < points.length; i++) {
    const lat = points[i]!.lat * RAD;
    const lng = points[i]!.lng * RAD;
    x[i] = Math.cos(lat) * Math.cos(lng);
    y[i] = Math.cos(lat) * Math.sin(lng);
    z[i] = Math.sin(lat);
  }
  return { x, y, z };
}

/** Copies the upper triangle of a square matrix onto the lower one, a tile at a time. */
function mirrorUpperTriangle(matrix: Int32Array, size: number): void {
  const TILE = 64;
  for (let bi = 0; bi < size; bi += TILE) {
    for (let bj = bi; bj < size; bj += TILE) {
      const iEnd = Math.min(bi + TILE, size);
      const jEnd = Math.min(bj + TILE, size);
      for (let i = bi; i < iEnd; i++) {
        for (let j = Math.max(bj, i + 1); j < jEnd; j++) matrix[j * size + i] = matrix[i * size + j]!;
      }
    }
  }
}

/** travelSeconds of every cell, with the speed worked out once. */
function durationsOf(distance: Int32Array, factor: number, model: TravelModelOptions): Int32Array {
  const matrix = new Int32Array(distance.length);
  const metresPerSecond = (model.baseSpeedKmh * 1000 * factor) / 3600;
  const traffic = model.traffic;
  for (let k = 0; k < distance.length; k++) {
    const metres = distance[k]!;
    // The same arithmetic as travelSeconds, in the same order, so that the seconds are the same.
    matrix[k] = metres === 0 ? 0 : Math.ceil((metres / metresPerSecond) * traffic - 1e-9);
  }
  return matrix;
}

/**
 * The duration and distance of a leg with no road (a provider's `null` cell). Far beyond any
 * route's horizon (the solver caps shifts well below it), so a route using one is infeasible,
 * yet small enough that sums stay exact and the value fits the Int32 matrices.
 */
export const NO_ROAD = 1_000_000_000;

/** A road travel table (src/travel) in the problem's units: seconds and metres, before speeds and traffic. */
export interface RoadTable {
  size: number;
  durations: Float64Array;
  distances: Float64Array;
  noRoad: Uint8Array;
}

/**
 * The integer matrices of a road table: distance rounded to whole metres; per distinct speed
 * factor, duration ÷ speed × traffic rounded up to a whole second (as the offline model does);
 * no-road cells get NO_ROAD in both.
 */
export function buildTableTravelMatrix(
  table: RoadTable,
  speedFactors: number[],
  traffic: number,
): { travel: TravelMatrix; profileOf: number[] } {
  const { size } = table;
  const distance = new Int32Array(size * size);
  for (let k = 0; k < distance.length; k++) distance[k] = table.noRoad[k] ? NO_ROAD : Math.round(table.distances[k]!);
  const distinct = [...new Set(speedFactors)];
  const durations = distinct.map((factor) => {
    const matrix = new Int32Array(size * size);
    for (let k = 0; k < matrix.length; k++) {
      matrix[k] = table.noRoad[k] ? NO_ROAD : Math.min(NO_ROAD - 1, roadSeconds(table.durations[k]!, factor, traffic));
    }
    return matrix;
  });
  return { travel: { size, distance, durations }, profileOf: speedFactors.map((factor) => distinct.indexOf(factor)) };
}

/** A provider's seconds for a driver of this speed factor in this traffic, rounded up. */
export function roadSeconds(seconds: number, speedFactor: number, traffic: number): number {
  if (seconds === 0) return 0;
  return Math.ceil((seconds / speedFactor) * traffic - 1e-9);
}
