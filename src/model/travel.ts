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
 */
export function buildGeoTravelMatrix(
  points: Point[],
  speedFactors: number[],
  model: TravelModelOptions,
): { travel: TravelMatrix; profileOf: number[] } {
  const size = points.length;
  const distance = new Int32Array(size * size);
  const cosLat = points.map((p) => Math.cos(p.lat * RAD));
  for (let i = 0; i < size; i++) {
    const a = points[i]!;
    const cosA = cosLat[i]!;
    for (let j = i + 1; j < size; j++) {
      const d = Math.round(haversineWithCosines(a, points[j]!, cosA, cosLat[j]!) * model.roadFactor);
      distance[i * size + j] = d;
      distance[j * size + i] = d;
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
  const durations = distinct.map((factor) => {
    const matrix = new Int32Array(size * size);
    for (let k = 0; k < matrix.length; k++) matrix[k] = travelSeconds(distance[k]!, factor, model);
    return matrix;
  });
  return { travel: { size, distance, durations }, profileOf };
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
