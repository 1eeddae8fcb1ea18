/**
 * Benchmark arc lengths. DIMACS (`trunc1`): the Euclidean distance truncated to one decimal,
 * stored exactly as integer tenths. CVRPLIB / TSPLIB EUC_2D (`round`): rounded to the nearest integer.
 */
import type { TravelMatrix } from '../../model/problem.js';
import type { EuclideanRounding } from './instance.js';

export interface PlanarPoint {
  x: number;
  y: number;
}

/** Largest r with r² ≤ v, exact for integers up to 2^53 (Math.sqrt may be off by one ulp). */
export function integerSqrt(v: number): number {
  let r = Math.floor(Math.sqrt(v));
  while (r * r > v) r--;
  while ((r + 1) * (r + 1) <= v) r++;
  return r;
}

/** floor(10·√(dx²+dy²)): tenths, exact for integer coordinates as isqrt(100·s). */
export function truncatedTenths(a: PlanarPoint, b: PlanarPoint): number {
  const dx = a.x - b.x;
  const dy = a.y - b.y;
  const hundredSquares = 100 * (dx * dx + dy * dy);
  if (Number.isInteger(hundredSquares)) return integerSqrt(hundredSquares);
  return Math.floor(Math.sqrt(hundredSquares));
}

/** TSPLIB nint(√(dx²+dy²)). */
export function roundedDistance(a: PlanarPoint, b: PlanarPoint): number {
  const dx = a.x - b.x;
  const dy = a.y - b.y;
  return Math.floor(Math.sqrt(dx * dx + dy * dy) + 0.5);
}

function arcLength(a: PlanarPoint, b: PlanarPoint, rounding: EuclideanRounding): number {
  return rounding === 'trunc1' ? truncatedTenths(a, b) : roundedDistance(a, b);
}

/** Travel time equals distance, so the single duration matrix is the distance matrix itself. */
export function buildEuclideanMatrix(points: PlanarPoint[], rounding: EuclideanRounding): TravelMatrix {
  const size = points.length;
  const distance = new Int32Array(size * size);
  for (let i = 0; i < size; i++) {
    for (let j = i + 1; j < size; j++) {
      const d = arcLength(points[i]!, points[j]!, rounding);
      distance[i * size + j] = d;
      distance[j * size + i] = d;
    }
  }
  return { size, distance, durations: [distance], symmetric: true };
}
