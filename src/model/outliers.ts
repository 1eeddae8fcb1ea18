/**
 * Places far from all the others (decisions.md, "Input hygiene"): a stop in the wrong town, or one
 * whose latitude and longitude were swapped. One rule for typed coordinates and geocoded ones.
 */
import type { Point } from './problem.js';
import { haversineMetres } from './travel.js';

/** A place this far from the middle of the others (and five times their typical distance) is far from them. */
export const OUTLIER_METRES = 50_000;

export interface FarPlace {
  /** Index into the points given. */
  index: number;
  metres: number;
  /** Whether swapping its latitude and longitude would bring it among the others. */
  swapped: boolean;
}

/** The points far from the middle of all of them; none when there are fewer than three. */
export function farFromTheOthers(points: Point[]): FarPlace[] {
  if (points.length < 3) return [];
  const middle = { lat: median(points.map((point) => point.lat)), lng: median(points.map((point) => point.lng)) };
  const typical = median(points.map((point) => haversineMetres(point, middle)));
  const limit = Math.max(OUTLIER_METRES, 5 * typical);
  return points.flatMap((point, index) => {
    const metres = haversineMetres(point, middle);
    if (metres <= limit) return [];
    const swapped = Math.abs(point.lng) <= 90 && haversineMetres({ lat: point.lng, lng: point.lat }, middle) <= limit;
    return [{ index, metres, swapped }];
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
